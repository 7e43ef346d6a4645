import { Router } from 'express';
import type * as v from 'valibot';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError, invalidField } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  type AuthContext,
  requirePermission,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { labelsRoute } from '#server/sandbox/platform/name-labels.ts';
import type { NameLabels } from '#common/name-labels.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import {
  auditIso,
  iso,
  recordKey,
  updatedByNameSql,
  userNameSql,
  type Audit,
} from '#server/sandbox/platform/records.ts';
import {
  historyPage,
  recordChange,
  type AuditEvent,
} from '#server/sandbox/platform/audit-trail.ts';
import { checkCover, coverIssues, recordCoverOverride } from './claim-cover.ts';
import { claimCreatedVariables } from './claim-event.ts';
import {
  anyOf,
  equals,
  invalidQuery,
  listRoute,
  mountReads,
  numeric,
  type ListSource,
} from '#server/sandbox/platform/list-sql.ts';
import { accountParty, jsonParty, partySortSql } from '#server/sandbox/platform/list-keyset.ts';
import {
  checkCustomFields,
  customSchemasOf,
  newCode,
} from '#server/sandbox/platform/admin-shared.ts';
import {
  PARTNER_COLUMNS,
  presentPartners,
  type PartnerRow,
} from '#server/sandbox/services/partner/index.ts';
import {
  ClaimCancelBody,
  ClaimCreateBody,
  ClaimPartnerLinkBody,
  ClaimPatchBody,
  ClaimUpdateBody,
} from '#common/contracts/claim.ts';
import { CLAIM_DOCUMENT_ENTITY_TYPE } from '#common/claim-documents.ts';
import { claimWorkflow } from './claim-workflow.ts';
import type { ClaimChanges } from '#common/claims.ts';
import {
  CLAIM_ENTITY_TYPE,
  CLAIM_STATUS_SLUG,
  CLAIM_TYPES,
  CLOSED_CLAIM_STATUS,
  canEditClaim,
  claimDateIssues,
  isoToday,
} from '#common/claims.ts';

/**
 * Claims of the claim service (docs/contracts.md, "Claims (sandbox)"): the tenant's claim statuses
 * and partner roles, the claim list and a single claim, creating a claim on a policy (whose
 * number, holder and product it takes), full and partial edits that carry the version they were
 * based on, status moves checked against the tenant's transition rules, deleting a claim with all
 * that hangs on it, and the partners linked to a claim. Settlements are in settlement-routes.ts.
 */

export const canClaims = (action: string) =>
  requireServicePermission('claim-management', 'claims', action);

/** Who may translate the workspace's names: whoever may change its settings. */
export const EDIT_LABELS = requirePermission('tenant-management.settings.update');

export const claimDoesNotExist = () => new HttpError(404, 'not_found', 'Claim does not exist');

export const refused = invalidField;

// ---- rows and presentation ------------------------------------------------------------------

export interface ClaimRow extends Audit {
  id: number;
  updated_by_name?: string | null;
  code: string;
  claim_number: string;
  title: string;
  description: string;
  policy_code: string;
  policy_number: string;
  account_code: string | null;
  product_id: number;
  status: string;
  damage_date: string;
  notification_date: string;
  claim_type: string;
  custom_fields: Record<string, unknown>;
  version: number;
  policy_holder: Record<string, unknown> | null;
  acc_type: string | null;
  acc_first_name: string | null;
  acc_last_name: string | null;
  acc_company_name: string | null;
  total_reserve: string | number;
  total_payment: string | number;
  total_recourse: string | number;
  settlement_count: string | number;
  currency: string;
  cancel_reason: string | null;
  cancelled_by: string | null;
  cancelled_at: Date | null;
  override_codes: string[] | null;
  override_reason: string | null;
  overridden_by: string | null;
  overridden_at: Date | null;
  overridden_by_name: string | null;
  cancelled_by_name: string | null;
}

// Dates as text: a DATE turned into a JavaScript Date would shift with the time zone. The totals
// are summed per claim from its settlements; the currency is the workspace's.
const SELECT_CLAIM = `
  SELECT c.id, c.code, c.claim_number, c.title, c.description, c.policy_code, c.policy_number,
         c.account_code, c.product_id, c.status,
         to_char(c.damage_date, 'YYYY-MM-DD') AS damage_date,
         to_char(c.notification_date, 'YYYY-MM-DD') AS notification_date,
         c.claim_type, c.custom_fields, c.version, c.created_at, c.updated_at, c.created_by,
         c.updated_by, ${updatedByNameSql('c')}, p.holder AS policy_holder, a.type AS acc_type,
         a.first_name AS acc_first_name, a.last_name AS acc_last_name,
         a.company_name AS acc_company_name,
         coalesce(t.reserve, 0) AS total_reserve, coalesce(t.payment, 0) AS total_payment,
         coalesce(t.recourse, 0) AS total_recourse, coalesce(t.count, 0) AS settlement_count,
         coalesce(g.currency, 'EUR') AS currency, c.cancel_reason, c.cancelled_by,
         c.cancelled_at, o.codes AS override_codes, o.reason AS override_reason,
         o.overridden_by, o.overridden_at, ${userNameSql('o.overridden_by', 'overridden_by_name')},
         ${userNameSql('c.cancelled_by', 'cancelled_by_name')}
    FROM claims c
    LEFT JOIN policies p ON p.tenant_id = c.tenant_id AND p.code = c.policy_code
    LEFT JOIN accounts a ON a.tenant_id = c.tenant_id AND a.code = c.account_code
    LEFT JOIN general_settings g ON g.tenant_id = c.tenant_id
    LEFT JOIN LATERAL (
      SELECT sum(s.reserve)::bigint AS reserve,
             -- Paid is the booked payments plus their reversals (negative counter-entries).
             (sum(s.payment) + coalesce((SELECT sum(z.amount) FROM settlement_payment_reversals z
                WHERE z.tenant_id = c.tenant_id AND z.settlement_id IN (SELECT y.id
                  FROM settlements y WHERE y.tenant_id = c.tenant_id AND y.claim_id = c.id)), 0)
             )::bigint AS payment,
             sum(s.recourse)::bigint AS recourse, count(*) AS count
        FROM settlements s WHERE s.tenant_id = c.tenant_id AND s.claim_id = c.id
    ) t ON true
    LEFT JOIN LATERAL (
      SELECT x.codes, x.reason, x.overridden_by, x.overridden_at
        FROM claim_cover_overrides x WHERE x.tenant_id = c.tenant_id AND x.claim_id = c.id
       ORDER BY x.id DESC LIMIT 1
    ) o ON true`;

/** The policy's holder as the policy shows it: given by value, or its customer account. */
function holderOf(r: ClaimRow) {
  if (r.policy_holder) return r.policy_holder;
  if (!r.account_code || !r.acc_type) return null;
  return {
    accountCode: r.account_code,
    type: r.acc_type,
    firstName: r.acc_first_name,
    lastName: r.acc_last_name,
    companyName: r.acc_company_name,
  };
}

export function presentClaim(r: ClaimRow) {
  return {
    id: r.id,
    code: r.code,
    claimNumber: r.claim_number,
    title: r.title,
    description: r.description,
    policyCode: r.policy_code,
    policyNumber: r.policy_number,
    accountCode: r.account_code,
    productId: r.product_id,
    status: r.status,
    damageDate: r.damage_date,
    notificationDate: r.notification_date,
    claimType: r.claim_type,
    customFields: r.custom_fields,
    holder: holderOf(r),
    totals: {
      reserve: Number(r.total_reserve),
      payment: Number(r.total_payment),
      recourse: Number(r.total_recourse),
      currency: r.currency,
    },
    // The latest override of a cover refusal (each is kept in claim_cover_overrides).
    coverOverride:
      r.override_reason !== null && r.overridden_by !== null && r.overridden_at !== null
        ? {
            codes: r.override_codes ?? [],
            reason: r.override_reason,
            by: r.overridden_by,
            byName: r.overridden_by_name,
            at: iso(r.overridden_at),
          }
        : null,
    cancellation:
      r.cancel_reason !== null && r.cancelled_by !== null && r.cancelled_at !== null
        ? {
            reason: r.cancel_reason,
            by: r.cancelled_by,
            byName: r.cancelled_by_name,
            at: iso(r.cancelled_at),
          }
        : null,
    version: r.version,
    ...auditIso(r),
    // Who saved this version, by name: a conflict says who saved meanwhile (as leads do).
    updatedByName: r.updated_by_name ?? null,
  };
}

/** A change of a claim for its history (the audit trail): `before` null for a new claim. */
export const claimEvent = (
  action: string,
  before: ClaimRow | null,
  after: ClaimRow,
): AuditEvent => ({
  entityType: 'claim',
  entityId: after.code,
  action,
  before: before && presentClaim(before),
  after: presentClaim(after),
});

/**
 * `{code}` is the numeric id or the code (`clm_...`); anything else, or another tenant's claim,
 * is "Claim does not exist". `lock` takes the row for the rest of the transaction.
 */
export async function findClaim(
  db: Queryable,
  tenantId: number,
  key: string,
  lock = false,
): Promise<ClaimRow> {
  const { byId, value } = recordKey(key, 'clm', claimDoesNotExist);
  if (lock) {
    // FOR UPDATE cannot sit beside the aggregate of the totals: lock first, then read.
    const [locked] = await db.query(
      `SELECT id FROM claims WHERE tenant_id = $1 AND ${byId ? 'id' : 'code'} = $2 FOR UPDATE`,
      [tenantId, value],
    );
    if (!locked) throw claimDoesNotExist();
  }
  const [row] = await db.query<ClaimRow>(
    `${SELECT_CLAIM} WHERE c.tenant_id = $1 AND ${byId ? 'c.id = $2' : 'c.code = $2'}`,
    [tenantId, value],
  );
  if (!row) throw claimDoesNotExist();
  return row;
}

/** 409 `claim_closed` for a write on a claim in the closed status, with the claim as it is. */
export function assertClaimEditable(row: ClaimRow): void {
  if (!canEditClaim(row.status)) {
    throw new HttpError(
      409,
      'claim_closed',
      `a claim in status "${row.status}" cannot be changed`,
      { claim: presentClaim(row) },
    );
  }
}

// ---- statuses, rules, roles -----------------------------------------------------------------

const statusesOf = (db: Queryable, tenantId: number) => claimWorkflow.statuses(db, tenantId);

interface RoleRow {
  id: number;
  code: string;
  slug: string;
  name: string;
  labels: NameLabels | null;
}

const presentRole = (r: RoleRow) => ({
  id: r.id,
  code: r.code,
  slug: r.slug,
  name: r.name,
  labels: r.labels ?? {},
});

// ---- the policy of a claim and the workspace's day ------------------------------------------

interface PolicyFacts {
  code: string;
  policy_number: string;
  account_code: string | null;
  product_id: number;
  /** The policy's first day in the workspace's time zone (its creation when it has no start). */
  start_day: string;
}

async function policyOf(db: Queryable, tenantId: number, code: string, timeZone: string) {
  const [row] = await db.query<PolicyFacts>(
    `SELECT code, policy_number, account_code, product_id,
            to_char(coalesce(policy_start_date, created_at) AT TIME ZONE $3, 'YYYY-MM-DD')
              AS start_day
       FROM policies WHERE tenant_id = $1 AND code = $2`,
    [tenantId, code, timeZone],
  );
  return row ?? null;
}

/** The workspace's time zone: "today" and a policy's first day are its days. */
export async function timeZoneOf(db: Queryable, tenantId: number): Promise<string> {
  const [row] = await db.query<{ time_zone: string }>(
    'SELECT time_zone FROM general_settings WHERE tenant_id = $1',
    [tenantId],
  );
  return row?.time_zone ?? 'UTC';
}

function assertDates(
  dates: { damageDate: string; notificationDate: string },
  context: { today: string; policyStart: string | null },
): void {
  const [issue] = claimDateIssues(dates, context);
  if (issue) throw refused(issue.field, issue.code);
}

async function customFieldsFor(db: Queryable, tenantId: number, values: Record<string, unknown>) {
  const [schema] = await customSchemasOf(db, tenantId, CLAIM_ENTITY_TYPE);
  return checkCustomFields(schema ?? null, values);
}

const EDITABLE = [
  'title',
  'description',
  'damageDate',
  'notificationDate',
  'claimType',
  'customFields',
] as const;

// ---- list -----------------------------------------------------------------------------------

/** Spec: lists default to 30; the claim list may ask for up to 100. */
const MAX_CLAIMS_PAGE_SIZE = 100;

const CLAIM_LIST: ListSource = {
  filters: {
    status: anyOf(
      'c.status',
      CLAIM_STATUS_SLUG,
      'status must be a claim status or a comma list of them',
    ),
    policyCode: equals('c.policy_code'),
    accountCode: equals('c.account_code'),
    claimType: {
      where: (p) => `c.claim_type = ${p}`,
      value: (text) => {
        if (!(CLAIM_TYPES as readonly string[]).includes(text)) {
          throw invalidQuery(`claimType must be one of ${CLAIM_TYPES.join(', ')}`);
        }
        return text;
      },
    },
    productId: numeric('c.product_id', 'productId must be a number'),
  },
  search: ['c.title', 'c.claim_number', 'c.code', 'c.policy_number'],
  orders: {
    createdAt: 'c.created_at',
    claimNumber: 'c.claim_number',
    damageDate: 'c.damage_date',
    status: 'c.status',
    title: 'lower(c.title)',
    policyNumber: 'c.policy_number',
    // The policy's holder as the list shows it: given by value on the policy, else its customer.
    holder: partySortSql([jsonParty('p.holder'), accountParty('a')], 'c.account_code'),
  },
  keyset: {
    createdAt: 'timestamptz',
    claimNumber: 'text',
    damageDate: 'date',
    status: 'text',
    title: 'text',
    policyNumber: 'text',
    holder: 'text',
  },
  // Newest first unless asked otherwise.
  defaultOrder: ['createdAt', 'DESC'],
  unique: 'c.id',
  maxPageSize: MAX_CLAIMS_PAGE_SIZE,
};

// ---- claim partners -------------------------------------------------------------------------

interface ClaimPartnerRow extends Audit {
  id: number;
  claim_code: string;
  partner_id: number;
  partner_code: string;
  claim_partner_role_id: number;
}

const SELECT_CLAIM_PARTNER = `
  SELECT cp.id, c.code AS claim_code, cp.partner_id, p.code AS partner_code,
         cp.claim_partner_role_id, cp.created_at, cp.updated_at, cp.created_by, cp.updated_by
    FROM claim_partners cp
    JOIN claims c ON c.id = cp.claim_id AND c.tenant_id = cp.tenant_id
    JOIN partners p ON p.id = cp.partner_id AND p.tenant_id = cp.tenant_id`;

const CLAIM_PARTNER_LIST: ListSource = {
  filters: {
    claimCode: equals('c.code'),
    partnerCode: equals('p.code'),
    claimPartnerRoleId: numeric('cp.claim_partner_role_id', 'claimPartnerRoleId must be a number'),
  },
  orders: { id: 'cp.id', createdAt: 'cp.created_at' },
  defaultOrder: ['id', 'ASC'],
  unique: 'cp.id',
  expands: ['partner', 'role'],
  maxPageSize: MAX_CLAIMS_PAGE_SIZE,
};

/** The partners and roles of a page of links in two queries, not two per link. */
async function presentClaimPartners(
  db: Queryable,
  tenantId: number,
  rows: ClaimPartnerRow[],
  expand: Set<string>,
) {
  const partners = new Map<number, Awaited<ReturnType<typeof presentPartners>>[number]>();
  if (expand.has('partner') && rows.length) {
    const partnerRows = await db.query<PartnerRow>(
      `SELECT ${PARTNER_COLUMNS} FROM partners p WHERE p.tenant_id = $1 AND p.id = ANY($2::int[])`,
      [tenantId, [...new Set(rows.map((r) => r.partner_id))]],
    );
    // With their tags: a workshop or an assessor is told by its tag.
    for (const p of await presentPartners(db, tenantId, partnerRows, new Set(['tags']))) {
      partners.set(p.id, p);
    }
  }
  const roles = new Map<number, RoleRow>();
  if (expand.has('role') && rows.length) {
    for (const r of await db.query<RoleRow>(
      'SELECT id, code, slug, name, labels FROM claim_partner_roles WHERE tenant_id = $1',
      [tenantId],
    )) {
      roles.set(r.id, r);
    }
  }
  return rows.map((r) => {
    const role = roles.get(r.claim_partner_role_id);
    return {
      id: r.id,
      claimCode: r.claim_code,
      partnerCode: r.partner_code,
      claimPartnerRoleId: r.claim_partner_role_id,
      ...(expand.has('partner') ? { partner: partners.get(r.partner_id) ?? null } : {}),
      ...(expand.has('role') ? { role: role ? presentRole(role) : null } : {}),
      ...auditIso(r),
    };
  });
}

// ---- router ---------------------------------------------------------------------------------

export function claimRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/claim-statuses', canClaims('view'), claimWorkflow.listRoute(db));

  router.get('/claim-partner-roles', canClaims('view'), async (_req, res) => {
    const { tenantId } = getAuth(res);
    const rows = await db.query<RoleRow>(
      'SELECT id, code, slug, name, labels FROM claim_partner_roles WHERE tenant_id = $1 ORDER BY "order", id',
      [tenantId],
    );
    res.json({ items: rows.map(presentRole), nextPageToken: null });
  });

  // Translating the workspace's statuses and roles is configuring the workspace.
  router.put('/claim-statuses/:slug/labels', EDIT_LABELS, claimWorkflow.labelsRoute(db, ctx.clock));
  router.put(
    '/claim-partner-roles/:slug/labels',
    EDIT_LABELS,
    labelsRoute<RoleRow>(db, ctx.clock, 'claim_partner_roles', presentRole),
  );

  mountReads<ClaimRow>(router, db, '/claims', canClaims('view'), {
    source: CLAIM_LIST,
    select: SELECT_CLAIM,
    tenantColumn: 'c.tenant_id',
    key: 'claim',
    find: findClaim,
    present: presentClaim,
  });

  router.get('/claims/:code/history', canClaims('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const claim = await findClaim(db, tenantId, String(req.params.code));
    res.json(await historyPage(db, req, tenantId, 'claim', claim.code));
  });

  router.post('/claims', canClaims('create'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const body = parseBody(ClaimCreateBody, req.body);
    const created = await db.transaction(async (tx) => {
      const timeZone = await timeZoneOf(tx, tenantId);
      const policy = await policyOf(tx, tenantId, body.policyCode, timeZone);
      if (!policy) throw refused('policyCode', 'unknown_policy');
      const today = isoToday(timeZone);
      const notificationDate = body.notificationDate ?? today;
      assertDates(
        { damageDate: body.damageDate, notificationDate },
        { today, policyStart: policy.start_day },
      );
      const overridden = checkCover(
        await coverIssues(tx, tenantId, { ...body, policyCode: policy.code }, timeZone),
        body.coverOverride,
        auth,
      );
      const customFields = await customFieldsFor(tx, tenantId, body.customFields);
      const [first] = await statusesOf(tx, tenantId);
      if (!first)
        throw new HttpError(409, 'no_claim_status', 'the workspace has no claim statuses');
      const [counter] = await tx.query<{ last_number: number }>(
        `INSERT INTO claim_number_counters (tenant_id, last_number) VALUES ($1, 1)
         ON CONFLICT (tenant_id) DO UPDATE SET last_number = claim_number_counters.last_number + 1
         RETURNING last_number`,
        [tenantId],
      );
      const [row] = await tx.query<{ code: string }>(
        `INSERT INTO claims (tenant_id, code, claim_number, title, description, policy_code,
                             policy_number, account_code, product_id, status, damage_date,
                             notification_date, claim_type, custom_fields, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::date, $12::date, $13, $14, $15, $15)
         RETURNING code`,
        [
          tenantId,
          newCode('clm'),
          formatClaimNumber(counter!.last_number),
          body.title,
          body.description,
          policy.code,
          policy.policy_number,
          policy.account_code,
          policy.product_id,
          first.slug,
          body.damageDate,
          notificationDate,
          body.claimType,
          JSON.stringify(customFields),
          userCode,
        ],
      );
      const claim = await findClaim(tx, tenantId, row!.code);
      await recordChange(tx, { auth, clock: ctx.clock }, claimEvent('created', null, claim));
      if (overridden.length) {
        await recordCoverOverride(tx, tenantId, claim.id, {
          codes: overridden,
          reason: body.coverOverride!.reason,
          by: userCode,
          at: new Date(ctx.clock.now()),
        });
        // A creation lists no fields, so the override gets its own line in the history: the
        // refusals set aside and why, beside who and when.
        await recordChange(
          tx,
          { auth, clock: ctx.clock },
          {
            entityType: 'claim',
            entityId: claim.code,
            action: 'cover_overridden',
            changes: [
              { field: 'coverOverride.codes', before: null, after: overridden },
              { field: 'coverOverride.reason', before: null, after: body.coverOverride!.reason },
            ],
          },
        );
        return findClaim(tx, tenantId, row!.code);
      }
      return claim;
    });
    // Committed: the workflows defined for a new claim may start now.
    ctx.events.emit({
      type: 'claim.created',
      tenantId,
      entityCode: created.code,
      by: userCode,
      data: claimCreatedVariables(created),
    });
    res.status(201).json({ claim: presentClaim(created) });
  });

  /**
   * Saves an edit made on top of `version`: a status move first checked against the rules (a
   * forbidden move says more than "somebody saved in between"), then the version, then whether
   * the claim may change at all. Answers the saved claim.
   */
  async function saveClaim(
    auth: AuthContext,
    key: string,
    version: number,
    status: string | undefined,
    changes: v.InferOutput<typeof ClaimChanges>,
    coverOverride: { reason: string } | undefined,
    custom: 'replace' | 'merge',
  ): Promise<ClaimRow> {
    const { tenantId, userCode } = auth;
    return db.transaction(async (tx) => {
      const current = await findClaim(tx, tenantId, key, true);
      const conflict = (code: string, message: string) =>
        new HttpError(409, code, message, { claim: presentClaim(current) });
      const nextStatus = status ?? current.status;
      await claimWorkflow.checkMove(tx, tenantId, current.status, nextStatus, {
        unknown: () => refused('status', 'unknown_status'),
        illegal: (from, to) =>
          conflict('illegal_transition', `A claim cannot move from ${from} to ${to}`),
      });
      if (version !== current.version) {
        throw conflict(
          'version_conflict',
          `claim was changed meanwhile (version ${current.version}, yours ${version})`,
        );
      }
      const dataKeys = EDITABLE.filter((k) => changes[k] !== undefined);
      if (dataKeys.length) assertClaimEditable(current);

      const next = {
        title: changes.title ?? current.title,
        description: changes.description ?? current.description,
        damageDate: changes.damageDate ?? current.damage_date,
        notificationDate: changes.notificationDate ?? current.notification_date,
        claimType: changes.claimType ?? current.claim_type,
        customFields: current.custom_fields,
      };
      if (changes.damageDate !== undefined || changes.notificationDate !== undefined) {
        const timeZone = await timeZoneOf(tx, tenantId);
        const policy = await policyOf(tx, tenantId, current.policy_code, timeZone);
        assertDates(next, { today: isoToday(timeZone), policyStart: policy?.start_day ?? null });
      }
      // A new loss date or kind of loss is checked for cover again; the others keep the cover
      // the claim was registered with.
      let overridden: string[] = [];
      if (
        (changes.damageDate !== undefined && changes.damageDate !== current.damage_date) ||
        (changes.claimType !== undefined && changes.claimType !== current.claim_type)
      ) {
        const timeZone = await timeZoneOf(tx, tenantId);
        overridden = checkCover(
          await coverIssues(tx, tenantId, { ...next, policyCode: current.policy_code }, timeZone),
          coverOverride,
          auth,
        );
      }
      if (changes.customFields !== undefined) {
        // A PATCH names only the custom fields it changes (null clears one), so that two users
        // editing different custom fields do not overwrite each other; a PUT sends them all.
        const values =
          custom === 'merge'
            ? { ...current.custom_fields, ...changes.customFields }
            : changes.customFields;
        next.customFields = await customFieldsFor(tx, tenantId, values);
      }
      // Sending what is saved already is no change, so the version stays: the database compares
      // (jsonb equality does not depend on the order of the keys).
      const updated = await tx.query(
        `UPDATE claims SET status = $3, title = $4, description = $5, damage_date = $6::date,
                notification_date = $7::date, claim_type = $8, custom_fields = $9::jsonb,
                version = version + 1, updated_at = now(), updated_by = $10
          WHERE tenant_id = $1 AND id = $2
            AND (status, title, description, damage_date, notification_date, claim_type,
                 custom_fields)
                IS DISTINCT FROM ($3, $4, $5, $6::date, $7::date, $8, $9::jsonb)
          RETURNING id`,
        [
          tenantId,
          current.id,
          nextStatus,
          next.title,
          next.description,
          next.damageDate,
          next.notificationDate,
          next.claimType,
          JSON.stringify(next.customFields),
          userCode,
        ],
      );
      if (overridden.length) {
        await recordCoverOverride(tx, tenantId, current.id, {
          codes: overridden,
          reason: coverOverride!.reason,
          by: userCode,
          at: new Date(ctx.clock.now()),
        });
      }
      const saved =
        updated.length || overridden.length
          ? await findClaim(tx, tenantId, String(current.id))
          : current;
      const action = saved.status !== current.status ? 'status_changed' : 'updated';
      await recordChange(tx, { auth, clock: ctx.clock }, claimEvent(action, current, saved));
      return saved;
    });
  }

  router.put('/claims/:code', canClaims('update'), async (req, res) => {
    const body = parseBody(ClaimUpdateBody, req.body);
    const { version, coverOverride, ...fields } = body;
    // A full body: what it leaves out is cleared (description, custom fields), but the notice
    // date stays as it was when not given.
    const saved = await saveClaim(
      getAuth(res),
      String(req.params.code),
      version,
      undefined,
      fields,
      coverOverride,
      'replace',
    );
    res.json({ claim: presentClaim(saved) });
  });

  router.patch('/claims/:code', canClaims('update'), async (req, res) => {
    const body = parseBody(ClaimPatchBody, req.body);
    const { version, status, coverOverride, ...changes } = body;
    if (status === undefined && !EDITABLE.some((k) => changes[k] !== undefined)) {
      throw new HttpError(
        400,
        'validation_error',
        `nothing to change: send status or one of ${EDITABLE.join(', ')}`,
      );
    }
    const saved = await saveClaim(
      getAuth(res),
      String(req.params.code),
      version,
      status,
      changes,
      coverOverride,
      'merge',
    );
    res.json({ claim: presentClaim(saved) });
  });

  router.delete('/claims/:code', canClaims('delete'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const versionText = req.query.version;
    if (typeof versionText !== 'string' || !/^\d{1,9}$/.test(versionText)) {
      throw invalidQuery('version must be the version of the claim being deleted');
    }
    const keys = await db.transaction(async (tx) => {
      const current = await findClaim(tx, tenantId, String(req.params.code), true);
      if (Number(versionText) !== current.version) {
        throw new HttpError(
          409,
          'version_conflict',
          `claim was changed meanwhile (version ${current.version}, yours ${versionText})`,
          { claim: presentClaim(current) },
        );
      }
      // Money is never deleted (issue 15): a claim with settlements is cancelled with a reason.
      if (Number(current.settlement_count) > 0) {
        throw new HttpError(
          409,
          'claim_has_settlements',
          'a claim with settlements cannot be deleted; cancel it with a reason',
          { claim: presentClaim(current) },
        );
      }
      const documentKeys = await deleteClaimDocuments(tx, tenantId, current.id);
      // Partner links go with the claim (ON DELETE CASCADE).
      await tx.query('DELETE FROM claims WHERE tenant_id = $1 AND id = $2', [tenantId, current.id]);
      return documentKeys;
    });
    // The stored files after the commit: a failing store leaves unreachable bytes, never a
    // listed document without its file.
    for (const key of keys) {
      await ctx.store.remove(key).catch((err: unknown) => {
        ctx.logger.warn({ err, key }, 'stored object of a deleted claim not removed');
      });
    }
    res.status(204).end();
  });

  /**
   * Cancels a claim with a reason: it moves to the closed status whatever its rules say (closing
   * is what every path ends in), keeps its settlements, and records who, when and why. Payments
   * still waiting for a second person are rejected by the cancellation.
   */
  router.post('/claims/:code/cancel', canClaims('update'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const body = parseBody(ClaimCancelBody, req.body);
    const saved = await db.transaction(async (tx) => {
      const current = await findClaim(tx, tenantId, String(req.params.code), true);
      if (body.version !== current.version) {
        throw new HttpError(
          409,
          'version_conflict',
          `claim was changed meanwhile (version ${current.version}, yours ${body.version})`,
          { claim: presentClaim(current) },
        );
      }
      assertClaimEditable(current);
      const at = new Date(ctx.clock.now());
      await tx.query(
        `UPDATE settlement_payment_requests r SET status = 'rejected', decided_by = $3,
                decided_at = $4
           FROM settlements s
          WHERE s.id = r.settlement_id AND s.tenant_id = $1 AND s.claim_id = $2
            AND r.status = 'pending'`,
        [tenantId, current.id, userCode, at],
      );
      await tx.query(
        `UPDATE claims SET status = $3, cancel_reason = $4, cancelled_by = $5, cancelled_at = $6,
                version = version + 1, updated_at = $6, updated_by = $5
          WHERE tenant_id = $1 AND id = $2`,
        [tenantId, current.id, CLOSED_CLAIM_STATUS, body.reason, userCode, at],
      );
      const saved = await findClaim(tx, tenantId, String(current.id));
      await recordChange(tx, { auth, clock: ctx.clock }, claimEvent('cancelled', current, saved));
      return saved;
    });
    res.json({ claim: presentClaim(saved) });
  });

  // ---- claim partners -----------------------------------------------------------------------

  /** A claim's partner link in its history: which partner in which role (issue 15, point 12). */
  async function partnerLinkEvent(
    tx: Queryable,
    tenantId: number,
    linkId: number,
    linked: boolean,
  ): Promise<AuditEvent> {
    const [link] = await tx.query<{ claim_code: string; partner: string; role: string }>(
      `SELECT c.code AS claim_code, p.display_name AS partner, r.name AS role
         FROM claim_partners cp JOIN claims c ON c.id = cp.claim_id
         JOIN partners p ON p.id = cp.partner_id
         JOIN claim_partner_roles r ON r.id = cp.claim_partner_role_id
        WHERE cp.tenant_id = $1 AND cp.id = $2`,
      [tenantId, linkId],
    );
    const named = `${link!.partner} (${link!.role})`;
    return {
      entityType: 'claim',
      entityId: link!.claim_code,
      entityLabel: named,
      action: linked ? 'partner_linked' : 'partner_unlinked',
      changes: [{ field: 'partner', before: linked ? null : named, after: linked ? named : null }],
    };
  }

  router.post('/claims/:code/partner', canClaims('update'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const body = parseBody(ClaimPartnerLinkBody, req.body);
    const link = await db.transaction(async (tx) => {
      const claim = await findClaim(tx, tenantId, String(req.params.code), true);
      assertClaimEditable(claim);
      const [partner] = await tx.query<{ id: number }>(
        'SELECT id FROM partners WHERE tenant_id = $1 AND code = $2',
        [tenantId, body.partnerCode],
      );
      if (!partner) throw refused('partnerCode', 'unknown_partner');
      const [role] = await tx.query(
        'SELECT 1 FROM claim_partner_roles WHERE tenant_id = $1 AND id = $2',
        [tenantId, body.claimPartnerRoleId],
      );
      if (!role) throw refused('claimPartnerRoleId', 'unknown_role');
      const [inserted] = await tx.query<{ id: number }>(
        `INSERT INTO claim_partners (tenant_id, claim_id, partner_id, claim_partner_role_id,
                                     created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (claim_id, partner_id, claim_partner_role_id) DO NOTHING
         RETURNING id`,
        [tenantId, claim.id, partner.id, body.claimPartnerRoleId, userCode],
      );
      if (!inserted) {
        throw new HttpError(
          409,
          'duplicate',
          'this partner is linked to the claim in this role already',
        );
      }
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        await partnerLinkEvent(tx, tenantId, inserted.id, true),
      );
      return tx.query<ClaimPartnerRow>(`${SELECT_CLAIM_PARTNER} WHERE cp.id = $1`, [inserted.id]);
    });
    const [claimPartner] = await presentClaimPartners(
      db,
      tenantId,
      link,
      new Set(['partner', 'role']),
    );
    res.status(201).json({ claimPartner });
  });

  router.get(
    '/claim-partners',
    canClaims('view'),
    listRoute<ClaimPartnerRow>(
      db,
      CLAIM_PARTNER_LIST,
      SELECT_CLAIM_PARTNER,
      'cp.tenant_id',
      (rows, list, { tenantId }) => presentClaimPartners(db, tenantId, rows, list.expand),
    ),
  );

  router.delete('/claim-partners/:id', canClaims('update'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId } = auth;
    const idText = String(req.params.id);
    const notLinked = () => new HttpError(404, 'not_found', 'Claim partner does not exist');
    if (!/^\d{1,9}$/.test(idText)) throw notLinked();
    await db.transaction(async (tx) => {
      const [link] = await tx.query<{ claim_code: string }>(
        `SELECT c.code AS claim_code FROM claim_partners cp
           JOIN claims c ON c.id = cp.claim_id AND c.tenant_id = cp.tenant_id
          WHERE cp.tenant_id = $1 AND cp.id = $2`,
        [tenantId, Number(idText)],
      );
      if (!link) throw notLinked();
      assertClaimEditable(await findClaim(tx, tenantId, link.claim_code, true));
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        await partnerLinkEvent(tx, tenantId, Number(idText), false),
      );
      await tx.query('DELETE FROM claim_partners WHERE tenant_id = $1 AND id = $2', [
        tenantId,
        Number(idText),
      ]);
    });
    res.status(204).end();
  });

  return router;
}

/** S-000042: the tenant's n-th claim. */
export const formatClaimNumber = (n: number) => `S-${String(n).padStart(6, '0')}`;

/**
 * Removes the documents of a claim (spec: entityType ClaimDocument, entityId the claim id) and
 * answers their storage keys, so that the stored objects can go too.
 */
export async function deleteClaimDocuments(
  tx: Queryable,
  tenantId: number,
  claimId: number,
): Promise<string[]> {
  const rows = await tx.query<{ s3_key: string }>(
    `DELETE FROM documents WHERE tenant_id = $1 AND entity_type = $2 AND entity_id = $3
     RETURNING s3_key`,
    [tenantId, CLAIM_DOCUMENT_ENTITY_TYPE, String(claimId)],
  );
  return rows.map((r) => r.s3_key);
}
