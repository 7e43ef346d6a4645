import { Router } from 'express';
import { forEachNode, parseExpression } from '#common/expression/parse.ts';
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
  InsuredObjectCreateBody,
  InsuredObjectUpdateBody,
} from '#common/contracts/product-extras.ts';
import { pageOf, parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import {
  assertDraft,
  assertRoom,
  cantLoad,
  insertProductFields,
  joinedDraft,
  presentObject,
  versionById,
  type FieldRow,
  type ObjectRow,
} from './insurance-product-routes.ts';
import { formulaName } from './formula-check.ts';
import {
  defaultProductFields,
  insuredObjectType,
  insuredObjectTypes,
} from './insured-object-types.ts';
import { idOf, uniqueViolation } from '#server/sandbox/platform/records.ts';
import {
  deletePart,
  partChange,
  recordPart,
  writePart,
  type PartChange,
} from './product-part-audit.ts';

/**
 * Insured objects of a product version (create, rename, delete; the list is in the products
 * router), the catalogue of insured object types and their default product fields (spec section
 * 7). Decisions in docs/contracts.md, "Insurance: product extras".
 */

const VIEW = requireServicePermission('policy-management', 'products', 'view');
const UPDATE = requireServicePermission('policy-management', 'product-versions', 'update');

/** A version holds at most this many insured objects (the spec's list page is 100). */
const MAX_OBJECTS_PER_VERSION = 100;

const notFound = () => new HttpError(404, 'not_found', 'insured object not found');

async function objectById(db: Queryable, tenantId: number, id: number) {
  const [row] = await db.query<ObjectRow & { status: string; product_version: number }>(
    `SELECT o.*, pv.status, pv.version AS product_version FROM insured_objects o
       JOIN product_versions pv ON pv.id = o.product_version_id
      WHERE o.tenant_id = $1 AND o.id = $2`,
    [tenantId, id],
  );
  if (!row) throw notFound();
  return row;
}

const objectDraft = joinedDraft;

async function fieldsOf(db: Queryable, tenantId: number, objectId: number) {
  return db.query<FieldRow>(
    `SELECT * FROM product_fields WHERE tenant_id = $1 AND insured_object_id = $2 ORDER BY "order", id`,
    [tenantId, objectId],
  );
}

/** A formula of the version that reads the object (`vehicle.value`), so it cannot go or be renamed. */
async function assertObjectUnused(db: Queryable, tenantId: number, object: ObjectRow) {
  const formulas = await db.query<{ name: string; expression: string }>(
    `SELECT name, expression FROM premium_formulas WHERE tenant_id = $1 AND product_version_id = $2
      ORDER BY "order", id`,
    [tenantId, object.product_version_id],
  );
  const prefix = formulaName(object.name);
  for (const formula of formulas) {
    let reads = false;
    forEachNode(parseExpression(formula.expression), (n) => {
      if (n.kind === 'path' && n.names.length > 1 && n.names[0] === prefix) reads = true;
    });
    if (reads) {
      throw new HttpError(
        409,
        'in_use',
        `the insured object ${object.name} is read by the premium formula ${formula.name}`,
        { formula: formula.name },
      );
    }
  }
}

export function insuredObjectRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/insured-object-types', VIEW, (req, res) => {
    const list = parseListQuery(req.query, { filters: [], orders: [], expands: [] });
    const rows = insuredObjectTypes.slice(
      (list.page - 1) * list.pageSize,
      list.page * list.pageSize + 1,
    );
    const page = pageOf(rows, list);
    res.json({ items: page.items, nextPageToken: page.nextPageToken });
  });

  router.get('/default-product-fields', VIEW, (req, res) => {
    const list = parseListQuery(req.query, {
      filters: ['insuredObjectTypeId'],
      orders: [],
      expands: [],
    });
    const typeFilter = list.filter.get('insuredObjectTypeId');
    if (typeFilter !== undefined && !/^\d{1,9}$/.test(typeFilter)) {
      throw new HttpError(400, 'invalid_query', 'insuredObjectTypeId must be numeric');
    }
    const matching = defaultProductFields.filter(
      (f) => typeFilter === undefined || f.insuredObjectTypeId === Number(typeFilter),
    );
    const page = pageOf(
      matching.slice((list.page - 1) * list.pageSize, list.page * list.pageSize + 1),
      list,
    );
    res.json({ items: page.items, nextPageToken: page.nextPageToken });
  });

  router.get('/insured-objects/:id', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(
      { expand: req.query.expand },
      { filters: [], orders: [], expands: ['productFields'] },
    );
    const object = await objectById(db, tenantId, idOf(String(req.params.id), notFound));
    const fields = list.expand.has('productFields')
      ? await fieldsOf(db, tenantId, object.id)
      : undefined;
    res.json({ insuredObject: presentObject(object, fields) });
  });

  /** An insured object in its version's history: its name and label. */
  const objectPart = (
    row: ObjectRow,
    before: ObjectRow | null,
    after: ObjectRow | null,
  ): PartChange =>
    partChange('insured_object', row, before, after, (r) => ({ name: r.name, label: r.label }));

  router.post('/insured-objects', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const body = parseBody(InsuredObjectCreateBody, req.body);
    const type =
      body.insuredObjectTypeId === null ? null : insuredObjectType(body.insuredObjectTypeId);
    if (type === undefined) {
      throw new HttpError(
        400,
        'validation_error',
        'insuredObjectTypeId: unknown insured object type',
      );
    }
    const name = body.name ?? type?.name;
    const objectLabel = body.label ?? type?.label;
    if (!name || !objectLabel) {
      throw new HttpError(
        400,
        'validation_error',
        'name and label are required without an insuredObjectTypeId',
      );
    }
    const version = await versionById(db, tenantId, body.productVersionId, () =>
      cantLoad('insured objects'),
    );
    assertDraft(version);
    const created = await db.transaction(async (tx) => {
      await assertRoom(tx, tenantId, version.id, {
        table: 'insured_objects',
        max: MAX_OBJECTS_PER_VERSION,
        noun: 'insured objects',
      });
      const [taken] = await tx.query(
        'SELECT 1 FROM insured_objects WHERE product_version_id = $1 AND name = $2',
        [version.id, name],
      );
      if (taken) throw new HttpError(409, 'name_taken', `an insured object named ${name} exists`);
      const [object] = await tx.query<ObjectRow>(
        `INSERT INTO insured_objects (tenant_id, code, product_version_id, name, label,
                                      insured_object_type_id, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`,
        [tenantId, newCode('ino'), version.id, name, objectLabel, type?.id ?? null, userCode],
      );
      await insertProductFields(
        tx,
        tenantId,
        object!.id,
        defaultProductFields.filter((f) => f.insuredObjectTypeId === type?.id),
        userCode,
      );
      await recordPart(tx, { auth, clock: ctx.clock }, objectPart(object!, null, object!));
      return object!;
    });
    res.status(201).json({
      insuredObject: presentObject(created, await fieldsOf(db, tenantId, created.id)),
    });
  });

  router.put('/insured-objects/:id', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const object = await objectById(db, tenantId, idOf(String(req.params.id), notFound));
    const body = parseBody(InsuredObjectUpdateBody, req.body);
    objectDraft(object);
    if (body.version !== object.version) {
      throw new HttpError(
        409,
        'version_conflict',
        'the insured object was changed since it was loaded',
        {
          insuredObject: presentObject(object),
        },
      );
    }
    if (body.name !== object.name) {
      if (object.name === 'default') {
        throw new HttpError(409, 'default_object', 'the insured object default keeps its name');
      }
      await assertObjectUnused(db, tenantId, object);
    }
    try {
      const [row] = await writePart<ObjectRow>(
        db,
        { auth, clock: ctx.clock },
        `UPDATE insured_objects SET name = $4, label = $5, version = version + 1,
                updated_at = now(), updated_by = $6
          WHERE tenant_id = $1 AND id = $2 AND version = $3 RETURNING *`,
        [tenantId, object.id, body.version, body.name, body.label, userCode],
        ([saved]) => saved && objectPart(saved, object, saved),
      );
      if (!row) {
        const current = await objectById(db, tenantId, object.id);
        throw new HttpError(
          409,
          'version_conflict',
          'the insured object was changed since it was loaded',
          {
            insuredObject: presentObject(current),
          },
        );
      }
      res.json({ insuredObject: presentObject(row, await fieldsOf(db, tenantId, row.id)) });
    } catch (error) {
      if (uniqueViolation(error))
        throw new HttpError(409, 'name_taken', `an insured object named ${body.name} exists`);
      throw error;
    }
  });

  router.delete('/insured-objects/:id', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const { tenantId } = auth;
    const object = await objectById(db, tenantId, idOf(String(req.params.id), notFound));
    objectDraft(object);
    if (object.name === 'default') {
      throw new HttpError(409, 'default_object', 'the insured object default cannot be deleted');
    }
    await assertObjectUnused(db, tenantId, object);
    await deletePart(
      db,
      { auth, clock: ctx.clock },
      'insured_objects',
      object.id,
      objectPart(object, object, null),
    );
    res.status(204).end();
  });

  return router;
}
