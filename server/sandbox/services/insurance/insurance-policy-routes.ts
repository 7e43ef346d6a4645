import { historyPage } from '#server/sandbox/platform/audit-trail.ts';
import { Router } from 'express';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { pageOf, parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { escapeLike } from '#server/sandbox/platform/admin-shared.ts';
import { countOf } from '#server/sandbox/platform/list-page.ts';
import {
  accountParty,
  jsonParty,
  partySortSql,
  readPageToken,
  writePageToken,
  type SortType,
} from '#server/sandbox/platform/list-keyset.ts';
import { lockPolicy } from './policy-store.ts';
import { POLICY_STATUSES, REVISION_STATUSES, type PolicyStatus } from '#common/policy-lifecycle.ts';
import { auditIso as audit, iso, type Audit } from '#server/sandbox/platform/records.ts';

/**
 * Policies of the insuranceservice (spec sections 3, 7, 9): the list with filters, order, search
 * and expansions, and a single policy with its versions, timelines and policy objects. Decisions
 * where the spec is silent are in docs/contracts.md, "Insurance: policies (issue 4)".
 */

const VIEW = requireServicePermission('policy-management', 'policies', 'view');

const policyDoesNotExist = () => new HttpError(404, 'not_found', 'Policy does not exist');

const LIST_EXPANDS = ['timelines', 'product', 'versions', 'premiumUnits'] as const;
const DEFAULT_LIST_EXPANDS = ['timelines', 'product'];
const DEFAULT_SINGLE_EXPANDS = ['versions'];

// ---- rows and presentation ------------------------------------------------------------------

export interface PolicyRow extends Audit {
  id: number;
  code: string;
  policy_number: string;
  product_id: number;
  product_version_id: number;
  account_code: string | null;
  holder: Record<string, unknown> | null;
  status: PolicyStatus;
  policy_start_date: Date | null;
  lead_code: string | null;
  termination_date: Date | null;
  termination_reason: string | null;
  premium_override: Record<string, unknown> | null;
  current_version_id: number | null;
  draft_version_id: number | null;
  product_code: string;
  product_name: string;
  product_slug: string;
  product_category: string;
  account_type: string | null;
  account_first_name: string | null;
  account_last_name: string | null;
  account_company_name: string | null;
}
export interface VersionRow extends Audit {
  id: number;
  policy_id: number;
  version_number: number;
  is_current: boolean;
  is_draft: boolean;
  revision_status: string;
  metadata: Record<string, unknown>;
}
interface TimesliceRow extends Audit {
  id: number;
  policy_version_id: number;
  from: Date;
  to: Date | null;
  premium: Record<string, unknown>;
}
export interface ObjectRow extends Audit {
  id: number;
  code: string;
  timeslice_id: number;
  policy_code: string;
  insured_object_id: number | null;
  insured_object_name: string;
  insured_object_label: string;
  data: Record<string, unknown>;
  summary: string;
}

const SELECT_POLICY = `
  SELECT p.*, pr.code AS product_code, pr.name AS product_name, pr.slug AS product_slug,
         pr.category AS product_category, a.type AS account_type,
         a.first_name AS account_first_name, a.last_name AS account_last_name,
         a.company_name AS account_company_name,
         (SELECT id FROM policy_versions WHERE policy_id = p.id AND is_current) AS current_version_id,
         (SELECT id FROM policy_versions WHERE policy_id = p.id AND is_draft) AS draft_version_id
    FROM policies p
    JOIN products pr ON pr.id = p.product_id AND pr.tenant_id = p.tenant_id
    LEFT JOIN accounts a ON a.tenant_id = p.tenant_id AND a.code = p.account_code`;

/** The holder given at creation, or else the summary of the policy's customer account. */
function holderOf(r: PolicyRow) {
  if (r.holder) return r.holder;
  if (!r.account_code || !r.account_type) return null;
  return {
    accountCode: r.account_code,
    type: r.account_type,
    firstName: r.account_first_name,
    lastName: r.account_last_name,
    companyName: r.account_company_name,
  };
}

type Timeline = ReturnType<typeof presentTimeslice>[];

export function presentObject(r: ObjectRow) {
  return {
    id: r.id,
    code: r.code,
    policyCode: r.policy_code,
    insuredObjectId: r.insured_object_id,
    insuredObjectName: r.insured_object_name,
    insuredObjectLabel: r.insured_object_label,
    data: r.data,
    summary: r.summary,
    ...audit(r),
  };
}

function presentTimeslice(r: TimesliceRow, objects: ObjectRow[]) {
  return {
    id: r.id,
    from: iso(r.from),
    to: r.to ? iso(r.to) : null,
    premium: r.premium,
    policyObjects: objects.map(presentObject),
    ...audit(r),
  };
}

function presentVersion(r: VersionRow, timeline: Timeline) {
  return {
    id: r.id,
    versionNumber: r.version_number,
    isCurrent: r.is_current,
    isDraft: r.is_draft,
    revisionStatus: r.revision_status,
    metadata: r.metadata,
    timeline,
    ...audit(r),
  };
}

/**
 * `expand=premiumUnits`: every premium item of the given timelines carries its formula's `unit`
 * (the contract's item is `{premiumFormulaId, total, isOverride}`; the unit lives on the formula).
 * A list can then say the unit of each total without asking for the formulas of every version.
 * A formula deleted since the premium was computed gives `unit: null`.
 */
async function addPremiumUnits(db: Queryable, tenantId: number, timelines: Timeline[]) {
  const slices = timelines.flat();
  const itemsOf = (slice: Timeline[number]) =>
    (slice.premium as { premiumItems?: { premiumFormulaId: number }[] }).premiumItems ?? [];
  const ids = [...new Set(slices.flatMap((s) => itemsOf(s).map((i) => i.premiumFormulaId)))];
  if (!ids.length) return;
  const rows = await db.query<{ id: number; unit: string }>(
    'SELECT id, unit FROM premium_formulas WHERE tenant_id = $1 AND id = ANY($2::int[])',
    [tenantId, ids],
  );
  const unitOf = new Map(rows.map((r) => [r.id, r.unit]));
  for (const slice of slices) {
    const premiumItems = itemsOf(slice).map((item) => ({
      ...item,
      unit: unitOf.get(item.premiumFormulaId) ?? null,
    }));
    slice.premium = { ...slice.premium, premiumItems };
  }
}

interface Expansion {
  versions?: ReturnType<typeof presentVersion>[];
  timeline?: Timeline;
  product?: boolean;
}

function presentPolicy(tenantSlug: string, r: PolicyRow, x: Expansion) {
  return {
    id: r.id,
    code: r.code,
    policyNumber: r.policy_number,
    productId: r.product_id,
    productVersionId: r.product_version_id,
    productName: r.product_name,
    productSlug: r.product_slug,
    accountCode: r.account_code,
    holder: holderOf(r),
    status: r.status,
    // The spec: policyStartDate falls back to createdAt.
    policyStartDate: iso(r.policy_start_date ?? r.created_at),
    leadCode: r.lead_code,
    // What every write names as the version it was based on, and the draft if there is one.
    currentVersionId: r.current_version_id,
    draftVersionId: r.draft_version_id,
    terminationDate: r.termination_date ? iso(r.termination_date) : null,
    terminationReason: r.termination_reason,
    premiumOverride: r.premium_override,
    ...(x.product
      ? {
          product: {
            id: r.product_id,
            code: r.product_code,
            name: r.product_name,
            slug: r.product_slug,
            category: r.product_category,
          },
        }
      : {}),
    ...(x.timeline ? { timeline: x.timeline } : {}),
    ...(x.versions ? { versions: x.versions } : {}),
    ern: `ern:insuranceservice:${tenantSlug}:policy/${r.code}`,
    ...audit(r),
  };
}

/**
 * Versions of the given policies with their timelines (timeslices by start, each with its policy
 * objects in reversed order, as the spec shows them), three queries for a whole page.
 */
async function versionsOf(
  db: Queryable,
  tenantId: number,
  policyIds: number[],
  onlyCurrent: boolean,
): Promise<Map<number, PresentedVersion[]>> {
  if (!policyIds.length) return new Map();
  const versions = await db.query<VersionRow>(
    `SELECT * FROM policy_versions
      WHERE tenant_id = $1 AND policy_id = ANY($2::int[]) AND (NOT $3 OR is_current)
      ORDER BY policy_id, version_number DESC`,
    [tenantId, policyIds, onlyCurrent],
  );
  const result = new Map<number, PresentedVersion[]>();
  for (const version of await presentVersions(db, tenantId, versions)) {
    const list = result.get(version.policyId) ?? [];
    list.push(version);
    result.set(version.policyId, list);
  }
  return result;
}

export type PresentedVersion = ReturnType<typeof presentVersion> & { policyId: number };

/** The given version rows with their timelines, in the given order. */
export async function presentVersions(
  db: Queryable,
  tenantId: number,
  versions: VersionRow[],
): Promise<PresentedVersion[]> {
  if (!versions.length) return [];
  const slices = await db.query<TimesliceRow>(
    `SELECT * FROM timeslices WHERE tenant_id = $1 AND policy_version_id = ANY($2::int[])
      ORDER BY "from", id`,
    [tenantId, versions.map((v) => v.id)],
  );
  const objects = await db.query<ObjectRow>(
    `SELECT * FROM policy_objects WHERE tenant_id = $1 AND timeslice_id = ANY($2::int[])
      ORDER BY "order" DESC, id DESC`,
    [tenantId, slices.map((s) => s.id)],
  );
  const objectsBySlice = groupBy(objects, (o) => o.timeslice_id);
  const slicesByVersion = groupBy(slices, (s) => s.policy_version_id);
  return versions.map((version) => ({
    ...presentVersion(
      version,
      (slicesByVersion.get(version.id) ?? []).map((s) =>
        presentTimeslice(s, objectsBySlice.get(s.id) ?? []),
      ),
    ),
    policyId: version.policy_id,
  }));
}

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
}

/**
 * The policy row by numeric id or `pol_` code, or 404 "Policy does not exist". `forUpdate` locks
 * the row first (`lockPolicy`) and reads it after the lock is held, so that a write that waited
 * for another one sees what that one committed.
 */
export async function findPolicyRow(
  db: Queryable,
  tenantId: number,
  key: string,
  forUpdate = false,
): Promise<PolicyRow> {
  const byId = /^\d{1,9}$/.test(key);
  if (!byId && !/^pol_[A-Za-z0-9]{1,64}$/.test(key)) throw policyDoesNotExist();
  let id = byId ? Number(key) : null;
  if (forUpdate) {
    id = await lockPolicy(db, tenantId, id !== null ? { id } : { code: key });
    if (id === null) throw policyDoesNotExist();
  }
  const [row] = await db.query<PolicyRow>(
    `${SELECT_POLICY} WHERE p.tenant_id = $1 AND ${id !== null ? 'p.id = $2' : 'p.code = $2'}`,
    [tenantId, id ?? key],
  );
  if (!row) throw policyDoesNotExist();
  return row;
}

/**
 * One policy as GET /policies/{id} answers it; `expandQuery` as that call's `expand` parameter
 * (absent: `versions`). The writes answer with this too, so a client sees one shape.
 */
export async function loadPolicy(
  db: Queryable,
  tenantId: number,
  tenantSlug: string,
  key: string,
  expandQuery?: unknown,
) {
  const list = parseListQuery(
    { expand: expandQuery as string | undefined },
    { filters: [], orders: [], expands: LIST_EXPANDS },
  );
  const expand = expandQuery === undefined ? new Set(DEFAULT_SINGLE_EXPANDS) : list.expand;
  const row = await findPolicyRow(db, tenantId, key);
  const wantsVersions = expand.has('versions');
  const versions =
    wantsVersions || expand.has('timelines')
      ? ((await versionsOf(db, tenantId, [row.id], !wantsVersions)).get(row.id) ?? [])
      : null;
  const policy = presentPolicy(tenantSlug, row, {
    product: expand.has('product'),
    versions: wantsVersions ? (versions ?? []) : undefined,
    timeline: expand.has('timelines')
      ? (versions?.find((v) => v.isCurrent)?.timeline ?? [])
      : undefined,
  });
  if (expand.has('premiumUnits')) {
    await addPremiumUnits(
      db,
      tenantId,
      (versions ?? []).map((v) => v.timeline),
    );
  }
  return policy;
}

/**
 * The colon search of a policy's versions (spec section 5: "A policy list search uses a colon
 * operator for versions"): words separated by spaces, all of which must hold. `key:value` tests a
 * property of the version, a bare word the values of its policy objects' data (any timeslice, any
 * object, case-insensitive, part of a value).
 */
const VERSION_SEARCH_KEYS = [
  'revisionStatus',
  'isCurrent',
  'isDraft',
  'versionNumber',
  'createdAt',
];

function versionSearch(search: string | null): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  // Parameters follow the tenant ($1) and the policy ($2).
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length + 2}`;
  };
  const refuse = (why: string) => new HttpError(400, 'invalid_query', `search: ${why}`);
  for (const word of (search ?? '').split(/\s+/).filter(Boolean).slice(0, 10)) {
    const colon = word.indexOf(':');
    if (colon < 0) {
      clauses.push(
        `EXISTS (SELECT 1 FROM timeslices t JOIN policy_objects o ON o.timeslice_id = t.id,
                        jsonb_each_text(o.data) AS e
                  WHERE t.policy_version_id = v.id AND e.value ILIKE ${param(escapeLike(word))})`,
      );
      continue;
    }
    const key = word.slice(0, colon);
    const value = word.slice(colon + 1);
    if (key === 'revisionStatus') {
      if (!(REVISION_STATUSES as readonly string[]).includes(value)) {
        throw refuse(`revisionStatus is one of ${REVISION_STATUSES.join(', ')}`);
      }
      clauses.push(`v.revision_status = ${param(value)}`);
    } else if (key === 'isCurrent' || key === 'isDraft') {
      if (value !== 'true' && value !== 'false') throw refuse(`${key} is true or false`);
      clauses.push(
        `v.${key === 'isCurrent' ? 'is_current' : 'is_draft'} = ${param(value === 'true')}`,
      );
    } else if (key === 'versionNumber') {
      if (!/^\d{1,6}$/.test(value)) throw refuse('versionNumber is a number');
      clauses.push(`v.version_number = ${param(Number(value))}`);
    } else if (key === 'createdAt') {
      // A year, a month or a day (UTC), as the prefix of the ISO date.
      if (!/^\d{4}(-\d{2}(-\d{2})?)?$/.test(value))
        throw refuse('createdAt is YYYY, YYYY-MM or YYYY-MM-DD');
      clauses.push(
        `to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') LIKE ${param(`${value}%`)}`,
      );
    } else {
      throw refuse(`unknown key ${key}; use ${VERSION_SEARCH_KEYS.join(', ')} or a bare word`);
    }
  }
  return { where: clauses.map((c) => `AND ${c}`).join(' '), params };
}

/**
 * The columns the policies list sorts by (issue 15), each an expression that is never NULL, so
 * that the keyset comparison `(value, id) > (last value, last id)` holds for every row, and the
 * type its value is compared as.
 */
const POLICY_ORDERS = {
  id: { sql: 'p.id', type: 'int' },
  policyNumber: { sql: 'p.policy_number', type: 'text' },
  productName: { sql: 'lower(pr.name)', type: 'text' },
  status: { sql: 'p.status', type: 'text' },
  // The list shows the creation date when no start was given (spec section 3).
  policyStartDate: { sql: 'coalesce(p.policy_start_date, p.created_at)', type: 'timestamptz' },
  // Persons by last and first name, companies by name: what a clerk looks a holder up by.
  holder: {
    sql: partySortSql([jsonParty('p.holder'), accountParty('a')], 'p.account_code'),
    type: 'text',
  },
  // The grand total of the current version's timeslice in force now (common/policy-timeline.ts,
  // which the rows and the CSV read), stored on the policy (./policy-premium.ts) and kept in step
  // with the clock by the day's run (./policy-renewal.ts), so the list only reads. A policy
  // without one sorts as -1, before every real premium.
  premium: { sql: 'p.premium_in_force', type: 'numeric' },
} as const satisfies Record<string, { sql: string; type: SortType }>;
type PolicyOrder = keyof typeof POLICY_ORDERS;

// ---- router -----------------------------------------------------------------------------------

export function insurancePolicyRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/policies', VIEW, async (req, res) => {
    const { tenantId, tenantSlug } = getAuth(res);
    const { pageToken, ...rest } = req.query;
    const list = parseListQuery(rest, {
      filters: ['status', 'productSlug', 'accountCode', 'policyNumber', 'productVersionId'],
      orders: Object.keys(POLICY_ORDERS),
      expands: LIST_EXPANDS,
    });
    const expand = req.query.expand === undefined ? new Set(DEFAULT_LIST_EXPANDS) : list.expand;
    // Newest first unless asked otherwise: the back office looks for recent policies.
    const direction = list.order?.direction ?? 'DESC';
    const field = (list.order?.field ?? 'id') as PolicyOrder;
    const token = readPageToken(pageToken, direction, field, POLICY_ORDERS[field].type);

    const statuses = list.filter.get('status')?.split(',') ?? null;
    if (statuses?.some((s) => !(POLICY_STATUSES as readonly string[]).includes(s))) {
      throw new HttpError(
        400,
        'invalid_query',
        `status must be one of ${POLICY_STATUSES.join(', ')}`,
      );
    }
    const versionIdText = list.filter.get('productVersionId');
    if (versionIdText !== undefined && !/^\d{1,9}$/.test(versionIdText)) {
      throw new HttpError(400, 'invalid_query', 'productVersionId must be a number');
    }

    const filterParams = [
      tenantId,
      statuses,
      list.filter.get('productSlug') ?? null,
      list.filter.get('accountCode') ?? null,
      list.filter.get('policyNumber') ?? null,
      versionIdText === undefined ? null : Number(versionIdText),
      list.search ? escapeLike(list.search) : null,
    ];
    const filtered = `
        WHERE p.tenant_id = $1
          AND ($2::text[] IS NULL OR p.status = ANY($2::text[]))
          AND ($3::text IS NULL OR p.product_id =
                 (SELECT id FROM products WHERE tenant_id = $1 AND slug = $3))
          AND ($4::text IS NULL OR p.account_code = $4)
          AND ($5::text IS NULL OR p.policy_number = $5)
          AND ($6::int IS NULL OR p.product_version_id = $6)
          AND ($7::text IS NULL OR p.policy_number ILIKE $7 OR p.code ILIKE $7
               OR p.account_code ILIKE $7 OR pr.name ILIKE $7 OR a.last_name ILIKE $7
               OR a.company_name ILIKE $7)`;
    const order = POLICY_ORDERS[field];
    const compare = direction === 'ASC' ? '>' : '<';
    // Bound after the filters' ones, each only when the statement uses it (PostgreSQL refuses
    // a value for a placeholder it does not see).
    const params: unknown[] = [...filterParams];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const sortSql = order.sql;
    const after =
      token.afterId === null
        ? ''
        : field === 'id'
          ? `AND p.id ${compare} ${bind(token.afterId)}`
          : `AND (${sortSql}, p.id) ${compare} (${bind(token.afterValue)}::${order.type}, ${bind(token.afterId)})`;
    const [rows, totalItems] = await Promise.all([
      db.query<PolicyRow & { sort_value: string }>(
        `SELECT (${sortSql})::text AS sort_value, ${SELECT_POLICY.trim().replace(/^SELECT /, '')}
          ${filtered}
          ${after}
          ORDER BY ${field === 'id' ? '' : `${sortSql} ${direction}, `}p.id ${direction}
          LIMIT ${bind(list.pageSize + 1)}`,
        params,
      ),
      // The count of the whole filtered list: the table's "1 234 policies"; counted on the first
      // page only, later pages carry it in their token (issue 14).
      token.total ?? countOf(db, `${SELECT_POLICY} ${filtered}`, filterParams),
    ]);
    const more = rows.length > list.pageSize;
    const items = more ? rows.slice(0, list.pageSize) : rows;
    const ids = items.map((p) => p.id);
    const wantsVersions = expand.has('versions');
    const versions =
      wantsVersions || expand.has('timelines')
        ? await versionsOf(db, tenantId, ids, !wantsVersions)
        : null;
    const last = items.at(-1);
    const presented = items.map((p) => {
      const own = versions?.get(p.id) ?? [];
      return presentPolicy(tenantSlug, p, {
        product: expand.has('product'),
        versions: wantsVersions ? own : undefined,
        timeline: expand.has('timelines')
          ? (own.find((v) => v.isCurrent)?.timeline ?? [])
          : undefined,
      });
    });
    if (expand.has('premiumUnits')) {
      await addPremiumUnits(db, tenantId, [
        ...presented.flatMap((p) => p.versions?.map((v) => v.timeline) ?? []),
        ...presented.flatMap((p) => (p.timeline ? [p.timeline] : [])),
      ]);
    }
    res.json({
      items: presented,
      nextPageToken:
        more && last
          ? writePageToken(
              token.page + 1,
              last.id,
              direction,
              field === 'id' ? undefined : { field, value: last.sort_value },
              totalItems,
            )
          : null,
      totalItems,
    });
  });

  // Before /policies/:id, which would take "policy-objects" for a policy key.
  router.get('/policies/policy-objects', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const { pageToken, ...rest } = req.query;
    const list = parseListQuery(rest, {
      filters: ['policyCode', 'insuredObjectId', 'policyVersionId'],
      orders: ['id'],
      expands: [],
    });
    const direction = list.order?.direction ?? 'DESC';
    const token = readPageToken(pageToken, direction);
    const number = (name: string) => {
      const text = list.filter.get(name);
      if (text !== undefined && !/^\d{1,9}$/.test(text)) {
        throw new HttpError(400, 'invalid_query', `${name} must be a number`);
      }
      return text === undefined ? null : Number(text);
    };
    const insuredObjectId = number('insuredObjectId');
    const policyVersionId = number('policyVersionId');
    // The objects of the policy as in force (current versions), or of the version asked for.
    const rows = await db.query<ObjectRow & { policy_version_id: number }>(
      `SELECT o.*, t.policy_version_id FROM policy_objects o
         JOIN timeslices t ON t.id = o.timeslice_id
         JOIN policy_versions v ON v.id = t.policy_version_id
        WHERE o.tenant_id = $1
          AND ($2::text IS NULL OR o.policy_code = $2)
          AND ($3::int IS NULL OR o.insured_object_id = $3)
          AND (CASE WHEN $4::int IS NULL THEN v.is_current ELSE v.id = $4 END)
          AND ($5::int IS NULL OR o.id ${direction === 'ASC' ? '>' : '<'} $5)
        ORDER BY o.id ${direction}
        LIMIT $6`,
      [
        tenantId,
        list.filter.get('policyCode') ?? null,
        insuredObjectId,
        policyVersionId,
        token.afterId,
        list.pageSize + 1,
      ],
    );
    const more = rows.length > list.pageSize;
    const items = more ? rows.slice(0, list.pageSize) : rows;
    const last = items.at(-1);
    res.json({
      items: items.map((o) => ({
        ...presentObject(o),
        timesliceId: o.timeslice_id,
        policyVersionId: o.policy_version_id,
      })),
      nextPageToken: more && last ? writePageToken(token.page + 1, last.id, direction) : null,
    });
  });

  router.get('/policies/:id/versions', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: [],
      orders: ['versionNumber'],
      expands: [],
    });
    const policy = await findPolicyRow(db, tenantId, String(req.params.id));
    const search = versionSearch(list.search);
    const params: unknown[] = [tenantId, policy.id, ...search.params];
    const versions = await db.query<VersionRow>(
      `SELECT v.* FROM policy_versions v
        WHERE v.tenant_id = $1 AND v.policy_id = $2 ${search.where}
        ORDER BY v.version_number ${list.order?.direction ?? 'DESC'}
        LIMIT ${list.pageSize + 1} OFFSET ${(list.page - 1) * list.pageSize}`,
      params,
    );
    const page = pageOf(versions, list);
    res.json({
      items: await presentVersions(db, tenantId, page.items),
      nextPageToken: page.nextPageToken,
    });
  });

  router.get('/policies/:id/history', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await findPolicyRow(db, tenantId, String(req.params.id));
    res.json(await historyPage(db, req, tenantId, 'policy', row.code));
  });

  router.get('/policies/:id', VIEW, async (req, res) => {
    const { tenantId, tenantSlug } = getAuth(res);
    res.json({
      policy: await loadPolicy(db, tenantId, tenantSlug, String(req.params.id), req.query.expand),
    });
  });

  return router;
}
