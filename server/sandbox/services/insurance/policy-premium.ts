import type { Queryable } from '#server/sandbox/platform/db.ts';

/**
 * The premium in force of a policy, stored on its row (migration 030, issue 14) so that the list
 * sorts and pages by it through an index instead of working it out for every filtered policy on
 * every page.
 *
 * Which timeslice is in force depends on the time (common/policy-timeline.ts `timesliceAt`: the
 * one holding now, else the first before the timeline starts, else the last), so the row keeps
 * with the amount the stretch of time it holds for: from the latest boundary (a slice's `from`
 * or `to`) at or before the time it was worked out, to the next one after it. A write that
 * changes the current version stores it again at once; the day's run (policy-renewal.ts, at the
 * sandbox's start and whenever its clock passes into another day) works out again the rows whose
 * stretch does not hold the clock's time (time moved past a boundary, or a write stored it at a
 * time other than the sandbox clock's). The list only reads: it pays no write per page.
 */

/** The grand total of the current version's timeslice in force at `$2`, -1 without one. */
const IN_FORCE = `
  SELECT coalesce(max(c.total), -1), max(c.since), min(c.until)
    FROM (SELECT
      (SELECT (t.premium->>'grandTotal')::numeric FROM timeslices t
        WHERE t.policy_version_id = v.id
        ORDER BY (t."from" <= $2 AND (t."to" IS NULL OR $2 < t."to")) DESC,
                 CASE WHEN $2 < (SELECT min(f."from") FROM timeslices f
                                  WHERE f.policy_version_id = v.id) THEN t."from" END ASC,
                 t."from" DESC
        LIMIT 1) AS total,
      (SELECT max(b.at) FROM timeslices t, LATERAL (VALUES (t."from"), (t."to")) AS b(at)
        WHERE t.policy_version_id = v.id AND b.at <= $2) AS since,
      (SELECT min(b.at) FROM timeslices t, LATERAL (VALUES (t."from"), (t."to")) AS b(at)
        WHERE t.policy_version_id = v.id AND b.at > $2) AS until
      FROM policy_versions v WHERE v.policy_id = p.id AND v.is_current) c`;

/**
 * Stores the premium in force at `now` of these policies of the tenant. Called by every write of
 * a current version (policy-store.ts `insertVersions`, a lifecycle write) inside its transaction.
 */
export async function storePremiumInForce(
  tx: Queryable,
  tenantId: number,
  policyIds: readonly number[],
  now: Date,
): Promise<void> {
  if (policyIds.length === 0) return;
  await tx.query(
    `UPDATE policies p SET (premium_in_force, premium_since, premium_until) = (${IN_FORCE})
      WHERE p.tenant_id = $1 AND p.id = ANY($3::int[])`,
    [tenantId, now.toISOString(), [...new Set(policyIds)]],
  );
}

/**
 * Stores again the premium of the tenant's policies whose stored stretch does not hold `now`:
 * part of the day's run (policy-renewal.ts). Both bounds are indexed, so when nothing moved (the
 * rule) this reads no policy row.
 */
export async function refreshPremiumsInForce(
  db: Queryable,
  tenantId: number,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE policies p SET (premium_in_force, premium_since, premium_until) = (${IN_FORCE})
      WHERE p.tenant_id = $1 AND (p.premium_since > $2 OR p.premium_until <= $2)`,
    [tenantId, now.toISOString()],
  );
}
