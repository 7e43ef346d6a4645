import { Router } from 'express';
import type * as v from 'valibot';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { allows } from '#server/sandbox/platform/status-workflow.ts';
import { leadWorkflow } from './lead-workflow.ts';
import { historyPage, recordChange } from '#server/sandbox/platform/audit-trail.ts';
import type { AuthContext } from '#server/sandbox/platform/auth-context.ts';
import type { Clock } from '#common/clock.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError, invalidField } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { parseListQuery } from '#server/sandbox/platform/list-query.ts';
import {
  anyOf,
  equals,
  listRoute,
  numeric,
  type Filter,
  type ListSource,
} from '#server/sandbox/platform/list-sql.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { accountParty, jsonParty, partySortSql } from '#server/sandbox/platform/list-keyset.ts';
import { auditIso, iso, updatedByNameSql, type Audit } from '#server/sandbox/platform/records.ts';
import {
  applyPremiumOverride,
  loadTariffs,
  premiumOf,
  PremiumFormulaError,
  type Tariff,
} from './premium.ts';
import { LEAD_CONVERTED_STATUS } from '#common/leads.ts';
import {
  LEAD_STATUS_SLUG,
  LeadCreateBody,
  type LeadPolicyBody,
  LeadUpdateBody,
} from '#common/contracts/lead.ts';
import { describeIssues, validatePolicyObjects } from '#common/policy-object-data.ts';

/**
 * Leads (applications) of the insuranceservice: the tenant's lead statuses and the transition
 * rules between them, the lead list and a single lead, creating an application whose policy data
 * is checked against the product version's fields, and partial edits that carry the version they
 * were based on. Every saved change writes a lead version with a snapshot. Decisions where the
 * spec is silent are in docs/contracts.md, "Insurance: leads".
 */

const can = (action: string) => requireServicePermission('policy-management', 'leads', action);
// Claim statuses will use the same rules (entity type claim): reading them is part of either.
const VIEW_RULES = requirePermission(
  'policy-management.leads.view',
  'eis.leads.view',
  'claim-management.claims.view',
  'eis.claims.view',
);

const leadDoesNotExist = () => new HttpError(404, 'not_found', 'Lead does not exist');

const EXPANDS = ['versions'] as const;

// ---- rows and presentation ------------------------------------------------------------------

interface LeadRow extends Audit {
  id: number;
  code: string;
  lead_number: string;
  status: string;
  account_code: string | null;
  product_id: number;
  product_version_id: number;
  policy: StoredPolicy;
  bank_account: { iban: string } | null;
  payment_method: Record<string, unknown> | null;
  custom_data: Record<string, unknown> | null;
  premium_override: PremiumOverrideItem[] | null;
  premium: Record<string, unknown>;
  version: number;
  product_name: string;
  product_slug: string;
  /** Who saved the lead last, by name (SELECT_LEAD reads it from the users). */
  updated_by_name?: string | null;
  acc_id: number | null;
  acc_number: string | null;
  acc_type: string | null;
  acc_title: string | null;
  acc_first_name: string | null;
  acc_last_name: string | null;
  acc_company_name: string | null;
  acc_email: string | null;
  acc_birth_date: string | null;
  acc_created_at: Date | null;
  acc_updated_at: Date | null;
}

interface VersionRow {
  version: number;
  status: string;
  changed_fields: string[];
  snapshot: Record<string, unknown>;
  created_at: Date;
  created_by: string;
}

export interface StoredPolicy {
  productVersionId: number;
  accountCode: string | null;
  holder: Record<string, string> | null;
  policyObjects: {
    insuredObjectId: number;
    insuredObjectName: string;
    insuredObjectLabel: string;
    data: Record<string, unknown>;
  }[];
  premiumOverride: PremiumOverrideItem[] | null;
}

interface PremiumOverrideItem {
  premiumFormulaId: number;
  total: number;
}

const SELECT_LEAD = `
  SELECT l.*, pr.name AS product_name, pr.slug AS product_slug,
         a.id AS acc_id, a.account_number AS acc_number, a.type AS acc_type, a.title AS acc_title,
         a.first_name AS acc_first_name, a.last_name AS acc_last_name,
         a.company_name AS acc_company_name, a.email AS acc_email,
         to_char(a.birth_date, 'YYYY-MM-DD') AS acc_birth_date,
         a.created_at AS acc_created_at, a.updated_at AS acc_updated_at,
         ${updatedByNameSql('l')}
    FROM leads l
    JOIN products pr ON pr.id = l.product_id AND pr.tenant_id = l.tenant_id
    LEFT JOIN accounts a ON a.tenant_id = l.tenant_id AND a.code = l.account_code`;

/** The customer of the lead, as a summary (spec section 3: birthDate, createdAt, updatedAt). */
function accountOf(r: LeadRow) {
  if (!r.account_code || r.acc_id === null) return null;
  return {
    id: r.acc_id,
    code: r.account_code,
    accountNumber: r.acc_number,
    type: r.acc_type,
    title: r.acc_title,
    firstName: r.acc_first_name,
    lastName: r.acc_last_name,
    companyName: r.acc_company_name,
    email: r.acc_email,
    birthDate: r.acc_birth_date,
    createdAt: r.acc_created_at ? iso(r.acc_created_at) : null,
    updatedAt: r.acc_updated_at ? iso(r.acc_updated_at) : null,
  };
}

/** The columns of a lead itself (the seed builds its version snapshots from these). */
export type LeadCoreRow = Omit<LeadRow, `acc_${string}`>;

/** The lead as saved, without what belongs to other records (account) or to its history. */
export function leadCore(tenantSlug: string, r: LeadCoreRow) {
  return {
    id: r.id,
    code: r.code,
    leadNumber: r.lead_number,
    status: r.status,
    accountCode: r.account_code,
    productId: r.product_id,
    productVersionId: r.product_version_id,
    productSlug: r.product_slug,
    productName: r.product_name,
    policy: r.policy,
    bankAccount: r.bank_account,
    paymentMethod: r.payment_method,
    customData: r.custom_data,
    premiumOverride: r.premium_override,
    premium: r.premium,
    version: r.version,
    ern: `ern:insuranceservice:${tenantSlug}:lead/${r.code}`,
    ...auditIso(r),
  };
}

const presentVersionSummary = (r: VersionRow) => ({
  version: r.version,
  status: r.status,
  changedFields: r.changed_fields,
  createdAt: iso(r.created_at),
  createdBy: r.created_by,
});

function presentLead(
  tenantSlug: string,
  r: LeadRow,
  versions?: ReturnType<typeof presentVersionSummary>[],
) {
  return {
    ...leadCore(tenantSlug, r),
    updatedByName: r.updated_by_name ?? null,
    account: accountOf(r),
    ...(versions ? { versions } : {}),
  };
}

async function versionsOf(db: Queryable, tenantId: number, leadIds: number[]) {
  const rows = await db.query<VersionRow & { lead_id: number }>(
    `SELECT lead_id, version, status, changed_fields, created_at, created_by FROM lead_versions
      WHERE tenant_id = $1 AND lead_id = ANY($2::int[]) ORDER BY lead_id, version DESC`,
    [tenantId, leadIds],
  );
  const map = new Map<number, ReturnType<typeof presentVersionSummary>[]>();
  for (const row of rows) {
    const list = map.get(row.lead_id) ?? [];
    list.push(presentVersionSummary(row));
    map.set(row.lead_id, list);
  }
  return map;
}

/**
 * `{id}` is the numeric id or the code (`lea_...`); anything else is as unknown as a foreign one.
 * `lock` locks the lead row until the transaction ends, in a statement of its own, and reads the
 * lead only then: under READ COMMITTED a statement that waited for the lock reads the joined
 * tables as they were when it began, so a write that waited for another one would otherwise
 * see that one's lead beside the account it had before.
 */
async function findLead(
  db: Queryable,
  tenantId: number,
  key: string,
  lock = false,
): Promise<LeadRow> {
  const byId = /^\d{1,9}$/.test(key);
  if (!byId && !/^lea_[A-Za-z0-9]{1,64}$/.test(key)) throw leadDoesNotExist();
  let id = byId ? Number(key) : null;
  if (lock) {
    const [locked] = await db.query<{ id: number }>(
      `SELECT id FROM leads WHERE tenant_id = $1 AND ${byId ? 'id' : 'code'} = $2 FOR UPDATE`,
      [tenantId, id ?? key],
    );
    if (!locked) throw leadDoesNotExist();
    id = locked.id;
  }
  const [row] = await db.query<LeadRow>(
    `${SELECT_LEAD} WHERE l.tenant_id = $1 AND ${id !== null ? 'l.id = $2' : 'l.code = $2'}`,
    [tenantId, id ?? key],
  );
  if (!row) throw leadDoesNotExist();
  return row;
}

// ---- statuses and rules ---------------------------------------------------------------------

const statusesOf = (db: Queryable, tenantId: number) => leadWorkflow.statuses(db, tenantId);
const leadRules = (db: Queryable, tenantId: number) => leadWorkflow.rules(db, tenantId);

type Editable = Omit<v.InferOutput<typeof LeadUpdateBody>, 'version' | 'status'>;
type PolicyInput = v.InferOutput<typeof LeadPolicyBody>;

/** The lead's parts a save can change, as the version history names them. */
const CHANGEABLE = [
  'status',
  'accountCode',
  'policy',
  'bankAccount',
  'paymentMethod',
  'customData',
  'premiumOverride',
] as const;

// ---- policy data ----------------------------------------------------------------------------

interface ResolvedPolicy {
  productId: number;
  productVersionId: number;
  policy: StoredPolicy;
  premium: ReturnType<typeof premiumOf>;
}

const refused = invalidField;

async function assertAccount(db: Queryable, tenantId: number, code: string | null) {
  if (code === null) return;
  const [row] = await db.query('SELECT 1 FROM accounts WHERE tenant_id = $1 AND code = $2', [
    tenantId,
    code,
  ]);
  if (!row) throw refused('accountCode', 'unknown_account');
}

/** The premium of the data, with the overridden items replaced and marked. */
function premiumWith(tariff: Tariff, policy: StoredPolicy) {
  let computed: ReturnType<typeof premiumOf>;
  try {
    computed = premiumOf(
      tariff,
      policy.policyObjects.map((o) => ({ name: o.insuredObjectName, data: o.data })),
    );
  } catch (error) {
    if (!(error instanceof PremiumFormulaError)) throw error;
    throw new HttpError(400, 'premium_not_computable', error.describe(), undefined, [
      error.issue(),
    ]);
  }
  const overrides = policy.premiumOverride ?? [];
  for (const o of overrides) {
    if (!computed.premiumItems.some((item) => item.premiumFormulaId === o.premiumFormulaId)) {
      throw refused(
        'premiumOverride',
        'unknown_premium_formula',
        `unknown premium formula ${o.premiumFormulaId}`,
      );
    }
  }
  // The same agreed totals as a policy's, rounded to cents the same way.
  return applyPremiumOverride(computed, { premiumItems: overrides });
}

/**
 * Checks a create-policy body against the product version (an active one of this tenant) and its
 * fields, and computes its premium. Blank values count as not given and are not stored.
 */
async function resolvePolicy(
  db: Queryable,
  tenantId: number,
  input: PolicyInput,
  accountCode: string | null,
  premiumOverride: PremiumOverrideItem[] | null,
  todayMs: number,
): Promise<ResolvedPolicy> {
  const [tariff] = await loadTariffs(db, tenantId, 'v.id = $2', [input.productVersionId]);
  if (!tariff)
    throw refused('policy.productVersionId', 'unknown_product_version', 'unknown product version');
  if (tariff.status !== 'active') {
    throw refused(
      'policy.productVersionId',
      'inactive_product_version',
      `product version ${tariff.id} is ${tariff.status}; applications need the active version`,
    );
  }
  const holder = input.holder ?? null;
  if (!accountCode && !holder?.lastName && !holder?.companyName) {
    throw refused(
      'policy.holder',
      'holder_name_required',
      'a lead without accountCode needs a holder with a name',
    );
  }
  // The policies' own check (common/policy-object-data.ts): the same codes and paths as a sale.
  const checked = validatePolicyObjects(tariff.objects, input.policyObjects, todayMs);
  if (!checked.ok) {
    throw new HttpError(
      400,
      'validation_error',
      `policy.policyObjects: ${describeIssues(checked.issues)}`,
      undefined,
      checked.issues,
    );
  }
  // Stored in the product's order ('default' first), each with the object's name and label; a
  // field not given (absent, null or blank, all null by now) is not stored.
  const policy: StoredPolicy = {
    productVersionId: tariff.id,
    accountCode,
    holder: holder as Record<string, string> | null,
    policyObjects: checked.objects.map(({ object, data }) => ({
      insuredObjectId: object.id,
      insuredObjectName: object.name,
      insuredObjectLabel: object.label,
      data: Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null)),
    })),
    premiumOverride,
  };
  return {
    productId: tariff.product_id,
    productVersionId: tariff.id,
    policy,
    premium: premiumWith(tariff, policy),
  };
}

/** The lead's and the policy's premium override are one value; two different ones are refused. */
function overrideOf(body: Editable, current: PremiumOverrideItem[] | null) {
  const own = body.premiumOverride;
  const inPolicy = body.policy?.premiumOverride;
  if (
    own !== undefined &&
    inPolicy !== undefined &&
    JSON.stringify(own) !== JSON.stringify(inPolicy)
  ) {
    throw refused('premiumOverride', 'differs_from_policy', 'differs from policy.premiumOverride');
  }
  return own !== undefined ? own : inPolicy !== undefined ? inPolicy : current;
}

/** The lead's and the policy's account are one value too. */
function accountCodeOf(body: Editable, current: string | null) {
  const own = body.accountCode;
  const inPolicy = body.policy?.accountCode;
  if (own !== undefined && inPolicy !== undefined && own !== inPolicy) {
    throw refused('accountCode', 'differs_from_policy', 'differs from policy.accountCode');
  }
  return own !== undefined ? own : inPolicy !== undefined ? inPolicy : current;
}

async function writeVersion(
  db: Queryable,
  tenantId: number,
  tenantSlug: string,
  leadId: number,
  changed: readonly string[],
  by: string,
) {
  const row = await findLead(db, tenantId, String(leadId));
  await db.query(
    `INSERT INTO lead_versions (tenant_id, lead_id, version, status, changed_fields, snapshot,
                                created_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      tenantId,
      row.id,
      row.version,
      row.status,
      changed,
      JSON.stringify(leadCore(tenantSlug, row)),
      row.updated_at,
      by,
    ],
  );
  return row;
}

/**
 * JSON with the keys of every object sorted: the database hands jsonb back in its own key order,
 * so comparing what was saved with what was sent must not depend on it.
 */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

// ---- conversion -----------------------------------------------------------------------------

/**
 * Moves a lead to `converted` for the policy created from it (POST /policies with `leadCode`),
 * in the caller's transaction, so that the policy and the move are saved together or not at all:
 * the lead row locked, then a new lead version like any status change. Refusals carry the
 * current `lead`: 404 "Lead does not exist" (unknown, malformed or another tenant's code), 409
 * `lead_converted` for a lead that became a policy already, 409 `illegal_transition` when the
 * tenant's rules do not lead from the lead's status to `converted` (a lead not yet approved).
 */
export async function convertLead(
  tx: Queryable,
  auth: AuthContext,
  leadCode: string,
  clock: Clock,
): Promise<void> {
  // The policy keeps the lead's code: a numeric id names no lead here.
  if (!/^lea_[A-Za-z0-9]{1,64}$/.test(leadCode)) throw leadDoesNotExist();
  const lead = await findLead(tx, auth.tenantId, leadCode, true);
  const conflict = (code: string, message: string) =>
    new HttpError(409, code, message, { lead: presentLead(auth.tenantSlug, lead) });
  if (lead.status === LEAD_CONVERTED_STATUS) {
    // Only the refusal looks for the policy, to name it.
    const [policy] = await tx.query<{ policy_number: string }>(
      `SELECT policy_number FROM policies WHERE tenant_id = $1 AND lead_code = $2
        ORDER BY id LIMIT 1`,
      [auth.tenantId, lead.code],
    );
    throw conflict(
      'lead_converted',
      `lead ${lead.lead_number} has been converted already` +
        (policy ? ` into policy ${policy.policy_number}` : ''),
    );
  }
  const rules = await leadRules(tx, auth.tenantId);
  if (!allows(rules, lead.status, LEAD_CONVERTED_STATUS)) {
    throw conflict(
      'illegal_transition',
      `a lead in status "${lead.status}" cannot move to "${LEAD_CONVERTED_STATUS}"`,
    );
  }
  await tx.query(
    `UPDATE leads SET status = $3, version = version + 1, updated_at = now(), updated_by = $4
      WHERE tenant_id = $1 AND id = $2`,
    [auth.tenantId, lead.id, LEAD_CONVERTED_STATUS, auth.userCode],
  );
  await writeVersion(tx, auth.tenantId, auth.tenantSlug, lead.id, ['status'], auth.userCode);
  await recordChange(
    tx,
    { auth, clock },
    {
      entityType: 'lead',
      entityId: lead.code,
      action: 'converted',
      changes: [{ field: 'status', before: lead.status, after: LEAD_CONVERTED_STATUS }],
    },
  );
}

// ---- list -----------------------------------------------------------------------------------

/** A bound of the createdAt range: an ISO date (its whole day) or an ISO timestamp. */
function createdBound(text: string | undefined, name: string, end: boolean): string | null {
  if (text === undefined || text === '') return null;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const time = new Date(day ? `${text}T00:00:00Z` : text);
  if ((!day && !/^\d{4}-\d{2}-\d{2}T/.test(text)) || Number.isNaN(time.getTime())) {
    throw new HttpError(400, 'invalid_query', `${name} must be an ISO date or timestamp`);
  }
  // A day as the end of the range includes that whole day.
  return new Date(time.getTime() + (day && end ? 86_399_999 : 0)).toISOString();
}

/** The createdAt range's bounds: from the start of a day, to the end of one. */
const createdBoundFilter = (name: string, end: boolean): Filter => ({
  where: (p) => `l.created_at ${end ? '<=' : '>='} ${p}::timestamptz`,
  value: (text) => createdBound(text, name, end) ?? undefined,
});

const LEAD_LIST: ListSource = {
  filters: {
    status: anyOf('l.status', LEAD_STATUS_SLUG, 'status must be a lead status or a comma list'),
    accountCode: equals('l.account_code'),
    productSlug: equals('pr.slug'),
    productVersionId: numeric('l.product_version_id', 'productVersionId must be a number'),
    createdAtFrom: createdBoundFilter('createdAtFrom', false),
    createdAtTo: createdBoundFilter('createdAtTo', true),
  },
  search: [
    'l.lead_number',
    'l.code',
    'pr.name',
    'a.account_number',
    "(a.first_name || ' ' || a.last_name)",
    'a.company_name',
    "l.policy->'holder'->>'lastName'",
  ],
  orders: {
    id: 'l.id',
    createdAt: 'l.created_at',
    updatedAt: 'l.updated_at',
    leadNumber: 'l.lead_number',
    status: 'l.status',
    // The applicant as the list shows it: the customer, else the holder the prospect gave.
    applicant: partySortSql([accountParty('a'), jsonParty("l.policy->'holder'")]),
    productName: 'lower(pr.name)',
    // The premium saved with the lead; one without a total sorts before every real one.
    premium: "coalesce((l.premium->>'grandTotal')::numeric, -1)",
  },
  keyset: {
    id: 'int',
    createdAt: 'timestamptz',
    updatedAt: 'timestamptz',
    leadNumber: 'text',
    status: 'text',
    applicant: 'text',
    productName: 'text',
    premium: 'numeric',
  },
  // Newest first unless asked otherwise, as the policy list.
  defaultOrder: ['id', 'DESC'],
  unique: 'l.id',
  expands: EXPANDS,
};

// ---- router ---------------------------------------------------------------------------------

export function leadRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  /** A saved lead as its single view shows it: with its versions. */
  const withVersions = async (tenantId: number, tenantSlug: string, row: LeadRow) =>
    presentLead(tenantSlug, row, (await versionsOf(db, tenantId, [row.id])).get(row.id) ?? []);

  router.get('/lead-statuses', can('view'), leadWorkflow.listRoute(db));
  // Translating the workspace's statuses is configuring the workspace.
  router.put(
    '/lead-statuses/:slug/labels',
    requirePermission('tenant-management.settings.update'),
    leadWorkflow.labelsRoute(db, ctx.clock),
  );

  router.get('/status-transitions/rules', VIEW_RULES, async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, { filters: ['entityType'], orders: [], expands: [] });
    const entityType = list.filter.get('entityType') ?? null;
    const rows = await db.query<{
      id: number;
      entity_type: string;
      from_status: string;
      to_status: string;
    }>(
      `SELECT id, entity_type, from_status, to_status FROM status_transition_rules
        WHERE tenant_id = $1 AND ($2::text IS NULL OR entity_type = $2) ORDER BY id`,
      [tenantId, entityType],
    );
    res.json({
      items: rows.map((r) => ({
        id: r.id,
        entityType: r.entity_type,
        fromStatus: r.from_status,
        toStatus: r.to_status,
      })),
      nextPageToken: null,
    });
  });

  router.get(
    '/leads',
    can('view'),
    listRoute<LeadRow>(db, LEAD_LIST, SELECT_LEAD, 'l.tenant_id', async (rows, list, auth) => {
      const versions = list.expand.has('versions')
        ? await versionsOf(
            db,
            auth.tenantId,
            rows.map((r) => r.id),
          )
        : null;
      return rows.map((r) =>
        presentLead(auth.tenantSlug, r, versions ? (versions.get(r.id) ?? []) : undefined),
      );
    }),
  );

  router.get('/leads/:id', can('view'), async (req, res) => {
    const { tenantId, tenantSlug } = getAuth(res);
    const list = parseListQuery(
      { expand: req.query.expand },
      { filters: [], orders: [], expands: EXPANDS },
    );
    // The spec: a single lead expands its versions unless asked otherwise.
    const expand = req.query.expand === undefined ? new Set(['versions']) : list.expand;
    const row = await findLead(db, tenantId, String(req.params.id));
    res.json({
      lead: expand.has('versions')
        ? await withVersions(tenantId, tenantSlug, row)
        : presentLead(tenantSlug, row),
    });
  });

  router.get('/leads/:id/versions/:version', can('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const lead = await findLead(db, tenantId, String(req.params.id));
    const number = String(req.params.version);
    if (!/^\d{1,9}$/.test(number))
      throw new HttpError(404, 'not_found', 'Lead version does not exist');
    const [row] = await db.query<VersionRow>(
      `SELECT version, status, changed_fields, snapshot, created_at, created_by
         FROM lead_versions WHERE tenant_id = $1 AND lead_id = $2 AND version = $3`,
      [tenantId, lead.id, Number(number)],
    );
    if (!row) throw new HttpError(404, 'not_found', 'Lead version does not exist');
    res.json({
      leadVersion: { ...presentVersionSummary(row), leadCode: lead.code, lead: row.snapshot },
    });
  });

  router.get('/leads/:id/history', can('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const lead = await findLead(db, tenantId, String(req.params.id));
    res.json(await historyPage(db, req, tenantId, 'lead', lead.code));
  });

  router.post('/leads', can('create'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, tenantSlug, userCode } = auth;
    const body = parseBody(LeadCreateBody, req.body);
    if (!body.policy) throw refused('policy', 'required');
    const policyBody = body.policy;
    const lead = await db.transaction(async (tx) => {
      const statuses = await statusesOf(tx, tenantId);
      const rules = await leadRules(tx, tenantId);
      // A new lead starts in the tenant's first status; an import may name another open one.
      const status = body.status ?? statuses[0]?.slug;
      if (!status || !statuses.some((s) => s.slug === status)) {
        throw refused(
          'status',
          'unknown_status',
          `unknown lead status ${body.status ?? ''}`.trim(),
        );
      }
      if (!rules.get(status)?.length) {
        throw refused(
          'status',
          'final_status',
          `a lead cannot start in the final status ${status}`,
        );
      }
      const accountCode = accountCodeOf(body, null) ?? null;
      await assertAccount(tx, tenantId, accountCode);
      const override = overrideOf(body, null) ?? null;
      const resolved = await resolvePolicy(
        tx,
        tenantId,
        policyBody,
        accountCode,
        override,
        ctx.clock.now(),
      );
      // The lead number follows the id, so two concurrent creations cannot draw the same one.
      const [row] = await tx.query<{ id: number }>(
        `WITH n AS (SELECT nextval('leads_id_seq')::int AS id)
         INSERT INTO leads (id, tenant_id, code, lead_number, status, account_code, product_id,
                            product_version_id, policy, bank_account, payment_method, custom_data,
                            premium_override, premium, created_by, updated_by)
         SELECT n.id, $1, $2, 'LEA-' || (100000 + n.id), $3, $4, $5, $6, $7, $8, $9, $10, $11,
                $12, $13, $13 FROM n
         RETURNING id`,
        [
          tenantId,
          newCode('lea'),
          status,
          accountCode,
          resolved.productId,
          resolved.productVersionId,
          JSON.stringify(resolved.policy),
          body.bankAccount ? JSON.stringify(body.bankAccount) : null,
          body.paymentMethod ? JSON.stringify(body.paymentMethod) : null,
          body.customData ? JSON.stringify(body.customData) : null,
          override ? JSON.stringify(override) : null,
          JSON.stringify(resolved.premium),
          userCode,
        ],
      );
      const created = await writeVersion(tx, tenantId, tenantSlug, row!.id, ['created'], userCode);
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        { entityType: 'lead', entityId: created.code, action: 'created' },
      );
      return created;
    });
    res.status(201).json({ lead: await withVersions(tenantId, tenantSlug, lead) });
  });

  router.patch('/leads/:id', can('update'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, tenantSlug, userCode } = auth;
    const body = parseBody(LeadUpdateBody, req.body);
    const given = CHANGEABLE.filter((key) => body[key] !== undefined);
    if (!given.length) {
      throw new HttpError(
        400,
        'validation_error',
        `nothing to change: send one of ${CHANGEABLE.join(', ')}`,
      );
    }
    const result = await db.transaction(async (tx) => {
      const current = await findLead(tx, tenantId, String(req.params.id), true);
      const rules = await leadRules(tx, tenantId);
      const conflict = (code: string, message: string) =>
        new HttpError(409, code, message, { lead: presentLead(tenantSlug, current) });

      const status = body.status ?? current.status;
      // Checked before the version: a move that the current status forbids is refused as such,
      // which tells the user more than "somebody saved in between".
      await leadWorkflow.checkMove(tx, tenantId, current.status, status, {
        unknown: (to) => refused('status', 'unknown_status', `unknown lead status ${to}`),
        illegal: (from, to) =>
          conflict('illegal_transition', `a lead in status "${from}" cannot move to "${to}"`),
      });
      if (body.version !== current.version) {
        throw conflict(
          'version_conflict',
          `lead was changed meanwhile (version ${current.version}, yours ${body.version})`,
        );
      }
      const dataKeys = given.filter((key) => key !== 'status');
      if (dataKeys.length && !rules.get(current.status)?.length) {
        throw conflict(
          'lead_closed',
          `a lead in the final status "${current.status}" cannot be changed`,
        );
      }

      const accountCode = accountCodeOf(body, current.account_code);
      if (accountCode !== current.account_code) await assertAccount(tx, tenantId, accountCode);
      const override = overrideOf(body, current.premium_override);
      // The policy is checked again whenever something it depends on changes.
      const resolved =
        body.policy || accountCode !== current.account_code || override !== current.premium_override
          ? await resolvePolicy(
              tx,
              tenantId,
              body.policy ?? current.policy,
              accountCode,
              override,
              ctx.clock.now(),
            )
          : null;
      const next = {
        status,
        accountCode,
        policy: resolved?.policy ?? current.policy,
        bankAccount: body.bankAccount !== undefined ? body.bankAccount : current.bank_account,
        paymentMethod:
          body.paymentMethod !== undefined ? body.paymentMethod : current.payment_method,
        customData: body.customData !== undefined ? body.customData : current.custom_data,
        premiumOverride: override,
      };
      const before = {
        status: current.status,
        accountCode: current.account_code,
        policy: current.policy,
        bankAccount: current.bank_account,
        paymentMethod: current.payment_method,
        customData: current.custom_data,
        premiumOverride: current.premium_override,
      };
      const changed = CHANGEABLE.filter((key) => canonical(next[key]) !== canonical(before[key]));
      // Sending what is saved already is no change: no new version.
      if (!changed.length) return current;
      await tx.query(
        `UPDATE leads SET status = $3, account_code = $4, product_id = $5, product_version_id = $6,
                policy = $7, bank_account = $8, payment_method = $9, custom_data = $10,
                premium_override = $11, premium = $12, version = version + 1,
                updated_at = now(), updated_by = $13
          WHERE tenant_id = $1 AND id = $2`,
        [
          tenantId,
          current.id,
          next.status,
          next.accountCode,
          resolved?.productId ?? current.product_id,
          resolved?.productVersionId ?? current.product_version_id,
          JSON.stringify(next.policy),
          next.bankAccount ? JSON.stringify(next.bankAccount) : null,
          next.paymentMethod ? JSON.stringify(next.paymentMethod) : null,
          next.customData ? JSON.stringify(next.customData) : null,
          next.premiumOverride ? JSON.stringify(next.premiumOverride) : null,
          JSON.stringify(resolved?.premium ?? current.premium),
          userCode,
        ],
      );
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        {
          entityType: 'lead',
          entityId: current.code,
          action: status !== current.status ? 'status_changed' : 'updated',
          before,
          after: next,
        },
      );
      const saved = await writeVersion(tx, tenantId, tenantSlug, current.id, changed, userCode);
      return { saved, moved: status !== current.status ? { from: current.status } : null };
    });
    const lead = 'saved' in result ? result.saved : result;
    // Committed: the workflows defined for a lead's status change may start now.
    if ('moved' in result && result.moved)
      ctx.events.emit({
        type: 'lead.status_changed',
        tenantId,
        entityCode: lead.code,
        by: userCode,
        data: { fromStatus: result.moved.from, status: lead.status, leadNumber: lead.lead_number },
      });
    res.json({ lead: await withVersions(tenantId, tenantSlug, lead) });
  });

  return router;
}
