import { Router, type Request } from 'express';
import * as v from 'valibot';
import { NamedRangeName, type RangeBand } from '#common/named-range.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import {
  FactorUploadFields,
  NamedRangeBody,
  NamedRangeUpdateBody,
} from '#common/contracts/product-extras.ts';
import { pageOf, parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  assertDraft,
  assertRoom,
  cantLoad,
  draftLike,
  joinedDraft,
  versionById,
  versionFilter,
} from './insurance-product-routes.ts';
import { assertLookupUnused } from './formula-lookups.ts';
import { parseFactorCsv, type FactorRow } from './product-factor-csv.ts';
import { invalidFile } from '#server/sandbox/platform/csv.ts';
import { rawMultipart, readUploadForm } from '#server/sandbox/platform/multipart.ts';
import { audit, idOf, uniqueViolation, type Audit } from '#server/sandbox/platform/records.ts';
import { deletePart, partChange, writePart, type PartChange } from './product-part-audit.ts';

/**
 * Product factors and named ranges of a product version (spec section 7): the tables and bands
 * that premium formulas read with `factor('name', ...)` and `range('name', x)`. Like fields and
 * formulas, they change only while the version is a draft. Decisions in docs/contracts.md,
 * "Insurance: product extras".
 */

const allow = (resource: 'products' | 'product-versions', action: 'view' | 'update') =>
  requireServicePermission('policy-management', resource, action);
const VIEW = allow('products', 'view');
const UPDATE = allow('product-versions', 'update');

const cantLoadFactors = () => cantLoad('factors');
const cantLoadRanges = () => cantLoad('named ranges');

const lookupName = NamedRangeName;

/** A version holds at most this many named ranges, so one page of the spec's size holds all. */
const MAX_RANGES_PER_VERSION = 200;

interface FactorRowDb extends Audit {
  id: number;
  code: string;
  product_version_id: number;
  name: string;
  key_columns: string[];
  rows: FactorRow[];
  row_count: number;
  filename: string;
}
interface RangeRow extends Audit {
  id: number;
  code: string;
  product_version_id: number;
  name: string;
  bands: RangeBand[];
  version: number;
}

const presentFactor = (r: FactorRowDb) => ({
  id: r.id,
  code: r.code,
  productVersionId: r.product_version_id,
  name: r.name,
  keyColumns: r.key_columns,
  rowCount: r.row_count,
  filename: r.filename,
  ...audit(r),
});

const presentRange = (r: RangeRow) => ({
  id: r.id,
  code: r.code,
  productVersionId: r.product_version_id,
  name: r.name,
  bands: r.bands,
  version: r.version,
  ...audit(r),
});

/** Reads and checks an uploaded factor table: the form, the version (a draft) and the file. */
async function readFactorUpload(db: Queryable, req: Request, tenantId: number) {
  const form = await readUploadForm(req);
  const { productVersionId, name } = parseBody(FactorUploadFields, Object.fromEntries(form.fields));
  const version = await versionById(db, tenantId, productVersionId, cantLoadFactors);
  assertDraft(version);
  const parsed = parseFactorCsv(form.text);
  if (!parsed.ok) throw invalidFile(parsed.problems);
  // Replacing a table must keep the formulas that read it working.
  await assertLookupUnused(
    db,
    tenantId,
    version.id,
    'factor',
    name,
    parsed.table.keyColumns.length,
  );
  return { version, name, filename: form.filename, table: parsed.table };
}

export function productLookupRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  // -- product factors

  router.post('/product-factors/validate', UPDATE, rawMultipart, async (req, res) => {
    const { tenantId } = getAuth(res);
    const upload = await readFactorUpload(db, req, tenantId);
    const [existing] = await db.query<{ id: number }>(
      'SELECT id FROM product_factors WHERE tenant_id = $1 AND product_version_id = $2 AND name = $3',
      [tenantId, upload.version.id, upload.name],
    );
    res.json({
      summary: {
        productVersionId: upload.version.id,
        name: upload.name,
        filename: upload.filename,
        keyColumns: upload.table.keyColumns,
        rowCount: upload.table.rows.length,
        replacesId: existing?.id ?? null,
        preview: upload.table.rows.slice(0, 10),
      },
    });
  });

  router.post('/product-factors', UPDATE, rawMultipart, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const upload = await readFactorUpload(db, req, tenantId);
    // The file it replaces, for the version's history: which file, how many rows.
    const [was] = await db.query<{ filename: string; row_count: number }>(
      'SELECT filename, row_count FROM product_factors WHERE product_version_id = $1 AND name = $2',
      [upload.version.id, upload.name],
    );
    const [row] = await writePart<FactorRowDb & { inserted: boolean }>(
      db,
      { auth, clock: ctx.clock },
      `INSERT INTO product_factors (tenant_id, code, product_version_id, name, key_columns, rows,
                                    row_count, filename, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
       ON CONFLICT (product_version_id, name) DO UPDATE SET key_columns = $5, rows = $6,
         row_count = $7, filename = $8, updated_by = $9, updated_at = clock_timestamp()
       RETURNING *, (xmax = 0) AS inserted`,
      [
        tenantId,
        newCode('pfa'),
        upload.version.id,
        upload.name,
        JSON.stringify(upload.table.keyColumns),
        JSON.stringify(upload.table.rows),
        upload.table.rows.length,
        upload.filename,
        userCode,
      ],
      ([saved]) =>
        saved && {
          versionId: upload.version.id,
          part: 'factor',
          name: saved.name,
          before: was ? { filename: was.filename, rowCount: was.row_count } : null,
          after: { filename: saved.filename, rowCount: saved.row_count },
        },
    );
    res.status(row!.inserted ? 201 : 200).json({ productFactor: presentFactor(row!) });
  });

  router.get('/product-factors', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: ['productVersionId'],
      orders: [],
      expands: [],
    });
    const version = await versionFilter(
      db,
      tenantId,
      list.filter.get('productVersionId'),
      cantLoadFactors,
    );
    // Newest change first: the client's cache compares the first item's updatedAt.
    const rows = await db.query<FactorRowDb>(
      `SELECT id, code, product_version_id, name, key_columns, row_count, filename, created_at,
              updated_at, created_by, updated_by
         FROM product_factors WHERE tenant_id = $1 AND product_version_id = $2
        ORDER BY updated_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [tenantId, version.id, list.pageSize + 1, (list.page - 1) * list.pageSize],
    );
    const page = pageOf(rows, list);
    res.json({ items: page.items.map(presentFactor), nextPageToken: page.nextPageToken });
  });

  router.get('/product-factors/for-version', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const query = parseBody(
      v.object({
        productVersionId: v.pipe(
          v.string('productVersionId is required'),
          v.regex(/^\d{1,9}$/, 'a product version id'),
        ),
        values: v.optional(v.pipe(v.string(), v.maxLength(2000))),
      }),
      req.query,
    );
    const names = (query.values ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length > 50 || !names.every((n) => v.is(lookupName, n))) {
      throw new HttpError(400, 'invalid_query', 'values: up to 50 factor names joined by ,');
    }
    const version = await versionById(
      db,
      tenantId,
      Number(query.productVersionId),
      cantLoadFactors,
    );
    const rows = await db.query<FactorRowDb>(
      `SELECT * FROM product_factors WHERE tenant_id = $1 AND product_version_id = $2
          AND (cardinality($3::text[]) = 0 OR name = ANY($3::text[]))
        ORDER BY name`,
      [tenantId, version.id, names],
    );
    res.json({
      productVersionId: version.id,
      values: Object.fromEntries(rows.map((r) => [r.name, { ...presentFactor(r), rows: r.rows }])),
    });
  });

  router.delete('/product-factors/:id', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId } = auth;
    const notFound = () => new HttpError(404, 'not_found', 'product factor not found');
    const [factor] = await db.query<{
      id: number;
      name: string;
      product_version_id: number;
      status: string;
      version: number;
    }>(
      `SELECT f.id, f.name, f.product_version_id, pv.status, pv.version FROM product_factors f
         JOIN product_versions pv ON pv.id = f.product_version_id
        WHERE f.tenant_id = $1 AND f.id = $2`,
      [tenantId, idOf(String(req.params.id), notFound)],
    );
    if (!factor) throw notFound();
    draftLike(factor as Parameters<typeof draftLike>[0]);
    await assertLookupUnused(db, tenantId, factor.product_version_id, 'factor', factor.name);
    await deletePart(db, { auth, clock: ctx.clock }, 'product_factors', factor.id, {
      versionId: factor.product_version_id,
      part: 'factor',
      name: factor.name,
      before: {},
      after: null,
    });
    res.status(204).end();
  });

  // -- named ranges

  router.get('/named-ranges', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    // The spec asks for pageSize 1000000 (all of them); a version holds at most 200.
    const asked = typeof req.query.pageSize === 'string' ? req.query.pageSize : undefined;
    if (asked !== undefined && !/^\d{1,7}$/.test(asked)) {
      throw new HttpError(400, 'invalid_query', 'pageSize must be a positive integer');
    }
    const list = parseListQuery(
      { ...req.query, pageSize: asked && Number(asked) > 1000 ? '1000' : asked },
      { filters: ['productVersionId'], orders: [], expands: [], maxPageSize: 1000 },
    );
    const version = await versionFilter(
      db,
      tenantId,
      list.filter.get('productVersionId'),
      cantLoadRanges,
    );
    const rows = await db.query<RangeRow>(
      `SELECT * FROM named_ranges WHERE tenant_id = $1 AND product_version_id = $2
        ORDER BY name, id LIMIT $3 OFFSET $4`,
      [tenantId, version.id, list.pageSize + 1, (list.page - 1) * list.pageSize],
    );
    const page = pageOf(rows, list);
    res.json({ items: page.items.map(presentRange), nextPageToken: page.nextPageToken });
  });

  router.post('/named-ranges', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const body = parseBody(NamedRangeBody, req.body);
    const version = await versionById(db, tenantId, body.productVersionId, cantLoadRanges);
    assertDraft(version);
    await assertRoom(db, tenantId, version.id, {
      table: 'named_ranges',
      max: MAX_RANGES_PER_VERSION,
      noun: 'named ranges',
    });
    try {
      const [row] = await writePart<RangeRow>(
        db,
        { auth, clock: ctx.clock },
        `INSERT INTO named_ranges (tenant_id, code, product_version_id, name, bands, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
        [tenantId, newCode('nra'), version.id, body.name, JSON.stringify(body.bands), userCode],
        ([saved]) => saved && rangePart(saved, null, saved),
      );
      res.status(201).json({ namedRange: presentRange(row!) });
    } catch (error) {
      if (uniqueViolation(error))
        throw new HttpError(409, 'name_taken', `a named range ${body.name} exists`);
      throw error;
    }
  });

  const rangeWithVersion = async (tenantId: number, rawId: string) => {
    const notFound = () => new HttpError(404, 'not_found', 'named range not found');
    const [row] = await db.query<RangeRow & { status: string; product_version: number }>(
      `SELECT r.*, pv.status, pv.version AS product_version FROM named_ranges r
         JOIN product_versions pv ON pv.id = r.product_version_id
        WHERE r.tenant_id = $1 AND r.id = $2`,
      [tenantId, idOf(rawId, notFound)],
    );
    if (!row) throw notFound();
    return row;
  };
  const rangeDraft = joinedDraft;

  /** A named range in its version's history: its name and bands. */
  const rangePart = (row: RangeRow, before: RangeRow | null, after: RangeRow | null): PartChange =>
    partChange('named_range', row, before, after, (r) => ({ name: r.name, bands: r.bands }));

  router.put('/named-ranges/:id', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const range = await rangeWithVersion(tenantId, String(req.params.id));
    const body = parseBody(NamedRangeUpdateBody, req.body);
    rangeDraft(range);
    const conflict = (current: RangeRow = range) =>
      new HttpError(409, 'version_conflict', 'the named range was changed since it was loaded', {
        namedRange: presentRange(current),
      });
    if (body.version !== range.version) throw conflict();
    if (body.name !== range.name) {
      await assertLookupUnused(db, tenantId, range.product_version_id, 'range', range.name);
    }
    try {
      const [row] = await writePart<RangeRow>(
        db,
        { auth, clock: ctx.clock },
        `UPDATE named_ranges SET name = $4, bands = $5, version = version + 1,
                updated_at = clock_timestamp(), updated_by = $6
          WHERE tenant_id = $1 AND id = $2 AND version = $3 RETURNING *`,
        [tenantId, range.id, body.version, body.name, JSON.stringify(body.bands), userCode],
        ([saved]) => saved && rangePart(saved, range, saved),
      );
      // Changed between the read above and this write.
      if (!row) throw conflict(await rangeWithVersion(tenantId, String(range.id)));
      res.json({ namedRange: presentRange(row) });
    } catch (error) {
      if (uniqueViolation(error))
        throw new HttpError(409, 'name_taken', `a named range ${body.name} exists`);
      throw error;
    }
  });

  router.delete('/named-ranges/:id', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId } = auth;
    const range = await rangeWithVersion(tenantId, String(req.params.id));
    rangeDraft(range);
    await assertLookupUnused(db, tenantId, range.product_version_id, 'range', range.name);
    await deletePart(
      db,
      { auth, clock: ctx.clock },
      'named_ranges',
      range.id,
      rangePart(range, range, null),
    );
    res.status(204).end();
  });

  return router;
}
