import { Router } from 'express';
import type { FunnelStep } from '#common/booking-funnel.ts';
import {
  FunnelCreateBody,
  FunnelPatchBody,
  FunnelReplaceBody,
} from '#common/contracts/product-extras.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { pageOf, parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { escapeLike, newCode } from '#server/sandbox/platform/admin-shared.ts';
import { audit, type Audit } from '#server/sandbox/platform/records.ts';
import { recordPart, type PartChange, type Who } from './product-part-audit.ts';

/**
 * Booking funnels (spec section 7): the steps through which a customer applies for a product.
 * Created, patched, replaced and deleted by code; every change keeps a snapshot as a new version
 * (`GET /booking-funnels/{code}/versions/{version}`). Decisions in docs/contracts.md,
 * "Insurance: product extras".
 */

const VIEW = requireServicePermission('policy-management', 'products', 'view');
const UPDATE = requireServicePermission('policy-management', 'products', 'update');

interface FunnelRow extends Audit {
  id: number;
  code: string;
  product_id: number;
  product_slug: string;
  product_version_id: number | null;
  name: string;
  steps: FunnelStep[];
  version: number;
}
interface Snapshot {
  name: string;
  productSlug: string;
  productVersionId: number | null;
  steps: FunnelStep[];
}

const SELECT = `SELECT f.*, p.slug AS product_slug FROM booking_funnels f JOIN products p ON p.id = f.product_id`;

const notFound = () => new HttpError(404, 'not_found', 'booking funnel not found');

async function funnelByCode(db: Queryable, tenantId: number, code: string): Promise<FunnelRow> {
  if (!/^bfn_[A-Za-z0-9]{1,40}$/.test(code)) throw notFound();
  const [row] = await db.query<FunnelRow>(`${SELECT} WHERE f.tenant_id = $1 AND f.code = $2`, [
    tenantId,
    code,
  ]);
  if (!row) throw notFound();
  return row;
}

async function versionsOf(db: Queryable, funnelIds: number[]) {
  return db.query<{
    booking_funnel_id: number;
    version: number;
    created_at: Date;
    created_by: string;
  }>(
    `SELECT booking_funnel_id, version, created_at, created_by FROM booking_funnel_versions
      WHERE booking_funnel_id = ANY($1::int[]) ORDER BY version DESC`,
    [funnelIds],
  );
}

function present(r: FunnelRow, versions: Awaited<ReturnType<typeof versionsOf>>) {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    productId: r.product_id,
    productSlug: r.product_slug,
    productVersionId: r.product_version_id,
    steps: r.steps,
    version: r.version,
    versions: versions
      .filter((x) => x.booking_funnel_id === r.id)
      .map((x) => ({ version: x.version, createdAt: x.created_at, createdBy: x.created_by })),
    ...audit(r),
  };
}

async function presentOne(db: Queryable, row: FunnelRow) {
  return present(row, await versionsOf(db, [row.id]));
}

/**
 * The version a funnel sells, whose fields its steps must name: the one it names, else the
 * product's active version, else its newest.
 */
async function checkContent(
  db: Queryable,
  tenantId: number,
  productId: number,
  productVersionId: number | null,
  steps: FunnelStep[],
): Promise<void> {
  const [version] = await db.query<{ id: number }>(
    `SELECT id FROM product_versions WHERE tenant_id = $1 AND product_id = $2
        AND ($3::int IS NULL OR id = $3)
      ORDER BY (status = 'active') DESC, version DESC LIMIT 1`,
    [tenantId, productId, productVersionId],
  );
  if (!version) {
    throw new HttpError(
      400,
      'validation_error',
      productVersionId === null
        ? 'productVersionId: the product has no version whose fields a funnel could use'
        : 'productVersionId: not a version of this product',
    );
  }
  const fields = await db.query<{ object: string; field: string }>(
    `SELECT o.name AS object, f.name AS field FROM insured_objects o
       JOIN product_fields f ON f.insured_object_id = o.id
      WHERE o.tenant_id = $1 AND o.product_version_id = $2`,
    [tenantId, version.id],
  );
  const known = new Set(fields.map((f) => `${f.object}.${f.field}`));
  steps.forEach((step, s) =>
    step.fields.forEach((ref, f) => {
      const name = `${ref.insuredObject}.${ref.field}`;
      if (!known.has(name)) {
        throw new HttpError(
          400,
          'validation_error',
          `steps.${s}.fields.${f}: ${name} is not a field of the product version`,
        );
      }
    }),
  );
}

const snapshotOf = (r: FunnelRow): Snapshot => ({
  name: r.name,
  productSlug: r.product_slug,
  productVersionId: r.product_version_id,
  steps: r.steps,
});

async function saveSnapshot(tx: Queryable, tenantId: number, row: FunnelRow, by: string) {
  await tx.query(
    `INSERT INTO booking_funnel_versions (tenant_id, booking_funnel_id, version, snapshot, created_by)
     VALUES ($1, $2, $3, $4, $5)`,
    [tenantId, row.id, row.version, JSON.stringify(snapshotOf(row)), by],
  );
}

export function bookingFunnelRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/booking-funnels', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: ['productSlug', 'productId', 'code'],
      orders: ['name', 'createdAt', 'updatedAt'],
      expands: [],
    });
    const productId = list.filter.get('productId');
    if (productId !== undefined && !/^\d{1,9}$/.test(productId)) {
      throw new HttpError(400, 'invalid_query', 'productId must be numeric');
    }
    const column = { name: 'lower(f.name)', createdAt: 'f.created_at', updatedAt: 'f.updated_at' }[
      list.order?.field ?? 'name'
    ];
    const direction = list.order?.direction ?? 'ASC';
    const rows = await db.query<FunnelRow>(
      `${SELECT} WHERE f.tenant_id = $1
          AND ($2::text IS NULL OR p.slug = $2) AND ($3::int IS NULL OR f.product_id = $3)
          AND ($4::text IS NULL OR f.code = $4) AND ($5::text IS NULL OR f.name ILIKE $5)
        ORDER BY ${column} ${direction}, f.id ${direction} LIMIT $6 OFFSET $7`,
      [
        tenantId,
        list.filter.get('productSlug') ?? null,
        productId === undefined ? null : Number(productId),
        list.filter.get('code') ?? null,
        list.search ? escapeLike(list.search) : null,
        list.pageSize + 1,
        (list.page - 1) * list.pageSize,
      ],
    );
    const page = pageOf(rows, list);
    const versions = await versionsOf(
      db,
      page.items.map((r) => r.id),
    );
    res.json({
      items: page.items.map((r) => present(r, versions)),
      nextPageToken: page.nextPageToken,
    });
  });

  router.get('/booking-funnels/:code', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await funnelByCode(db, tenantId, String(req.params.code));
    res.json({ bookingFunnel: await presentOne(db, row) });
  });

  router.get('/booking-funnels/:code/versions/:version', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await funnelByCode(db, tenantId, String(req.params.code));
    const number = String(req.params.version);
    const missing = () => new HttpError(404, 'not_found', 'booking funnel version not found');
    if (!/^\d{1,6}$/.test(number)) throw missing();
    const [found] = await db.query<{
      version: number;
      snapshot: Snapshot;
      created_at: Date;
      created_by: string;
    }>(
      `SELECT version, snapshot, created_at, created_by FROM booking_funnel_versions
        WHERE tenant_id = $1 AND booking_funnel_id = $2 AND version = $3`,
      [tenantId, row.id, Number(number)],
    );
    if (!found) throw missing();
    res.json({
      bookingFunnel: {
        code: row.code,
        version: found.version,
        ...found.snapshot,
        createdAt: found.created_at,
        createdBy: found.created_by,
      },
    });
  });

  /** A funnel in its version's history: its name and steps as a product manager edits them. */
  const funnelPart = (
    row: FunnelRow,
    before: FunnelRow | null,
    after: FunnelRow | null,
  ): PartChange | null =>
    row.product_version_id === null
      ? null
      : {
          versionId: row.product_version_id,
          part: 'booking_funnel',
          name: row.name,
          before: before && { name: before.name, steps: before.steps },
          after: after && { name: after.name, steps: after.steps },
        };
  const recordFunnel = async (tx: Queryable, who: Who, change: PartChange | null) => {
    if (change) await recordPart(tx, who, change);
  };

  router.post('/booking-funnels', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const body = parseBody(FunnelCreateBody, req.body);
    const [product] = await db.query<{ id: number }>(
      'SELECT id FROM products WHERE tenant_id = $1 AND slug = $2',
      [tenantId, body.productSlug],
    );
    if (!product) throw new HttpError(400, 'validation_error', 'productSlug: no such product');
    await checkContent(db, tenantId, product.id, body.productVersionId, body.steps);
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx.query<{ id: number }>(
        `INSERT INTO booking_funnels (tenant_id, code, product_id, product_version_id, name, steps,
                                      created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
        [
          tenantId,
          newCode('bfn'),
          product.id,
          body.productVersionId,
          body.name,
          JSON.stringify(body.steps),
          userCode,
        ],
      );
      const [created] = await tx.query<FunnelRow>(`${SELECT} WHERE f.id = $1`, [inserted!.id]);
      await saveSnapshot(tx, tenantId, created!, userCode);
      await recordFunnel(tx, { auth, clock: ctx.clock }, funnelPart(created!, null, created!));
      return created!;
    });
    res.status(201).json({ bookingFunnel: await presentOne(db, row) });
  });

  /** PUT and PATCH: the merged content, checked, saved with the next version number. */
  const change = async (
    auth: AuthContext,
    code: string,
    basedOn: number,
    merge: (current: FunnelRow) => Pick<FunnelRow, 'name' | 'product_version_id' | 'steps'>,
  ) => {
    const { tenantId, userCode } = auth;
    const current = await funnelByCode(db, tenantId, code);
    const conflict = async () =>
      new HttpError(409, 'version_conflict', 'the booking funnel was changed since it was loaded', {
        bookingFunnel: await presentOne(db, await funnelByCode(db, tenantId, code)),
      });
    if (current.version !== basedOn) throw await conflict();
    const next = merge(current);
    await checkContent(db, tenantId, current.product_id, next.product_version_id, next.steps);
    const saved = await db.transaction(async (tx) => {
      const [updated] = await tx.query<{ id: number }>(
        `UPDATE booking_funnels SET name = $4, product_version_id = $5, steps = $6,
                version = version + 1, updated_at = now(), updated_by = $7
          WHERE tenant_id = $1 AND id = $2 AND version = $3 RETURNING id`,
        [
          tenantId,
          current.id,
          basedOn,
          next.name,
          next.product_version_id,
          JSON.stringify(next.steps),
          userCode,
        ],
      );
      if (!updated) return null;
      const [row] = await tx.query<FunnelRow>(`${SELECT} WHERE f.id = $1`, [current.id]);
      await saveSnapshot(tx, tenantId, row!, userCode);
      await recordFunnel(tx, { auth, clock: ctx.clock }, funnelPart(row!, current, row!));
      return row!;
    });
    if (!saved) throw await conflict();
    return presentOne(db, saved);
  };

  router.put('/booking-funnels/:code', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const code = String(req.params.code);
    await funnelByCode(db, auth.tenantId, code);
    const body = parseBody(FunnelReplaceBody, req.body);
    const bookingFunnel = await change(auth, code, body.version, () => ({
      name: body.name,
      product_version_id: body.productVersionId,
      steps: body.steps,
    }));
    res.json({ bookingFunnel });
  });

  router.patch('/booking-funnels/:code', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const code = String(req.params.code);
    await funnelByCode(db, auth.tenantId, code);
    const body = parseBody(FunnelPatchBody, req.body);
    const bookingFunnel = await change(auth, code, body.version, (current) => ({
      name: body.name ?? current.name,
      product_version_id:
        body.productVersionId === undefined ? current.product_version_id : body.productVersionId,
      steps: body.steps ?? current.steps,
    }));
    res.json({ bookingFunnel });
  });

  router.delete('/booking-funnels/:code', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const row = await funnelByCode(db, auth.tenantId, String(req.params.code));
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM booking_funnels WHERE tenant_id = $1 AND id = $2', [
        auth.tenantId,
        row.id,
      ]);
      await recordFunnel(tx, { auth, clock: ctx.clock }, funnelPart(row, row, null));
    });
    res.status(204).end();
  });

  return router;
}
