import { Router, type Request } from 'express';
import {
  PRODUCT_FIELD_KINDS,
  PRODUCT_FIELD_TYPES,
  VERSION_TRANSITIONS,
  type ProductVersionStatus,
} from '#common/products.ts';
import { BILLING_DAY_MAX, BILLING_DAY_MIN } from '#common/policy-object-data.ts';
import {
  FieldBody,
  FieldReorderBody,
  FieldUpdateBody,
  FormulaBody,
  FormulaReorderBody,
  FormulaUpdateBody,
  ProductBody,
  VersionCreateBody,
  VersionUpdateBody,
} from '#common/contracts/product.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError, invalidField } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { pageOf, parseListQuery, type ListQuery } from '#server/sandbox/platform/list-query.ts';
import { equals, listRoute, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { assertFormula, assertVersionComputes, versionScope } from './formula-check.ts';
import { copyVersionParts } from './product-version-copy.ts';
import {
  historyPage,
  recordChange,
  type AuditEvent,
} from '#server/sandbox/platform/audit-trail.ts';
import { audit, idOf, uniqueViolation, type Audit } from '#server/sandbox/platform/records.ts';
import { recordPart, writePart, type Who } from './product-part-audit.ts';

/**
 * Product management of the insuranceservice: products, versions, insured objects, product fields
 * and premium formulas (spec section 7). Decisions where the spec is silent are in
 * docs/contracts.md, "Insurance: products (issue 4)".
 */

type Resource = 'products' | 'product-versions' | 'premium-formulas';
type Action = 'view' | 'create' | 'update' | 'delete';

const allow = (resource: Resource, action: Action) =>
  requireServicePermission('policy-management', resource, action);

/** Reading anything of a product needs the product view permission; it is the one show-only holds. */
const VIEW = allow('products', 'view');

export const cantLoadProduct = () => new HttpError(404, 'not_found', "Can't load productId");
export const cantLoad = (what: string) =>
  new HttpError(404, 'not_found', `Can't load ${what} for productVersionId`);

// ---- rows and presentation ------------------------------------------------------------------

export const ern = (tenantSlug: string, kind: string, code: string) =>
  `ern:insuranceservice:${tenantSlug}:${kind}/${code}`;

export interface ProductRow extends Audit {
  id: number;
  code: string;
  name: string;
  slug: string;
  category: string;
  default_language: string;
  contract_duration_days: number;
  insured_object_types: string[];
}
export interface VersionRow extends Audit {
  id: number;
  code: string;
  product_id: number;
  version: number;
  description: string;
  status: ProductVersionStatus;
}
export interface ObjectRow extends Audit {
  id: number;
  code: string;
  product_version_id: number;
  name: string;
  label: string;
  /** The edit version of the object (migration 009). */
  version: number;
  insured_object_type_id: number | null;
}
export interface FieldRow extends Audit {
  id: number;
  code: string;
  insured_object_id: number;
  name: string;
  label: string;
  type: string;
  kind: string | null;
  is_required: boolean;
  minimum: number | null;
  maximum: number | null;
  default_value: unknown;
  order: number;
}
interface FormulaRow extends Audit {
  id: number;
  code: string;
  product_version_id: number;
  group: string;
  name: string;
  expression: string;
  type: string;
  unit: string;
  item_type: string | null;
  variable_name: string | null;
  order: number;
}

const presentVersion = (slug: string) => (r: VersionRow) => ({
  id: r.id,
  code: r.code,
  productId: r.product_id,
  version: r.version,
  description: r.description,
  status: r.status,
  ern: ern(slug, 'product-version', r.code),
  ...audit(r),
});

function presentProduct(slug: string, r: ProductRow, versions?: VersionRow[]) {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    slug: r.slug,
    category: r.category,
    defaultLanguage: r.default_language,
    contractDurationDays: r.contract_duration_days,
    insuredObjectTypes: r.insured_object_types,
    ...(versions ? { versions: versions.map(presentVersion(slug)) } : {}),
    ern: ern(slug, 'product', r.code),
    ...audit(r),
  };
}

export const presentField = (r: FieldRow) => ({
  id: r.id,
  code: r.code,
  insuredObjectId: r.insured_object_id,
  name: r.name,
  label: r.label,
  type: r.type,
  kind: r.kind,
  isRequired: r.is_required,
  minimum: r.minimum,
  maximum: r.maximum,
  defaultValue: r.default_value,
  order: r.order,
  ...audit(r),
});

export const presentObject = (r: ObjectRow, fields?: FieldRow[]) => ({
  id: r.id,
  code: r.code,
  productVersionId: r.product_version_id,
  name: r.name,
  label: r.label,
  version: r.version,
  insuredObjectTypeId: r.insured_object_type_id,
  ...(fields ? { productFields: fields.map(presentField) } : {}),
  ...audit(r),
});

const presentFormula = (r: FormulaRow) => ({
  id: r.id,
  code: r.code,
  productVersionId: r.product_version_id,
  group: r.group,
  name: r.name,
  expression: r.expression,
  type: r.type,
  unit: r.unit,
  itemType: r.item_type,
  variableName: r.variable_name,
  order: r.order,
  ...audit(r),
});

// ---- shared lookups -------------------------------------------------------------------------

async function versionsOf(db: Queryable, tenantId: number, productIds: number[]) {
  return db.query<VersionRow>(
    `SELECT * FROM product_versions WHERE tenant_id = $1 AND product_id = ANY($2::int[])
      ORDER BY product_id, version`,
    [tenantId, productIds],
  );
}

export async function productById(
  db: Queryable,
  tenantId: number,
  id: number,
): Promise<ProductRow> {
  const [row] = await db.query<ProductRow>(
    'SELECT * FROM products WHERE tenant_id = $1 AND id = $2',
    [tenantId, id],
  );
  if (!row) throw cantLoadProduct();
  return row;
}

export async function versionById(
  db: Queryable,
  tenantId: number,
  id: number,
  notFound: () => HttpError,
): Promise<VersionRow> {
  const [row] = await db.query<VersionRow>(
    'SELECT * FROM product_versions WHERE tenant_id = $1 AND id = $2',
    [tenantId, id],
  );
  if (!row) throw notFound();
  return row;
}

/** Only a draft is edited: an active version sells policies whose premiums must stay reproducible. */
/** A change of a product version for its history (the audit trail): `before` null when new. */
const versionEvent = (
  action: string,
  before: VersionRow | null,
  after: VersionRow,
): AuditEvent => ({
  entityType: 'product_version',
  entityId: after.code,
  action,
  before: before && { description: before.description, status: before.status },
  after: { description: after.description, status: after.status },
});

export function assertDraft(version: VersionRow): void {
  if (version.status !== 'draft') {
    throw new HttpError(
      409,
      'version_not_draft',
      `product version ${version.version} is ${version.status}; only a draft can be changed`,
    );
  }
}

export async function objectWithVersion(db: Queryable, tenantId: number, id: number) {
  const [row] = await db.query<ObjectRow & { status: ProductVersionStatus; version: number }>(
    `SELECT o.*, pv.status, pv.version FROM insured_objects o
       JOIN product_versions pv ON pv.id = o.product_version_id
      WHERE o.tenant_id = $1 AND o.id = $2`,
    [tenantId, id],
  );
  return row;
}

async function fieldWithVersion(db: Queryable, tenantId: number, id: number) {
  const [row] = await db.query<
    FieldRow & { status: ProductVersionStatus; version: number; product_version_id: number }
  >(
    `SELECT f.*, pv.status, pv.version, o.product_version_id FROM product_fields f
       JOIN insured_objects o ON o.id = f.insured_object_id
       JOIN product_versions pv ON pv.id = o.product_version_id
      WHERE f.tenant_id = $1 AND f.id = $2`,
    [tenantId, id],
  );
  if (!row) throw new HttpError(404, 'not_found', 'product field not found');
  return row;
}

async function formulaWithVersion(db: Queryable, tenantId: number, id: number) {
  const [row] = await db.query<FormulaRow & { status: ProductVersionStatus; version: number }>(
    `SELECT f.*, pv.status, pv.version FROM premium_formulas f
       JOIN product_versions pv ON pv.id = f.product_version_id
      WHERE f.tenant_id = $1 AND f.id = $2`,
    [tenantId, id],
  );
  if (!row) throw new HttpError(404, 'not_found', 'premium formula not found');
  return row;
}

export const draftLike = (row: { status: ProductVersionStatus; version: number }) =>
  assertDraft({ status: row.status, version: row.version } as VersionRow);

/** The numeric `:id` of a path; anything else is a 404 naming `what`. */
export const pathId = (req: Request, what: string) =>
  idOf(String(req.params.id), () => new HttpError(404, 'not_found', `${what} not found`));

/** The two parts a reorder swaps: both found, of one parent (`message` otherwise), of a draft. */
async function pairToSwap<T extends { status: ProductVersionStatus; version: number }>(
  find: (id: number) => Promise<T>,
  ids: readonly [number, number],
  parentOf: (part: T) => number,
  message: string,
): Promise<[T, T]> {
  const one = await find(ids[0]);
  const two = await find(ids[1]);
  if (parentOf(one) !== parentOf(two)) throw new HttpError(400, 'validation_error', message);
  draftLike(one);
  return [one, two];
}

/** Deletes a part of a version (a field, a formula): only a draft's. */
async function deleteDraftPart(
  db: Queryable,
  table: string,
  tenantId: number,
  part: { id: number; status: ProductVersionStatus; version: number },
): Promise<void> {
  draftLike(part);
  await db.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND id = $2`, [tenantId, part.id]);
}

/**
 * One page of a list: `sql` (its filter and order, without the page) with `params`, one row more
 * than the page holds, so that `pageOf` knows whether another page follows.
 */
async function pageRows<R>(db: Queryable, sql: string, params: unknown[], list: ListQuery) {
  const n = params.length;
  const rows = await db.query<R>(`${sql} LIMIT $${n + 1} OFFSET $${n + 2}`, [
    ...params,
    list.pageSize + 1,
    (list.page - 1) * list.pageSize,
  ]);
  return pageOf(rows, list);
}

/** A page as the list endpoints answer it. */
const pageBody = <R, P>(
  page: { items: R[]; nextPageToken: string | null },
  present: (row: R) => P,
) => ({
  items: page.items.map(present),
  nextPageToken: page.nextPageToken,
});

/** A write whose unique index refuses a duplicate: a 409 with `code` instead of a 500. */
async function unlessTaken<T>(write: () => Promise<T>, code: string, message: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error)) throw new HttpError(409, code, message);
    throw error;
  }
}

/** The draft parts written here one statement at a time: their table, event name and view. */
const FIELD_PART = { table: 'product_fields', part: 'field', present: presentField } as const;
const FORMULA_PART = {
  table: 'premium_formulas',
  part: 'formula',
  present: presentFormula,
} as const;
type DraftPart<R> = {
  table: string;
  part: 'field' | 'formula';
  present: (row: R) => object;
};

/**
 * A field's or formula's insert or update (`sql` with `params`, answering the row) and its event in
 * the version's history, in one transaction; `before` is null for a new part. Answers the row.
 */
async function savePart<R extends { name: string }>(
  db: Db,
  who: Who,
  { part, present }: DraftPart<R>,
  versionId: number,
  before: R | null,
  sql: string,
  params: readonly unknown[],
): Promise<R> {
  const [row] = await writePart<R>(
    db,
    who,
    sql,
    params,
    ([saved]) =>
      saved && {
        versionId,
        part,
        name: saved.name,
        before: before && present(before),
        after: present(saved),
      },
  );
  return row!;
}

/** Removes a draft's field or formula and records it, in one transaction. */
function removePart<R extends { id: number; name: string }>(
  db: Db,
  who: Who,
  { table, part, present }: DraftPart<R>,
  row: R & { product_version_id: number; status: ProductVersionStatus; version: number },
): Promise<void> {
  return db.transaction(async (tx) => {
    await deleteDraftPart(tx, table, who.auth.tenantId, row);
    await recordPart(tx, who, {
      versionId: row.product_version_id,
      part,
      name: row.name,
      before: present(row),
      after: null,
    });
  });
}

/**
 * A field's insert or update (savePart); its name is unique on its insured object: a 409
 * `name_taken` for a second one.
 */
const saveField = (
  db: Db,
  who: Who,
  field: { versionId: number; before: FieldRow | null; name: string },
  sql: string,
  params: readonly unknown[],
) =>
  unlessTaken(
    () => savePart(db, who, FIELD_PART, field.versionId, field.before, sql, params),
    'name_taken',
    `a field named ${field.name} exists`,
  );

/** A field's insert and update: columns as `fieldColumns` lists them from $4 and $3 on. */
const INSERT_FIELD = `
  INSERT INTO product_fields (tenant_id, code, insured_object_id, name, label, type, kind, is_required,
                              minimum, maximum, default_value, "order", created_by, updated_by)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
          (SELECT coalesce(max("order"), 0) + 1 FROM product_fields WHERE insured_object_id = $3), $12, $12)
  RETURNING *`;
const UPDATE_FIELD = `
  UPDATE product_fields SET name = $3, label = $4, type = $5, kind = $6, is_required = $7,
         minimum = $8, maximum = $9, default_value = $10, updated_at = now(), updated_by = $11
   WHERE tenant_id = $1 AND id = $2 RETURNING *`;

/** The answer of a reorder: both parts with their orders swapped. */
const swappedBody = <R extends { order: number }, P>(one: R, two: R, present: (row: R) => P) => ({
  items: [present({ ...one, order: two.order }), present({ ...two, order: one.order })],
});

/** A product's slug is unique in its tenant: a 409 `slug_taken` for a second one. */
const slugTaken = <T>(write: () => Promise<T>) =>
  unlessTaken(write, 'slug_taken', 'a product with this slug exists');

/** A product's columns from name to insured object types, as the insert and update list them. */
const productColumns = (
  body: {
    name: string;
    category: string;
    defaultLanguage: string;
    contractDurationDays: number;
    insuredObjectTypes: unknown;
  },
  slug: string,
) => [
  body.name,
  slug,
  body.category,
  body.defaultLanguage,
  body.contractDurationDays,
  JSON.stringify(body.insuredObjectTypes),
];

/** A field's columns from name to default value, in the order the insert and update list them. */
const fieldColumns = (body: {
  name: string;
  label: string;
  type: string;
  kind: string | null;
  isRequired: boolean;
  minimum: number | null;
  maximum: number | null;
  defaultValue: unknown;
}) => [
  body.name,
  body.label,
  body.type,
  body.kind,
  body.isRequired,
  body.minimum,
  body.maximum,
  body.defaultValue === null ? null : JSON.stringify(body.defaultValue),
];

/** A formula's columns from group to variable name, in the order the insert and update list them. */
const formulaColumns = (body: {
  group: string;
  name: string;
  expression: string;
  type: string;
  unit: string;
  itemType: string | null;
  variableName: string | null;
}) => [
  body.group,
  body.name,
  body.expression,
  body.type,
  body.unit,
  body.itemType,
  body.variableName,
];

/** A part read with its version's status and number (`pv.status, pv.version AS product_version`). */
export const joinedDraft = (row: { status: string; product_version: number }) =>
  draftLike({ status: row.status as ProductVersionStatus, version: row.product_version });

/** The version filter of a list of a version's parts: required, numeric, the caller's tenant's. */
export async function versionFilter(
  db: Queryable,
  tenantId: number,
  raw: string | undefined,
  notFound: () => HttpError,
): Promise<VersionRow> {
  const id = Number(raw);
  if (!raw || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
    throw new HttpError(400, 'invalid_query', 'filter productVersionId is required');
  }
  return versionById(db, tenantId, id, notFound);
}

/** 409 `too_many` when a version holds `max` of a kind of part already. */
export async function assertRoom(
  db: Queryable,
  tenantId: number,
  versionId: number,
  part: { table: string; max: number; noun: string },
): Promise<void> {
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${part.table} WHERE tenant_id = $1 AND product_version_id = $2`,
    [tenantId, versionId],
  );
  if (count!.n >= part.max) {
    throw new HttpError(409, 'too_many', `a version holds at most ${part.max} ${part.noun}`);
  }
}

/** The fields an insured object starts with (the system fields, or its type's defaults). */
export async function insertProductFields(
  tx: Queryable,
  tenantId: number,
  objectId: number,
  fields: readonly {
    name: string;
    label: string;
    type: string;
    kind: string | null;
    isRequired: boolean;
    minimum?: number | null;
    maximum?: number | null;
    order: number;
  }[],
  by: string,
): Promise<void> {
  for (const field of fields) {
    await tx.query(
      `INSERT INTO product_fields (tenant_id, code, insured_object_id, name, label, type, kind,
                                   is_required, minimum, maximum, "order", created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
      [
        tenantId,
        newCode('pfi'),
        objectId,
        field.name,
        field.label,
        field.type,
        field.kind,
        field.isRequired,
        field.minimum ?? null,
        field.maximum ?? null,
        field.order,
        by,
      ],
    );
  }
}

/** The system fields of the 'default' insured object (upstream contract, Insurance). */
export const DEFAULT_OBJECT_FIELDS = [
  {
    name: 'policyStartDate',
    label: 'Policy start date',
    type: 'date',
    kind: 'dateTime',
    isRequired: true,
  },
  {
    name: 'policyDurationUnit',
    label: 'Policy duration unit',
    type: 'string',
    kind: 'durationUnit',
    isRequired: true,
  },
  {
    name: 'policyDurationValue',
    label: 'Policy duration',
    type: 'number',
    kind: null,
    isRequired: true,
  },
  // How the policy is invoiced (issue 18), read by the billing run (billing-run.ts); optional, so
  // a policy without them is billed yearly as before. The period is the choice alone: no
  // billingFrequencyValue field. Its options already say the period ("monthly", "quarterly"), so
  // a multiplier beside them would read ambiguously (twice monthly: every two months, or two
  // invoices a month?) and let one period be written two ways (monthly × 3 = quarterly); the
  // run takes a missing value as 1. A product that wants it can add the field itself.
  {
    name: 'billingFrequencyUnit',
    label: 'Billing frequency',
    type: 'string',
    kind: 'billingFrequency',
    isRequired: false,
  },
  {
    name: 'recurringBillingDay',
    label: 'Recurring billing day',
    type: 'number',
    kind: null,
    isRequired: false,
    // A day every month has, as the billing run takes it (invoice-engine.ts, billingDay).
    minimum: BILLING_DAY_MIN,
    maximum: BILLING_DAY_MAX,
  },
] as const;

/**
 * A new version starts with the 'default' insured object and its system fields, or, with
 * `copyFrom`, as a copy of the parts of that version (docs/decisions/005).
 */
export async function createVersion(
  tx: Queryable,
  tenantId: number,
  productId: number,
  description: string,
  by: string,
  status: ProductVersionStatus = 'draft',
  copyFrom?: number,
): Promise<VersionRow> {
  const [version] = await tx.query<VersionRow>(
    `INSERT INTO product_versions (tenant_id, code, product_id, version, description, status, created_by, updated_by)
     VALUES ($1, $2, $3,
             (SELECT coalesce(max(version), 0) + 1 FROM product_versions WHERE product_id = $3),
             $4, $5, $6, $6)
     RETURNING *`,
    [tenantId, newCode('pve'), productId, description, status, by],
  );
  if (copyFrom !== undefined) {
    await copyVersionParts(tx, tenantId, copyFrom, version!.id, by);
    return version!;
  }
  const [object] = await tx.query<{ id: number }>(
    `INSERT INTO insured_objects (tenant_id, code, product_version_id, name, label, created_by, updated_by)
     VALUES ($1, $2, $3, 'default', 'Policy', $4, $4) RETURNING id`,
    [tenantId, newCode('ino'), version!.id, by],
  );
  await insertProductFields(
    tx,
    tenantId,
    object!.id,
    DEFAULT_OBJECT_FIELDS.map((field, i) => ({ ...field, order: i + 1 })),
    by,
  );
  return version!;
}

// ---- premium formula checks -----------------------------------------------------------------

/**
 * A formula must parse, call only known functions, read only what exists when it runs (the
 * fields of the version's insured objects, the variables of the formulas ordered before it, its
 * factor tables and named ranges), with each value used as its type allows, and hold no error
 * every calculation would hit (formula-check.ts).
 */
async function checkExpression(
  db: Queryable,
  tenantId: number,
  versionId: number,
  expression: string,
  earlierVariables: readonly string[],
): Promise<void> {
  assertFormula(expression, await versionScope(db, tenantId, versionId, earlierVariables));
}

/** The variables of the formulas that run before position `order` (after a planned reorder). */
async function variablesBefore(
  db: Queryable,
  tenantId: number,
  versionId: number,
  order: number,
  orderOf: (row: { id: number; order: number }) => number = (row) => row.order,
): Promise<string[]> {
  const rows = await db.query<{ id: number; order: number; variable_name: string | null }>(
    `SELECT id, "order", variable_name FROM premium_formulas WHERE tenant_id = $1 AND product_version_id = $2`,
    [tenantId, versionId],
  );
  return rows.filter((r) => r.variable_name && orderOf(r) < order).map((r) => r.variable_name!);
}

function checkFieldBounds(body: {
  type: string;
  minimum: number | null;
  maximum: number | null;
  defaultValue: unknown;
}) {
  if (body.type !== 'number' && (body.minimum !== null || body.maximum !== null)) {
    throw new HttpError(400, 'validation_error', 'minimum and maximum apply to number fields only');
  }
  if (body.minimum !== null && body.maximum !== null && body.minimum > body.maximum) {
    throw new HttpError(400, 'validation_error', 'minimum must not be above maximum');
  }
  const d = body.defaultValue;
  if (d === null) return;
  const ok =
    (body.type === 'number' && typeof d === 'number') ||
    (body.type === 'boolean' && typeof d === 'boolean') ||
    (body.type === 'string' && typeof d === 'string') ||
    (body.type === 'date' && typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d));
  if (!ok) throw new HttpError(400, 'validation_error', `defaultValue must be a ${body.type}`);
}

/** The product list (issue 15): by name unless another of its columns is sorted, by keyset. */
const PRODUCT_LIST: ListSource = {
  filters: { slug: equals('slug'), category: equals('category') },
  search: ['name', 'slug', 'code'],
  orders: {
    name: 'lower(name)',
    slug: 'slug',
    category: 'category',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    id: 'id',
  },
  keyset: {
    name: 'text',
    slug: 'text',
    category: 'text',
    createdAt: 'timestamptz',
    updatedAt: 'timestamptz',
    id: 'int',
  },
  defaultOrder: ['name', 'ASC'],
  unique: 'id',
  expands: ['versions'],
};

// ---- router ---------------------------------------------------------------------------------

export function insuranceProductRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  // -- products

  router.get(
    '/products',
    VIEW,
    listRoute<ProductRow>(
      db,
      PRODUCT_LIST,
      'SELECT * FROM products',
      'tenant_id',
      async (rows, list, auth) => {
        const versions = list.expand.has('versions')
          ? await versionsOf(
              db,
              auth.tenantId,
              rows.map((p) => p.id),
            )
          : null;
        return rows.map((p) =>
          presentProduct(
            auth.tenantSlug,
            p,
            versions ? versions.filter((v) => v.product_id === p.id) : undefined,
          ),
        );
      },
    ),
  );

  router.get('/products/:id', VIEW, async (req, res) => {
    const { tenantId, tenantSlug } = getAuth(res);
    const list = parseListQuery(
      { expand: req.query.expand },
      { filters: [], orders: [], expands: ['versions'] },
    );
    const product = await productById(db, tenantId, idOf(String(req.params.id), cantLoadProduct));
    const versions = list.expand.has('versions')
      ? await versionsOf(db, tenantId, [product.id])
      : undefined;
    res.json({ product: presentProduct(tenantSlug, product, versions) });
  });

  const slugFrom = (name: string) =>
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'product';

  router.post('/products', allow('products', 'create'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(ProductBody, req.body);
    const [row] = await slugTaken(() =>
      db.query<ProductRow>(
        `INSERT INTO products (tenant_id, code, name, slug, category, default_language,
                               contract_duration_days, insured_object_types, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING *`,
        [
          auth.tenantId,
          newCode('prd'),
          ...productColumns(body, body.slug ?? slugFrom(body.name)),
          auth.userCode,
        ],
      ),
    );
    res.status(201).json({ product: presentProduct(auth.tenantSlug, row!, []) });
  });

  router.put('/products/:id', allow('products', 'update'), async (req, res) => {
    const auth = getAuth(res);
    const id = idOf(String(req.params.id), cantLoadProduct);
    const body = parseBody(ProductBody, req.body);
    const current = await productById(db, auth.tenantId, id);
    const [row] = await slugTaken(() =>
      db.query<ProductRow>(
        `UPDATE products SET name = $3, slug = $4, category = $5, default_language = $6,
                contract_duration_days = $7, insured_object_types = $8, updated_at = now(), updated_by = $9
          WHERE tenant_id = $1 AND id = $2 RETURNING *`,
        [auth.tenantId, id, ...productColumns(body, body.slug ?? current.slug), auth.userCode],
      ),
    );
    res.json({
      product: presentProduct(auth.tenantSlug, row!, await versionsOf(db, auth.tenantId, [id])),
    });
  });

  router.delete('/products/:id', allow('products', 'delete'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const product = await productById(db, tenantId, idOf(String(req.params.id), cantLoadProduct));
    const [active] = await db.query(
      `SELECT 1 FROM product_versions WHERE tenant_id = $1 AND product_id = $2 AND status = 'active'`,
      [tenantId, product.id],
    );
    if (active) {
      throw new HttpError(
        409,
        'product_active',
        'a product with an active version cannot be deleted',
      );
    }
    await db.query('DELETE FROM products WHERE tenant_id = $1 AND id = $2', [tenantId, product.id]);
    res.status(204).end();
  });

  // -- versions

  router.post('/product-versions', allow('product-versions', 'create'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(VersionCreateBody, req.body);
    const product = await productById(db, auth.tenantId, body.productId);
    const source = body.copyFromVersionId;
    if (source !== undefined) {
      // Only a version of this product (and so of this tenant) can be copied.
      const [found] = await db.query(
        'SELECT 1 FROM product_versions WHERE tenant_id = $1 AND product_id = $2 AND id = $3',
        [auth.tenantId, product.id, source],
      );
      if (!found) {
        throw invalidField(
          'copyFromVersionId',
          'not_a_version_of_product',
          'not a version of this product',
        );
      }
    }
    // The row and every copied part in one transaction: a failed copy leaves no half a draft.
    const version = await db.transaction(async (tx) => {
      const created = await createVersion(
        tx,
        auth.tenantId,
        product.id,
        body.description,
        auth.userCode,
        'draft',
        source,
      );
      await recordChange(tx, { auth, clock: ctx.clock }, versionEvent('created', null, created));
      return created;
    });
    res.status(201).json({ productVersion: presentVersion(auth.tenantSlug)(version) });
  });

  router.get('/product-versions/:id/history', VIEW, async (req, res) => {
    const auth = getAuth(res);
    const notFound = () => new HttpError(404, 'not_found', 'product version not found');
    const id = idOf(String(req.params.id), notFound);
    const version = await versionById(db, auth.tenantId, id, notFound);
    res.json(await historyPage(db, req, auth.tenantId, 'product_version', version.code));
  });

  router.get('/product-versions/:id', VIEW, async (req, res) => {
    const auth = getAuth(res);
    const notFound = () => new HttpError(404, 'not_found', 'product version not found');
    const version = await versionById(
      db,
      auth.tenantId,
      idOf(String(req.params.id), notFound),
      notFound,
    );
    res.json({ productVersion: presentVersion(auth.tenantSlug)(version) });
  });

  router.put('/product-versions/:id', allow('product-versions', 'update'), async (req, res) => {
    const auth = getAuth(res);
    const notFound = () => new HttpError(404, 'not_found', 'product version not found');
    const body = parseBody(VersionUpdateBody, req.body);
    const version = await versionById(
      db,
      auth.tenantId,
      idOf(String(req.params.id), notFound),
      notFound,
    );
    const status = body.status ?? version.status;
    if (status !== version.status && !VERSION_TRANSITIONS[version.status].includes(status)) {
      throw new HttpError(
        409,
        'illegal_transition',
        `a ${version.status} product version cannot become ${status}`,
      );
    }
    if (body.description !== undefined && body.description !== version.description)
      assertDraft(version);
    // A version that goes live must compute a premium: else it would refuse every sale.
    if (status === 'active' && version.status !== 'active') {
      await assertVersionComputes(db, auth.tenantId, version.id, ctx.clock.now());
    }
    const updated = await db.transaction(async (tx) => {
      // One active version per product: activating one makes the former active one passive.
      if (status === 'active' && version.status !== 'active') {
        await tx.query(
          `UPDATE product_versions SET status = 'passive', updated_at = now(), updated_by = $3
            WHERE tenant_id = $1 AND product_id = $2 AND status = 'active'`,
          [auth.tenantId, version.product_id, auth.userCode],
        );
      }
      const [row] = await tx.query<VersionRow>(
        `UPDATE product_versions SET description = $3, status = $4, updated_at = now(), updated_by = $5
          WHERE tenant_id = $1 AND id = $2 RETURNING *`,
        [auth.tenantId, version.id, body.description ?? version.description, status, auth.userCode],
      );
      await recordChange(tx, { auth, clock: ctx.clock }, versionEvent('updated', version, row!));
      return row!;
    });
    // Committed: a version gone live gets its product information sheet (IPID, decision 020).
    if (updated.status === 'active' && version.status !== 'active')
      ctx.events.emit({
        type: 'product_version.published',
        tenantId: auth.tenantId,
        entityCode: updated.code,
        by: auth.userCode,
        data: { productVersion: updated.version },
      });
    res.json({ productVersion: presentVersion(auth.tenantSlug)(updated) });
  });

  // -- insured objects

  router.get('/insured-objects', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: ['productVersionId'],
      orders: [],
      expands: ['productFields'],
      maxPageSize: 100,
    });
    const { id: versionId } = await versionFilter(
      db,
      tenantId,
      list.filter.get('productVersionId'),
      () => cantLoad('insured objects'),
    );
    const page = await pageRows<ObjectRow>(
      db,
      `SELECT * FROM insured_objects WHERE tenant_id = $1 AND product_version_id = $2 ORDER BY id`,
      [tenantId, versionId],
      list,
    );
    const fields = list.expand.has('productFields')
      ? await db.query<FieldRow>(
          `SELECT * FROM product_fields WHERE tenant_id = $1 AND insured_object_id = ANY($2::int[])
            ORDER BY "order", id`,
          [tenantId, page.items.map((o) => o.id)],
        )
      : null;
    res.json(
      pageBody(page, (o) =>
        presentObject(
          o,
          fields?.filter((f) => f.insured_object_id === o.id),
        ),
      ),
    );
  });

  // -- product fields

  router.get('/product-fields/types', VIEW, (req, res) => {
    parseListQuery(req.query, { filters: [], orders: [], expands: [], maxPageSize: 100 });
    res.json({
      items: PRODUCT_FIELD_TYPES.map((name, i) => ({ id: i + 1, name })),
      kinds: PRODUCT_FIELD_KINDS,
      nextPageToken: null,
    });
  });

  router.get('/product-fields', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: ['insuredObjectId'],
      orders: [],
      expands: [],
      maxPageSize: 100,
    });
    const ids = (list.filter.get('insuredObjectId') ?? '').split(',').filter(Boolean).map(Number);
    if (!ids.length || ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) {
      throw new HttpError(
        400,
        'invalid_query',
        'filter insuredObjectId is required (ids joined by ,)',
      );
    }
    const page = await pageRows<FieldRow>(
      db,
      `SELECT * FROM product_fields WHERE tenant_id = $1 AND insured_object_id = ANY($2::int[])
        ORDER BY insured_object_id, "order", id`,
      [tenantId, ids],
      list,
    );
    res.json(pageBody(page, presentField));
  });

  router.post('/product-fields', allow('product-versions', 'update'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(FieldBody, req.body);
    checkFieldBounds(body);
    const object = await objectWithVersion(db, auth.tenantId, body.insuredObjectId);
    if (!object) throw new HttpError(404, 'not_found', 'insured object not found');
    draftLike(object);
    const columns = [
      auth.tenantId,
      newCode('pfi'),
      object.id,
      ...fieldColumns(body),
      auth.userCode,
    ];
    const target = { versionId: object.product_version_id, before: null, name: body.name };
    const row = await saveField(db, { auth, clock: ctx.clock }, target, INSERT_FIELD, columns);
    res.status(201).json({ productField: presentField(row) });
  });

  router.put('/product-fields/:id', allow('product-versions', 'update'), async (req, res) => {
    const auth = getAuth(res);
    const field = await fieldWithVersion(db, auth.tenantId, pathId(req, 'product field'));
    const body = parseBody(FieldUpdateBody, req.body);
    checkFieldBounds(body);
    draftLike(field);
    if (body.insuredObjectId !== undefined && body.insuredObjectId !== field.insured_object_id) {
      throw new HttpError(
        400,
        'validation_error',
        'insuredObjectId: a field cannot move to another insured object',
      );
    }
    const columns = [auth.tenantId, field.id, ...fieldColumns(body), auth.userCode];
    const target = { versionId: field.product_version_id, before: field, name: body.name };
    const row = await saveField(db, { auth, clock: ctx.clock }, target, UPDATE_FIELD, columns);
    res.json({ productField: presentField(row) });
  });

  router.delete('/product-fields/:id', allow('product-versions', 'update'), async (req, res) => {
    const auth = getAuth(res);
    const field = await fieldWithVersion(db, auth.tenantId, pathId(req, 'product field'));
    await removePart(db, { auth, clock: ctx.clock }, FIELD_PART, field);
    res.status(204).end();
  });

  router.post('/product-fields/reorder', allow('product-versions', 'update'), async (req, res) => {
    const { tenantId, userCode } = getAuth(res);
    const body = parseBody(FieldReorderBody, req.body);
    const [one, two] = await pairToSwap(
      (id) => fieldWithVersion(db, tenantId, id),
      [body.productFieldIdOne, body.productFieldIdTwo],
      (field) => field.insured_object_id,
      'both fields must belong to the same insured object',
    );
    await swapOrder(db, 'product_fields', tenantId, one, two, userCode);
    res.json(swappedBody(one, two, presentField));
  });

  // -- premium formulas

  router.get('/premium-formulas', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: ['productVersionId'],
      orders: [],
      expands: [],
    });
    const { id: versionId } = await versionFilter(
      db,
      tenantId,
      list.filter.get('productVersionId'),
      () => cantLoad('premium formulas'),
    );
    const page = await pageRows<FormulaRow>(
      db,
      `SELECT * FROM premium_formulas WHERE tenant_id = $1 AND product_version_id = $2
        ORDER BY "order", id`,
      [tenantId, versionId],
      list,
    );
    res.json(pageBody(page, presentFormula));
  });

  router.post('/premium-formulas', allow('premium-formulas', 'create'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(FormulaBody, req.body);
    const version = await versionById(db, auth.tenantId, body.productVersionId, () =>
      cantLoad('premium formulas'),
    );
    assertDraft(version);
    const [next] = await db.query<{ order: number }>(
      `SELECT coalesce(max("order"), 0) + 1 AS "order" FROM premium_formulas WHERE product_version_id = $1`,
      [version.id],
    );
    await checkExpression(
      db,
      auth.tenantId,
      version.id,
      body.expression,
      await variablesBefore(db, auth.tenantId, version.id, next!.order),
    );
    const row = await savePart<FormulaRow>(
      db,
      { auth, clock: ctx.clock },
      FORMULA_PART,
      version.id,
      null,
      `INSERT INTO premium_formulas (tenant_id, code, product_version_id, "group", name, expression, type, unit,
                                     item_type, variable_name, "order", created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING *`,
      [
        auth.tenantId,
        newCode('pfo'),
        version.id,
        ...formulaColumns(body),
        next!.order,
        auth.userCode,
      ],
    );
    res.status(201).json({ premiumFormula: presentFormula(row) });
  });

  router.put('/premium-formulas/:id', allow('premium-formulas', 'update'), async (req, res) => {
    const auth = getAuth(res);
    const formula = await formulaWithVersion(db, auth.tenantId, pathId(req, 'premium formula'));
    const body = parseBody(FormulaUpdateBody, req.body);
    draftLike(formula);
    await checkExpression(
      db,
      auth.tenantId,
      formula.product_version_id,
      body.expression,
      await variablesBefore(db, auth.tenantId, formula.product_version_id, formula.order),
    );
    const row = await savePart<FormulaRow>(
      db,
      { auth, clock: ctx.clock },
      FORMULA_PART,
      formula.product_version_id,
      formula,
      `UPDATE premium_formulas SET "group" = $3, name = $4, expression = $5, type = $6, unit = $7,
              item_type = $8, variable_name = $9, updated_at = now(), updated_by = $10
        WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [auth.tenantId, formula.id, ...formulaColumns(body), auth.userCode],
    );
    res.json({ premiumFormula: presentFormula(row) });
  });

  router.delete('/premium-formulas/:id', allow('premium-formulas', 'delete'), async (req, res) => {
    const auth = getAuth(res);
    const formula = await formulaWithVersion(db, auth.tenantId, pathId(req, 'premium formula'));
    await removePart(db, { auth, clock: ctx.clock }, FORMULA_PART, formula);
    res.status(204).end();
  });

  router.post(
    '/premium-formulas/reorder',
    allow('premium-formulas', 'update'),
    async (req, res) => {
      const { tenantId, userCode } = getAuth(res);
      const body = parseBody(FormulaReorderBody, req.body);
      const [one, two] = await pairToSwap(
        (id) => formulaWithVersion(db, tenantId, id),
        [body.id1, body.id2],
        (formula) => formula.product_version_id,
        'both formulas must belong to the same product version',
      );
      // A formula may read only the variables of formulas before it; a swap must keep that true.
      const swapped = (r: { id: number; order: number }) =>
        r.id === one.id ? two.order : r.id === two.id ? one.order : r.order;
      for (const [formula, order] of [
        [one, two.order],
        [two, one.order],
      ] as const) {
        try {
          await checkExpression(
            db,
            tenantId,
            formula.product_version_id,
            formula.expression,
            await variablesBefore(db, tenantId, formula.product_version_id, order, swapped),
          );
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          throw new HttpError(409, 'reorder_breaks_formula', `${formula.name}: ${error.message}`);
        }
      }
      await swapOrder(db, 'premium_formulas', tenantId, one, two, userCode);
      res.json(swappedBody(one, two, presentFormula));
    },
  );

  return router;
}

async function swapOrder(
  db: Db,
  table: 'product_fields' | 'premium_formulas',
  tenantId: number,
  one: { id: number; order: number },
  two: { id: number; order: number },
  by: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [row, order] of [
      [one, two.order],
      [two, one.order],
    ] as const) {
      await tx.query(
        `UPDATE ${table} SET "order" = $3, updated_at = now(), updated_by = $4 WHERE tenant_id = $1 AND id = $2`,
        [tenantId, row.id, order, by],
      );
    }
  });
}
