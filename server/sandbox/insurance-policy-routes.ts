import { Router } from 'express';
import type { Db, Queryable } from './db.ts';
import type { SandboxContext } from './sandbox.ts';
import {
  HttpError,
  getAuth,
  parseListQuery,
  requireAuth,
  requireServicePermission,
} from './http.ts';
import { escapeLike } from './admin-shared.ts';

/**
 * Policies of the insuranceservice (spec sections 3, 7, 9): the list with filters, order, search
 * and expansions, and a single policy with its versions, timelines and policy objects. Decisions
 * where the spec is silent are in docs/contracts.md, "Insurance: policies (issue 4)".
 */

export const POLICY_STATUSES = ['ACTIVE', 'WITHDRAWN', 'TERMINATED', 'SUSPENDED'] as const;
type PolicyStatus = (typeof POLICY_STATUSES)[number];

const VIEW = requireServicePermission('policy-management', 'policies', 'view');

const policyDoesNotExist = () => new HttpError(404, 'not_found', 'Policy does not exist');

const LIST_EXPANDS = ['timelines', 'product', 'versions'] as const;
const DEFAULT_LIST_EXPANDS = ['timelines', 'product'];
const DEFAULT_SINGLE_EXPANDS = ['versions'];

// ---- rows and presentation ------------------------------------------------------------------

interface Audit {
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
}
/** Timestamps leave in UTC ISO form whatever the driver hands back (spec section 9). */
const iso = (value: Date | string) => new Date(value).toISOString();
const audit = (r: Audit) => ({
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  createdBy: r.created_by,
  updatedBy: r.updated_by,
});

interface PolicyRow extends Audit {
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
  product_code: string;
  product_name: string;
  product_slug: string;
  product_category: string;
  account_type: string | null;
  account_first_name: string | null;
  account_last_name: string | null;
  account_company_name: string | null;
}
interface VersionRow extends Audit {
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
interface ObjectRow extends Audit {
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
         a.company_name AS account_company_name
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

function presentObject(r: ObjectRow) {
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
): Promise<Map<number, ReturnType<typeof presentVersion>[]>> {
  const result = new Map<number, ReturnType<typeof presentVersion>[]>();
  if (!policyIds.length) return result;
  const versions = await db.query<VersionRow>(
    `SELECT * FROM policy_versions
      WHERE tenant_id = $1 AND policy_id = ANY($2::int[]) AND (NOT $3 OR is_current)
      ORDER BY policy_id, version_number DESC`,
    [tenantId, policyIds, onlyCurrent],
  );
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
  for (const version of versions) {
    const timeline = (slicesByVersion.get(version.id) ?? []).map((s) =>
      presentTimeslice(s, objectsBySlice.get(s.id) ?? []),
    );
    const list = result.get(version.policy_id) ?? [];
    list.push(presentVersion(version, timeline));
    result.set(version.policy_id, list);
  }
  return result;
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

// ---- keyset page tokens -----------------------------------------------------------------------

/**
 * The list pages by keyset, not OFFSET: nextPageToken is `<page>.<last id>` ("2.1971"), and the
 * next query starts after that id, so page 300 costs what page 1 does. The page number stays in
 * the token for a client that counts pages; the first page is "1" or no token at all. A token is
 * only valid for the order it was issued under: the last id means nothing in the other direction,
 * so the direction is part of the token ("2.1971.d").
 */
interface PageToken {
  page: number;
  afterId: number | null;
}

function readPageToken(text: unknown, direction: 'ASC' | 'DESC'): PageToken {
  if (text === undefined || text === '' || text === '1') return { page: 1, afterId: null };
  const match = typeof text === 'string' ? /^(\d{1,6})\.(\d{1,10})\.([ad])$/.exec(text) : null;
  if (!match || Number(match[1]) < 2 || match[3] !== direction[0]?.toLowerCase()) {
    throw new HttpError(
      400,
      'invalid_query',
      'pageToken must be 1 or the nextPageToken of the previous page in the same order',
    );
  }
  return { page: Number(match[1]), afterId: Number(match[2]) };
}

const writePageToken = (page: number, lastId: number, direction: 'ASC' | 'DESC') =>
  `${page}.${lastId}.${direction === 'ASC' ? 'a' : 'd'}`;

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
      orders: ['id'],
      expands: LIST_EXPANDS,
    });
    const expand = req.query.expand === undefined ? new Set(DEFAULT_LIST_EXPANDS) : list.expand;
    // Newest first unless asked otherwise: the back office looks for recent policies.
    const direction = list.order?.direction ?? 'DESC';
    const token = readPageToken(pageToken, direction);

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

    const rows = await db.query<PolicyRow>(
      `${SELECT_POLICY}
        WHERE p.tenant_id = $1
          AND ($2::text[] IS NULL OR p.status = ANY($2::text[]))
          AND ($3::text IS NULL OR p.product_id =
                 (SELECT id FROM products WHERE tenant_id = $1 AND slug = $3))
          AND ($4::text IS NULL OR p.account_code = $4)
          AND ($5::text IS NULL OR p.policy_number = $5)
          AND ($6::int IS NULL OR p.product_version_id = $6)
          AND ($7::text IS NULL OR p.policy_number ILIKE $7 OR p.code ILIKE $7
               OR p.account_code ILIKE $7 OR pr.name ILIKE $7 OR a.last_name ILIKE $7
               OR a.company_name ILIKE $7)
          AND ($8::int IS NULL OR p.id ${direction === 'ASC' ? '>' : '<'} $8)
        ORDER BY p.id ${direction}
        LIMIT $9`,
      [
        tenantId,
        statuses,
        list.filter.get('productSlug') ?? null,
        list.filter.get('accountCode') ?? null,
        list.filter.get('policyNumber') ?? null,
        versionIdText === undefined ? null : Number(versionIdText),
        list.search ? escapeLike(list.search) : null,
        token.afterId,
        list.pageSize + 1,
      ],
    );
    const more = rows.length > list.pageSize;
    const items = more ? rows.slice(0, list.pageSize) : rows;
    const ids = items.map((p) => p.id);
    const wantsVersions = expand.has('versions');
    const versions =
      wantsVersions || expand.has('timelines')
        ? await versionsOf(db, tenantId, ids, !wantsVersions)
        : null;
    const last = items.at(-1);
    res.json({
      items: items.map((p) => {
        const own = versions?.get(p.id) ?? [];
        return presentPolicy(tenantSlug, p, {
          product: expand.has('product'),
          versions: wantsVersions ? own : undefined,
          timeline: expand.has('timelines')
            ? (own.find((v) => v.isCurrent)?.timeline ?? [])
            : undefined,
        });
      }),
      nextPageToken: more && last ? writePageToken(token.page + 1, last.id, direction) : null,
    });
  });

  router.get('/policies/:id', VIEW, async (req, res) => {
    const { tenantId, tenantSlug } = getAuth(res);
    const list = parseListQuery(
      { expand: req.query.expand },
      { filters: [], orders: [], expands: LIST_EXPANDS },
    );
    const expand = req.query.expand === undefined ? new Set(DEFAULT_SINGLE_EXPANDS) : list.expand;
    const key = String(req.params.id);
    const byId = /^\d{1,9}$/.test(key);
    if (!byId && !/^pol_[A-Za-z0-9]{1,64}$/.test(key)) throw policyDoesNotExist();
    const [row] = await db.query<PolicyRow>(
      `${SELECT_POLICY} WHERE p.tenant_id = $1 AND ${byId ? 'p.id = $2' : 'p.code = $2'}`,
      [tenantId, byId ? Number(key) : key],
    );
    if (!row) throw policyDoesNotExist();
    const wantsVersions = expand.has('versions');
    const versions =
      wantsVersions || expand.has('timelines')
        ? ((await versionsOf(db, tenantId, [row.id], !wantsVersions)).get(row.id) ?? [])
        : null;
    res.json({
      policy: presentPolicy(tenantSlug, row, {
        product: expand.has('product'),
        versions: wantsVersions ? (versions ?? []) : undefined,
        timeline: expand.has('timelines')
          ? (versions?.find((v) => v.isCurrent)?.timeline ?? [])
          : undefined,
      }),
    });
  });

  return router;
}
