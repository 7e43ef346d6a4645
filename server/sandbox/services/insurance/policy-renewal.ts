import { contractEnd } from '#common/policy-lifecycle.ts';
import type { RenewalFrequency } from '#common/policy-object-data.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { startDayRun } from '#server/sandbox/platform/day-run.ts';
import { recordSystemChanges, type AuditEvent } from '#server/sandbox/platform/audit-trail.ts';
import {
  presentVersions,
  type PresentedVersion,
  type VersionRow,
} from './insurance-policy-routes.ts';
import { refreshPremiumsInForce } from './policy-premium.ts';
import { insertVersions, type NewTimeslice, type NewVersion } from './policy-store.ts';

/**
 * The renewal run (issue 15, point 6; docs/decisions/006-policy-renewal-run.md): every live
 * policy (ACTIVE or SUSPENDED) whose current term has ended by `nowMs` either renews, its timeline
 * extended term by term (per its renewal frequency) until it runs past now, or expires (status
 * EXPIRED). Each is recorded as a new current version written by `system` at `nowMs`, like every
 * other change of a policy. Idempotent: a renewed policy now ends after `nowMs` and an expired one
 * is no longer live, so a second run at the same time finds nothing due.
 */

/** Runs of all sandboxes on one database never interleave (the seed's lock is 724314). */
const RUN_LOCK = 724315;
const BY = 'system';

const MONTHS: Readonly<Record<Exclude<RenewalFrequency, 'none'>, number>> = {
  monthly: 1,
  quarterly: 3,
  halfYearly: 6,
  yearly: 12,
};

/** A stored version's timeline as rows to insert again (objects back in product order). */
export const asNewTimeline = (presented: PresentedVersion | undefined): NewTimeslice[] =>
  (presented?.timeline ?? []).map((slice) => ({
    from: new Date(slice.from),
    to: slice.to ? new Date(slice.to) : null,
    premium: slice.premium,
    objects: [...slice.policyObjects].reverse().map((o) => ({
      insuredObjectId: o.insuredObjectId,
      name: o.insuredObjectName,
      label: o.insuredObjectLabel,
      data: o.data,
    })),
  }));

/**
 * The timeline renewed past `nowMs`: the last timeslice's data and premium carried into each next
 * term. Answers the new terms' count too.
 */
export function renewedTimeline(
  timeline: NewTimeslice[],
  frequency: Exclude<RenewalFrequency, 'none'>,
  nowMs: number,
): { timeline: NewTimeslice[]; terms: number } {
  const last = timeline.at(-1)!;
  const next = [...timeline];
  let end = last.to!.getTime();
  let terms = 0;
  while (end <= nowMs) {
    const to = contractEnd(end, MONTHS[frequency], 'month');
    next.push({ ...last, from: new Date(end), to: new Date(to) });
    end = to;
    terms += 1;
  }
  return { timeline: next, terms };
}

/** The UTC day of a term's boundary, as the policy page shows a term's dates. */
const dayOf = (iso: string) => iso.slice(0, 10);

/**
 * The history's event of a version the run wrote (issue 15, point 12): the term's end moved on
 * (renewed) or the status that ended (expired), recorded as the system's. The seed records its
 * run-written versions with it too, so that a seeded renewal reads like a run's.
 */
export function renewalEvent(
  policyCode: string,
  metadata: Record<string, unknown>,
  statusBefore: string,
): AuditEvent {
  const event = { entityType: 'policy' as const, entityId: policyCode };
  if (metadata.reason === 'expired') {
    return {
      ...event,
      action: 'expired',
      changes: [{ field: 'status', before: statusBefore, after: 'EXPIRED' }],
    };
  }
  return {
    ...event,
    action: 'renewed',
    changes: [
      {
        field: 'contractEnd',
        before: dayOf(String(metadata.previousEnd)),
        after: dayOf(String(metadata.renewedUntil)),
      },
    ],
  };
}

interface DueRow {
  id: number;
  code: string;
  status: string;
  renewal_frequency: RenewalFrequency;
  version_id: number;
  ended_at: Date;
}

/** One tenant's due policies renewed or expired, in one transaction. */
async function runTenant(tx: Queryable, tenantId: number, nowMs: number) {
  const now = new Date(nowMs);
  const candidates = await tx.query<DueRow>(
    `SELECT p.id, p.code, p.status, p.renewal_frequency, v.id AS version_id, max(t."to") AS ended_at
       FROM policies p
       JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
       JOIN timeslices t ON t.policy_version_id = v.id
      WHERE p.tenant_id = $1 AND p.status IN ('ACTIVE', 'SUSPENDED')
      GROUP BY p.id, v.id
     HAVING bool_and(t."to" IS NOT NULL) AND max(t."to") <= $2
      ORDER BY p.id`,
    [tenantId, now.toISOString()],
  );
  if (!candidates.length) return { renewed: 0, expired: 0 };
  // Locked as every write locks a policy, in a statement of its own (policy-store.ts, lockPolicy),
  // which reads the row as committed by a write it waited for: one terminated or withdrawn
  // meanwhile is no longer live and not due.
  const live = new Set(
    (
      await tx.query<{ id: number }>(
        `SELECT id FROM policies WHERE tenant_id = $1 AND id = ANY($2::int[])
            AND status IN ('ACTIVE', 'SUSPENDED') FOR UPDATE`,
        [tenantId, candidates.map((c) => c.id)],
      )
    ).map((r) => r.id),
  );
  const due = candidates.filter((c) => live.has(c.id));
  if (!due.length) return { renewed: 0, expired: 0 };
  const policyIds = due.map((d) => d.id);
  const versionRows = await tx.query<VersionRow>(
    'SELECT * FROM policy_versions WHERE tenant_id = $1 AND id = ANY($2::int[])',
    [tenantId, due.map((d) => d.version_id)],
  );
  const presented = new Map(
    (await presentVersions(tx, tenantId, versionRows)).map((v) => [v.policyId, v]),
  );
  const numbers = new Map(
    (
      await tx.query<{ policy_id: number; n: number }>(
        `SELECT policy_id, max(version_number) + 1 AS n FROM policy_versions
          WHERE tenant_id = $1 AND policy_id = ANY($2::int[]) GROUP BY policy_id`,
        [tenantId, policyIds],
      )
    ).map((r) => [r.policy_id, r.n]),
  );

  const versions: (NewVersion & { policyId: number; policyCode: string })[] = [];
  const expired: number[] = [];
  for (const policy of due) {
    const timeline = asNewTimeline(presented.get(policy.id));
    const endedOn = new Date(policy.ended_at).toISOString();
    const base = {
      policyId: policy.id,
      policyCode: policy.code,
      revisionStatus: 'applied' as const,
    };
    const versionNumber = numbers.get(policy.id) ?? 1;
    if (policy.renewal_frequency === 'none') {
      expired.push(policy.id);
      versions.push({
        ...base,
        versionNumber,
        metadata: { reason: 'expired', expiredOn: endedOn },
        timeline,
      });
    } else {
      const renewed = renewedTimeline(timeline, policy.renewal_frequency, nowMs);
      versions.push({
        ...base,
        versionNumber,
        metadata: {
          reason: 'renewed',
          renewalFrequency: policy.renewal_frequency,
          previousEnd: endedOn,
          renewedUntil: renewed.timeline.at(-1)!.to!.toISOString(),
          terms: renewed.terms,
        },
        timeline: renewed.timeline,
      });
    }
  }
  // As every change of the current version: a draft built on the old one goes, the old one is
  // superseded, the new one becomes current.
  await tx.query(
    'DELETE FROM policy_versions WHERE tenant_id = $1 AND policy_id = ANY($2::int[]) AND is_draft',
    [tenantId, policyIds],
  );
  await tx.query(
    `UPDATE policy_versions SET is_current = false, revision_status = 'superseded',
            updated_at = $3, updated_by = $4
      WHERE tenant_id = $1 AND id = ANY($2::int[])`,
    [tenantId, due.map((d) => d.version_id), now.toISOString(), BY],
  );
  await insertVersions(tx, tenantId, { at: now, by: BY }, versions);
  await tx.query(
    `UPDATE policies SET status = CASE WHEN id = ANY($3::int[]) THEN 'EXPIRED' ELSE status END,
            updated_at = $4, updated_by = $5
      WHERE tenant_id = $1 AND id = ANY($2::int[])`,
    [tenantId, policyIds, expired, now.toISOString(), BY],
  );
  // Each renewal or expiry in the policy's history, as every other change of a policy is.
  await recordSystemChanges(
    tx,
    tenantId,
    now,
    due.map((policy, n) => renewalEvent(policy.code, versions[n]!.metadata, policy.status)),
  );
  return { renewed: due.length - expired.length, expired: expired.length };
}

/**
 * The day's run: renews or expires every due policy of every tenant as of `nowMs` and answers
 * how many; then stores again the premium in force of the policies whose stored one time has
 * moved past (policy-premium.ts), so that the premium-sorted list only reads.
 */
export async function runPolicyRenewals(
  db: Db,
  nowMs: number,
): Promise<{ renewed: number; expired: number }> {
  const tenants = await db.query<{ id: number }>('SELECT id FROM tenants ORDER BY id');
  const total = { renewed: 0, expired: 0 };
  for (const tenant of tenants) {
    const counts = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [RUN_LOCK]);
      const counts = await runTenant(tx, tenant.id, nowMs);
      await refreshPremiumsInForce(tx, tenant.id, new Date(nowMs));
      return counts;
    });
    total.renewed += counts.renewed;
    total.expired += counts.expired;
  }
  return total;
}

/**
 * The run on the sandbox's clock: once now (before the sandbox serves), then whenever the clock
 * has moved into another day since the last run (platform/day-run.ts). Answers the stop of its
 * timer.
 */
export function startRenewalRuns(ctx: SandboxContext): Promise<() => void> {
  const log = ctx.logger.child({ job: 'policy-renewal' });
  return startDayRun(ctx, 'policy-renewal', async (nowMs) => {
    const started = Date.now();
    const counts = await runPolicyRenewals(ctx.db, nowMs);
    if (counts.renewed || counts.expired) {
      log.info({ ...counts, ms: Date.now() - started }, 'policies renewed and expired');
    }
  });
}
