import { Router, type Request, type RequestHandler } from 'express';
import type * as v from 'valibot';
import {
  TERM_FIELDS,
  basedOnDraft,
  contractEnd,
  lifecycleRefusal,
  restoreRefusal,
  terminationDateRefusal,
  type LifecycleRefusal,
  type PolicyAction,
  type RevisionStatus,
} from '#common/policy-lifecycle.ts';
import {
  DURATION_UNITS,
  RENEWAL_FREQUENCIES,
  missingFields,
  parseIsoDate,
  validatePolicyObjects,
  type DurationUnit,
  type RenewalFrequency,
  type ObjectData,
  type InsuredObjectFields,
} from '#common/policy-object-data.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError, invalidInput } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { storePremiumInForce } from './policy-premium.ts';
import type { ErrorIssue } from '#common/contracts/error.ts';
import {
  PolicyBasedOnBody,
  PolicyCalculateBody,
  PolicyCreateBody,
  PolicyDraftPatchBody,
  PolicyRestoreBody,
  PolicyTerminateBody,
  PolicyTerminationPreviewBody,
  PolicyWithdrawBody,
} from '#common/contracts/policy.ts';
import {
  applyPremiumOverride,
  loadTariffs,
  premiumOf,
  PremiumFormulaError,
  type Premium,
  type PremiumOverride,
  type Tariff,
} from './premium.ts';
import {
  formatPolicyNumber,
  insertPolicies,
  insertVersions,
  reservePolicyNumbers,
  type NewPolicyObject,
  type NewTimeslice,
  type WriteStamp,
} from './policy-store.ts';
import {
  findPolicyRow,
  loadPolicy,
  presentVersions,
  type PolicyRow,
  type VersionRow,
} from './insurance-policy-routes.ts';
import { convertLead } from './lead-routes.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { POLICY_EVENT, policyFacts } from './policy-audit.ts';
import { currencyOf, premiumUnitsOf, terminationFigures } from './policy-termination.ts';
import { asNewTimeline } from './policy-renewal.ts';

/**
 * The write side of policies (spec sections 4 and 7): the premium of an application being filled
 * in, a new policy, and the lifecycle of a policy. Decisions where the spec is silent are in
 * docs/contracts.md, "Insurance: policies (issue 4)", "Policy writes".
 */

const CREATE = requireServicePermission('policy-management', 'policies', 'create');
/** Every lifecycle action changes the policy: drafts, applying, terminating, withdrawing, restoring. */
const UPDATE = requireServicePermission('policy-management', 'policies', 'update');
const VIEW = requireServicePermission('policy-management', 'policies', 'view');
const LEAD_UPDATE = requireServicePermission('policy-management', 'leads', 'update');
/** A policy created from a lead also moves the lead to converted: that is a lead update too. */
const LEAD_CONVERSION: RequestHandler = (req, res, next) => {
  const leadCode = (req.body as { leadCode?: unknown } | undefined)?.leadCode;
  if (leadCode === undefined || leadCode === null) next();
  else LEAD_UPDATE(req, res, next);
};
/** The application form of a policy and of a lead both show the premium as it is filled in. */
const CALCULATE = requirePermission(
  'policy-management.policies.view',
  'eis.policies.view',
  'policy-management.leads.view',
  'eis.leads.view',
);

const DAY_MS = 86_400_000;

// ---- shared steps -------------------------------------------------------------------------------

type Issue = ErrorIssue;

/** A 400 that names every problem at its path, as the form shows them at its fields. */
const invalid = invalidInput;

/** The tariff of one of the tenant's product versions; another tenant's is unknown here. */
async function tariffOf(db: Queryable, tenantId: number, productVersionId: number) {
  const [tariff] = await loadTariffs(db, tenantId, 'v.id = $2', [productVersionId]);
  if (!tariff) throw invalid([{ path: 'productVersionId', code: 'unknown_product_version' }]);
  return tariff;
}

type CheckedObjects = {
  object: InsuredObjectFields & Tariff['objects'][number];
  data: ObjectData;
}[];

/** The objects' data checked against the tariff's fields; any issue at all is a 400. */
function checkedObjects(
  tariff: Tariff,
  given: v.InferOutput<typeof PolicyCalculateBody>['policyObjects'],
  todayMs: number,
): CheckedObjects {
  const result = validatePolicyObjects(tariff.objects, given, todayMs);
  if (!result.ok) throw invalid(result.issues);
  return result.objects as CheckedObjects;
}

/**
 * The premium of one timeslice's data, with the totals agreed by hand. A formula that cannot be
 * evaluated over this data is the tariff's problem, not the request's: 422 with the evaluator's
 * message.
 */
function premiumFor(
  tariff: Tariff,
  objects: { name: string; data: Record<string, unknown> }[],
  override: PremiumOverride | null,
): Premium {
  try {
    return applyPremiumOverride(premiumOf(tariff, objects), override);
  } catch (err) {
    if (err instanceof PremiumFormulaError) {
      // The policy's own refusal, never a 500: which formula failed, why and where.
      throw new HttpError(422, 'calculation_failed', err.describe(), undefined, [err.issue()]);
    }
    throw err;
  }
}

/** Each overridden total must belong to one of the tariff's formulas. */
function checkOverride(tariff: Tariff, override: PremiumOverride | null | undefined) {
  const issues = (override?.premiumItems ?? []).flatMap((item, i) =>
    tariff.formulas.some((f) => f.id === item.premiumFormulaId)
      ? []
      : [
          {
            path: `premiumOverride.premiumItems.${i}.premiumFormulaId`,
            code: 'unknown_premium_formula',
          },
        ],
  );
  if (issues.length) throw invalid(issues);
}

/**
 * The contract term from the `default` object's system fields; a product version without them
 * runs from today over the product's contract duration.
 */
export function termOf(
  tariff: Pick<Tariff, 'contract_duration_days'>,
  objects: { object: { name: string }; data: Record<string, unknown> }[],
  today = Date.now(),
): { startMs: number; endMs: number } {
  const data = objects.find((o) => o.object.name === 'default')?.data ?? {};
  const startMs = parseIsoDate(data.policyStartDate) ?? Math.floor(today / DAY_MS) * DAY_MS;
  const value = data.policyDurationValue;
  const unit = data.policyDurationUnit;
  const endMs =
    typeof value === 'number' && (DURATION_UNITS as readonly unknown[]).includes(unit)
      ? contractEnd(startMs, value, unit as DurationUnit)
      : startMs + tariff.contract_duration_days * DAY_MS;
  return { startMs, endMs };
}

/** How the contract renews: the product's policyRenewalFrequency field, else not at all. */
const renewalOf = (objects: CheckedObjects): RenewalFrequency => {
  const value = objects.find((o) => o.object.name === 'default')?.data.policyRenewalFrequency;
  return (RENEWAL_FREQUENCIES as readonly unknown[]).includes(value)
    ? (value as RenewalFrequency)
    : 'none';
};

const asNewObjects = (objects: CheckedObjects): NewPolicyObject[] =>
  objects.map(({ object, data }) => ({
    insuredObjectId: object.id,
    name: object.name,
    label: object.label,
    data,
  }));

// ---- lifecycle steps ----------------------------------------------------------------------------

/** What the lifecycle refusals say, naming the status (409). */
const VERB: Record<PolicyAction, string> = {
  terminate: 'terminated',
  withdraw: 'withdrawn',
  restoreVersion: 'restored to an earlier version',
  createDraft: 'changed',
  patchDraft: 'changed',
  deleteDraft: 'changed',
  applyDraft: 'changed',
};

function refused(action: PolicyAction, refusal: LifecycleRefusal, row: PolicyRow): HttpError {
  if (refusal === 'draft_exists') {
    return new HttpError(409, 'draft_exists', 'the policy has a draft already: change that one');
  }
  if (refusal === 'no_draft') return new HttpError(409, 'no_draft', 'the policy has no draft');
  return new HttpError(
    409,
    'illegal_transition',
    `a ${row.status} policy cannot be ${VERB[action]}`,
  );
}

async function versionRow(tx: Queryable, tenantId: number, policyId: number, versionId: number) {
  const [row] = await tx.query<VersionRow>(
    'SELECT * FROM policy_versions WHERE tenant_id = $1 AND policy_id = $2 AND id = $3',
    [tenantId, policyId, versionId],
  );
  return row;
}

/** A stored version's timeline as rows to insert again (objects back in product order). */
async function timelineOf(tx: Queryable, tenantId: number, version: VersionRow) {
  return asNewTimeline((await presentVersions(tx, tenantId, [version]))[0]);
}

/**
 * The timeline ended at `ms`: later timeslices dropped (the first one always stays, so a policy
 * terminated on its first day keeps its data), the one running past `ms` ended there.
 */
function cutAt(timeline: NewTimeslice[], ms: number): NewTimeslice[] {
  return timeline
    .filter((slice, i) => i === 0 || slice.from.getTime() < ms)
    .map((slice) =>
      slice.to === null || slice.to.getTime() > ms
        ? { ...slice, to: new Date(Math.max(ms, slice.from.getTime())) }
        : slice,
    );
}

/** Where a timeline ends; null when it runs open-ended. */
function endOf(timeline: NewTimeslice[]): number | null {
  const ends = timeline.map((slice) => slice.to);
  return ends.includes(null) ? null : Math.max(...ends.map((end) => end!.getTime()));
}

/** The policy's contract: its start and the end of its current timeline. */
const contractOf = (row: PolicyRow, timeline: NewTimeslice[]) => ({
  startMs: new Date(row.policy_start_date ?? row.created_at).getTime(),
  endMs: endOf(timeline),
});

/**
 * A new current version with this timeline: any draft is dropped (a draft always builds on the
 * current version, and that one is about to be superseded), the current one superseded.
 */
async function replaceCurrent(
  tx: Queryable,
  tenantId: number,
  stamp: WriteStamp,
  row: PolicyRow,
  timeline: NewTimeslice[],
  metadata: Record<string, unknown>,
) {
  await tx.query(
    'DELETE FROM policy_versions WHERE tenant_id = $1 AND policy_id = $2 AND is_draft',
    [tenantId, row.id],
  );
  await tx.query(
    `UPDATE policy_versions SET is_current = false, revision_status = 'superseded',
            updated_at = $3, updated_by = $4
      WHERE tenant_id = $1 AND policy_id = $2 AND is_current`,
    [tenantId, row.id, stamp.at.toISOString(), stamp.by],
  );
  await insertVersions(tx, tenantId, stamp, [
    {
      policyId: row.id,
      policyCode: row.code,
      versionNumber: await nextVersionNumber(tx, row.id),
      revisionStatus: 'applied',
      metadata,
      timeline,
    },
  ]);
}

async function nextVersionNumber(tx: Queryable, policyId: number): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    'SELECT coalesce(max(version_number), 0) + 1 AS n FROM policy_versions WHERE policy_id = $1',
    [policyId],
  );
  return row!.n;
}

/**
 * The draft's timeline with the patch applied: from `effectiveFrom` on (the timeslice running
 * over that day split there), or over the whole timeline without it. Every changed timeslice is
 * checked as a whole and its premium computed again; the term fields stay as they are.
 */
function patchedTimeline(
  tariff: Tariff,
  timeline: NewTimeslice[],
  patch: v.InferOutput<typeof PolicyDraftPatchBody>,
  override: PremiumOverride | null,
  todayMs: number,
): NewTimeslice[] {
  let slices = timeline;
  let fromMs = Number.NEGATIVE_INFINITY;
  if (patch.effectiveFrom) {
    const ms = parseIsoDate(patch.effectiveFrom);
    if (ms === null) throw invalid([{ path: 'effectiveFrom', code: 'invalid_date' }]);
    const startMs = slices[0]?.from.getTime() ?? 0;
    const endMs = endOf(slices);
    if (ms <= startMs || (endMs !== null && ms >= endMs)) {
      throw invalid([{ path: 'effectiveFrom', code: 'outside_term' }]);
    }
    fromMs = ms;
    slices = slices.flatMap((slice) =>
      slice.from.getTime() < ms && (slice.to === null || slice.to.getTime() > ms)
        ? [
            { ...slice, to: new Date(ms) },
            { ...slice, from: new Date(ms) },
          ]
        : [slice],
    );
  }
  const issues = new Map<string, Issue>();
  const changes = new Map(patch.policyObjects.map((o) => [o.insuredObjectId, o.data]));
  patch.policyObjects.forEach((o, i) => {
    if (!tariff.objects.some((object) => object.id === o.insuredObjectId)) {
      const path = `policyObjects.${i}.insuredObjectId`;
      issues.set(path, { path, code: 'unknown_insured_object' });
    }
  });
  const result = slices.map((slice) => {
    if (slice.from.getTime() < fromMs) return slice;
    const merged = slice.objects.map((object) => {
      const change =
        object.insuredObjectId === null ? undefined : changes.get(object.insuredObjectId);
      if (object.name === 'default' && change) {
        for (const field of TERM_FIELDS) {
          // Absent and null are both "no value": a policy stored before a field existed
          // (billingFrequencyUnit, migration 039) lacks its key, and a client sends null.
          if (field in change && (change[field] ?? null) !== (object.data[field] ?? null)) {
            const path = `default.${field}`;
            issues.set(path, { path, code: 'read_only' });
          }
        }
      }
      return { insuredObjectId: object.insuredObjectId ?? 0, data: { ...object.data, ...change } };
    });
    const checked = validatePolicyObjects(tariff.objects, merged, todayMs);
    if (!checked.ok) {
      for (const issue of checked.issues) issues.set(`${issue.path} ${issue.code}`, issue);
      return slice;
    }
    const objects = asNewObjects(checked.objects as CheckedObjects);
    return { ...slice, objects, premium: premiumFor(tariff, objects, override) };
  });
  if (issues.size) throw invalid([...issues.values()]);
  return result;
}

/**
 * A termination of the current version on `terminationDate`: refused (400 at the field) outside
 * the contract, otherwise its timeline and the money of ending it there.
 */
async function termination(
  db: Queryable,
  tenantId: number,
  row: PolicyRow,
  body: { terminationDate: string },
) {
  const current = (await versionRow(db, tenantId, row.id, row.current_version_id!))!;
  const timeline = await timelineOf(db, tenantId, current);
  const refusal = terminationDateRefusal(body.terminationDate, contractOf(row, timeline));
  if (refusal) throw invalid([{ path: 'terminationDate', code: refusal }]);
  const date = new Date(parseIsoDate(body.terminationDate)!);
  const units = await premiumUnitsOf(db, tenantId, timeline);
  const figures = terminationFigures(timeline, date.getTime(), units, currencyOf(timeline));
  return { timeline, date, figures };
}

interface LifecycleWrite<B> {
  body: B;
  tenantId: number;
  stamp: WriteStamp;
}

// ---- router -----------------------------------------------------------------------------------

export function insurancePolicyWriteRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.post('/premiums/calculate', CALCULATE, async (req, res) => {
    const { tenantId } = getAuth(res);
    const body = parseBody(PolicyCalculateBody, req.body);
    const tariff = await tariffOf(db, tenantId, body.productVersionId);
    const result = validatePolicyObjects(tariff.objects, body.policyObjects, ctx.clock.now());
    if (!result.ok) {
      const missing = missingFields(result.issues);
      // Incomplete is the normal state of a form being filled in; wrong is not.
      if (!missing.length) throw invalid(result.issues);
      res.json({ premium: null, missing });
      return;
    }
    const premium = premiumFor(
      tariff,
      result.objects.map((o) => ({ name: o.object.name, data: o.data })),
      null,
    );
    res.json({ premium, missing: [] });
  });

  router.post('/policies', CREATE, LEAD_CONVERSION, async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(PolicyCreateBody, req.body);
    const policyId = await db.transaction(async (tx) => {
      // The lead first: one that cannot become a policy is refused before its data is checked,
      // and its move to converted is saved with the policy or not at all.
      if (body.leadCode) await convertLead(tx, auth, body.leadCode, ctx.clock);
      const tariff = await tariffOf(tx, auth.tenantId, body.productVersionId);
      if (tariff.status !== 'active') {
        throw new HttpError(
          409,
          'product_version_not_active',
          `only the active product version sells policies; this one is ${tariff.status}`,
        );
      }
      const accountCode = body.accountCode ?? null;
      if (accountCode) {
        const [account] = await tx.query(
          'SELECT 1 FROM accounts WHERE tenant_id = $1 AND code = $2',
          [auth.tenantId, accountCode],
        );
        if (!account) throw invalid([{ path: 'accountCode', code: 'unknown_account' }]);
      }
      const holder = body.holder ?? null;
      if (!accountCode && !holder?.lastName && !holder?.companyName) {
        // Somebody must hold the contract: a customer, or a named person or company.
        throw invalid([
          { path: accountCode || holder ? 'holder.lastName' : 'holder', code: 'required' },
        ]);
      }
      const objects = checkedObjects(tariff, body.policyObjects, ctx.clock.now());
      const override = body.premiumOverride ?? null;
      checkOverride(tariff, override);
      const term = termOf(tariff, objects);
      if (body.leadCode && term.startMs < Math.floor(ctx.clock.now() / DAY_MS) * DAY_MS) {
        // An application lies around a while: its term may have begun before it is accepted.
        // Cover cannot begin in the past, so the user is asked for a new start (issue 15, 8).
        throw new HttpError(
          409,
          'term.start_in_past',
          'the term of this lead starts in the past: give a new policyStartDate',
          undefined,
          [{ path: 'default.policyStartDate', code: 'start_in_past' }],
        );
      }
      const premium = premiumFor(
        tariff,
        objects.map((o) => ({ name: o.object.name, data: o.data })),
        override,
      );

      const number = await reservePolicyNumbers(tx, auth.tenantId, 1);
      const [inserted] = await insertPolicies(
        tx,
        auth.tenantId,
        { at: new Date(), by: auth.userCode },
        [
          {
            policyNumber: formatPolicyNumber(number),
            productId: tariff.product_id,
            productVersionId: tariff.id,
            accountCode,
            holder,
            status: 'ACTIVE',
            policyStartDate: new Date(term.startMs),
            leadCode: body.leadCode ?? null,
            premiumOverride: override as Record<string, unknown> | null,
            renewalFrequency: renewalOf(objects),
            versions: [
              {
                versionNumber: 1,
                revisionStatus: 'applied',
                metadata: { reason: 'created' },
                timeline: [
                  {
                    from: new Date(term.startMs),
                    to: new Date(term.endMs),
                    premium,
                    objects: asNewObjects(objects),
                  },
                ],
              },
            ],
          },
        ],
      );
      const [created] = await tx.query<{ code: string }>(
        'SELECT code FROM policies WHERE id = $1',
        [inserted],
      );
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        { entityType: 'policy', entityId: created!.code, action: 'created' },
      );
      return inserted!;
    });
    const policy = await loadPolicy(db, auth.tenantId, auth.tenantSlug, String(policyId));
    // Committed: the document service issues the policy schedule of version 1.
    ctx.events.emit({
      type: 'policy.created',
      tenantId: auth.tenantId,
      entityCode: policy.code,
      by: auth.userCode,
      data: { policyNumber: policy.policyNumber },
    });
    res.status(201).json({ policy });
  });

  /**
   * The handler of one lifecycle write: the body read with `schema`, the policy row locked, its
   * version compared with the one the caller based the write on (stale: 409 version_conflict
   * with the current policy), the action checked against the shared rules (409 naming the
   * status), then `change`. Answers the policy as GET /policies/{id} does.
   */
  function lifecycle<S extends v.GenericSchema<unknown, { basedOnVersionId: number }>>(
    schema: S,
    action: PolicyAction,
    change: (
      tx: Queryable,
      row: PolicyRow,
      write: LifecycleWrite<v.InferOutput<S>>,
    ) => Promise<void>,
    options: { status?: number; bodyOf?: (req: Request) => unknown } = {},
  ): RequestHandler {
    return async (req, res) => {
      const auth = getAuth(res);
      const body = parseBody(schema, (options.bodyOf ?? ((r) => r.body))(req));
      const key = String(req.params.id);
      const write = { body, tenantId: auth.tenantId, stamp: { at: new Date(), by: auth.userCode } };
      const stale = await db.transaction(async (tx) => {
        const row = await findPolicyRow(tx, auth.tenantId, key, true);
        const expected = basedOnDraft(action) ? row.draft_version_id : row.current_version_id;
        if (expected !== body.basedOnVersionId) return { expected };
        const refusal = lifecycleRefusal(action, {
          status: row.status,
          hasDraft: row.draft_version_id !== null,
        });
        if (refusal) throw refused(action, refusal, row);
        const before = await policyFacts(tx, auth, row.code);
        await change(tx, row, write);
        await tx.query(
          'UPDATE policies SET updated_at = $3, updated_by = $4 WHERE tenant_id = $1 AND id = $2',
          [auth.tenantId, row.id, write.stamp.at.toISOString(), write.stamp.by],
        );
        await recordChange(
          tx,
          { auth, clock: ctx.clock },
          {
            entityType: 'policy',
            entityId: row.code,
            action: POLICY_EVENT[action],
            before,
            after: await policyFacts(tx, auth, row.code),
          },
        );
        return null;
      });
      const policy = await loadPolicy(db, auth.tenantId, auth.tenantSlug, key);
      if (stale) {
        throw new HttpError(
          409,
          'version_conflict',
          stale.expected === null
            ? `the policy was changed meanwhile: it has no draft now (yours ${body.basedOnVersionId})`
            : `the policy was changed meanwhile (version ${stale.expected}, yours ${body.basedOnVersionId})`,
          { policy },
        );
      }
      // Committed: the workflows defined for a terminated policy may start now.
      if (action === 'terminate')
        ctx.events.emit({
          type: 'policy.terminated',
          tenantId: auth.tenantId,
          entityCode: policy.code,
          by: auth.userCode,
          // The number the policy's letters name it by (its code is internal).
          data: {
            policyNumber: policy.policyNumber,
            terminationDate: (body as { terminationDate?: string }).terminationDate ?? null,
          },
        });
      // A new version in force (a draft applied, an earlier one restored): its schedule.
      if (action === 'applyDraft' || action === 'restoreVersion')
        ctx.events.emit({
          type: 'policy.version_created',
          tenantId: auth.tenantId,
          entityCode: policy.code,
          by: auth.userCode,
          data: { policyNumber: policy.policyNumber },
        });
      res.status(options.status ?? 200).json({ policy });
    };
  }

  router.get('/policies/:id/draft', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await findPolicyRow(db, tenantId, String(req.params.id));
    const draft = row.draft_version_id
      ? await versionRow(db, tenantId, row.id, row.draft_version_id)
      : undefined;
    // The spec's client treats a failed draft lookup as "no draft": a 404 it can tell apart.
    if (!draft) throw new HttpError(404, 'not_found', 'Policy has no draft');
    const [presented] = await presentVersions(db, tenantId, [draft]);
    res.json({ draft: presented });
  });

  router.post(
    '/policies/:id/draft',
    UPDATE,
    lifecycle(
      PolicyBasedOnBody,
      'createDraft',
      async (tx, row, { tenantId, stamp }) => {
        const current = await versionRow(tx, tenantId, row.id, row.current_version_id!);
        await insertVersions(tx, tenantId, stamp, [
          {
            policyId: row.id,
            policyCode: row.code,
            versionNumber: await nextVersionNumber(tx, row.id),
            revisionStatus: 'draft',
            metadata: { basedOnVersionId: current!.id },
            timeline: await timelineOf(tx, tenantId, current!),
          },
        ]);
      },
      { status: 201 },
    ),
  );

  router.patch(
    '/policies/:id/draft',
    UPDATE,
    lifecycle(PolicyDraftPatchBody, 'patchDraft', async (tx, row, { tenantId, stamp, body }) => {
      const draft = (await versionRow(tx, tenantId, row.id, row.draft_version_id!))!;
      const [tariff] = await loadTariffs(tx, tenantId, 'v.id = $2', [row.product_version_id]);
      const timeline = patchedTimeline(
        tariff!,
        await timelineOf(tx, tenantId, draft),
        body,
        row.premium_override as PremiumOverride | null,
        ctx.clock.now(),
      );
      // A new row, so that a patch or an apply based on the draft as it was is a conflict.
      await tx.query('DELETE FROM policy_versions WHERE tenant_id = $1 AND id = $2', [
        tenantId,
        draft.id,
      ]);
      await insertVersions(tx, tenantId, stamp, [
        {
          policyId: row.id,
          policyCode: row.code,
          versionNumber: draft.version_number,
          revisionStatus: 'draft',
          metadata: draft.metadata,
          timeline,
        },
      ]);
    }),
  );

  router.delete(
    '/policies/:id/draft',
    UPDATE,
    lifecycle(
      PolicyBasedOnBody,
      'deleteDraft',
      async (tx, row, { tenantId }) => {
        await tx.query('DELETE FROM policy_versions WHERE tenant_id = $1 AND id = $2', [
          tenantId,
          row.draft_version_id,
        ]);
      },
      // A DELETE may come without a body: the version may be named in the query instead.
      {
        bodyOf: (req) => {
          const query = req.query.basedOnVersionId;
          const fromQuery = /^\d{1,9}$/.test(String(query)) ? Number(query) : query;
          return { basedOnVersionId: req.body?.basedOnVersionId ?? fromQuery };
        },
      },
    ),
  );

  // The spec's PUT /v1/policies/{id}: the policy becomes what its draft says.
  router.put(
    '/policies/:id',
    UPDATE,
    lifecycle(PolicyBasedOnBody, 'applyDraft', async (tx, row, { tenantId, stamp }) => {
      await tx.query(
        `UPDATE policy_versions SET is_current = false, revision_status = 'superseded',
                updated_at = $3, updated_by = $4
          WHERE tenant_id = $1 AND id = $2`,
        [tenantId, row.current_version_id, stamp.at.toISOString(), stamp.by],
      );
      await tx.query(
        `UPDATE policy_versions SET is_current = true, is_draft = false,
                revision_status = 'applied', metadata = metadata || $3::jsonb,
                updated_at = $4, updated_by = $5
          WHERE tenant_id = $1 AND id = $2`,
        [
          tenantId,
          row.draft_version_id,
          JSON.stringify({ reason: 'changed' }),
          stamp.at.toISOString(),
          stamp.by,
        ],
      );
      // The draft is the current version now: its premium is the one in force.
      await storePremiumInForce(tx, tenantId, [row.id], stamp.at);
    }),
  );

  /**
   * What terminating on `terminationDate` would do, without doing it: the same checks (a date
   * within the contract, a status that may be terminated) and the money the termination would
   * store, so that the dialog shows the refund before the user confirms (issue 15, point 7).
   */
  router.post('/policies/:id/termination-preview', UPDATE, async (req, res) => {
    const { tenantId } = getAuth(res);
    const body = parseBody(PolicyTerminationPreviewBody, req.body);
    const row = await findPolicyRow(db, tenantId, String(req.params.id));
    const refusal = lifecycleRefusal('terminate', {
      status: row.status,
      hasDraft: row.draft_version_id !== null,
    });
    if (refusal) throw refused('terminate', refusal, row);
    const { figures } = await termination(db, tenantId, row, body);
    res.json({ termination: figures });
  });

  router.post(
    '/policies/:id/terminate',
    UPDATE,
    lifecycle(PolicyTerminateBody, 'terminate', async (tx, row, { tenantId, stamp, body }) => {
      const { timeline, date, figures } = await termination(tx, tenantId, row, body);
      await replaceCurrent(tx, tenantId, stamp, row, cutAt(timeline, date.getTime()), {
        reason: 'terminated',
        terminationDate: date.toISOString(),
        terminationReason: body.reason ?? null,
        termination: figures,
      });
      await tx.query(
        `UPDATE policies SET status = 'TERMINATED', termination_date = $3, termination_reason = $4
          WHERE tenant_id = $1 AND id = $2`,
        [tenantId, row.id, date.toISOString(), body.reason ?? null],
      );
    }),
  );

  router.post(
    '/policies/:id/withdraw',
    UPDATE,
    lifecycle(PolicyWithdrawBody, 'withdraw', async (tx, row, { tenantId, stamp, body }) => {
      const current = (await versionRow(tx, tenantId, row.id, row.current_version_id!))!;
      // Void from the start: the record of what was agreed stays as it was.
      await replaceCurrent(tx, tenantId, stamp, row, await timelineOf(tx, tenantId, current), {
        reason: 'withdrawn',
        withdrawalReason: body.reason ?? null,
      });
      await tx.query(`UPDATE policies SET status = 'WITHDRAWN' WHERE tenant_id = $1 AND id = $2`, [
        tenantId,
        row.id,
      ]);
    }),
  );

  router.post(
    '/policies/:id/restore-policy-version',
    UPDATE,
    lifecycle(PolicyRestoreBody, 'restoreVersion', async (tx, row, { tenantId, stamp, body }) => {
      const target = await versionRow(tx, tenantId, row.id, body.versionId);
      if (!target) throw invalid([{ path: 'versionId', code: 'unknown_version' }]);
      const refusal = restoreRefusal({ revisionStatus: target.revision_status as RevisionStatus });
      if (refusal) {
        throw new HttpError(
          409,
          'illegal_transition',
          refusal === 'is_current'
            ? `version ${target.version_number} is the current version already`
            : `version ${target.version_number} is a draft: apply it instead`,
          undefined,
          // The reason as a code: the client says it in the user's language.
          [{ path: 'versionId', code: refusal }],
        );
      }
      const timeline = await timelineOf(tx, tenantId, target);
      // A terminated policy stays terminated: the restored data ends where the contract did.
      const restored = row.termination_date
        ? cutAt(timeline, new Date(row.termination_date).getTime())
        : timeline;
      await replaceCurrent(tx, tenantId, stamp, row, restored, {
        reason: 'restored',
        restoredVersionId: target.id,
        restoredVersionNumber: target.version_number,
      });
    }),
  );

  return router;
}
