import type { Queryable } from '#server/sandbox/platform/db.ts';

/** What the cover of a policy on one day depends on; null when the workspace has no such policy. */
export interface PolicyOnDay {
  /** The policy covers the day (see {@link policyInForceOn}). */
  inForce: boolean;
  /** The category of the policy's product (which kinds of loss it covers). */
  category: string;
}

interface InForceRow {
  status: string;
  category: string;
  termination_day: string | null;
  in_term: boolean;
}

/**
 * Whether a policy is in force on a day (`YYYY-MM-DD` in the workspace's time zone): it is neither
 * withdrawn (it never existed) nor suspended, it was not terminated on or before the day (a
 * terminated policy without a termination date is taken as never in force), and the day lies in a
 * timeslice of one of its versions that is no draft (from its first day up to, not including, the
 * day its term ends). The insurance service owns the rule; the claim service asks it here instead
 * of reading the policy tables with a copy of it.
 */
export async function policyInForceOn(
  db: Queryable,
  tenantId: number,
  policyCode: string,
  day: string,
  timeZone: string,
): Promise<PolicyOnDay | null> {
  const [row] = await db.query<InForceRow>(
    `SELECT p.status, pr.category,
            to_char(p.termination_date AT TIME ZONE $3, 'YYYY-MM-DD') AS termination_day,
            EXISTS (
              SELECT 1 FROM policy_versions v JOIN timeslices t ON t.policy_version_id = v.id
               WHERE v.policy_id = p.id AND NOT v.is_draft
                 AND to_char(t."from" AT TIME ZONE $3, 'YYYY-MM-DD') <= $4
                 AND (t."to" IS NULL OR to_char(t."to" AT TIME ZONE $3, 'YYYY-MM-DD') > $4)
            ) AS in_term
       FROM policies p JOIN products pr ON pr.id = p.product_id
      WHERE p.tenant_id = $1 AND p.code = $2`,
    [tenantId, policyCode, timeZone, day],
  );
  if (!row) return null;
  const terminatedBefore =
    row.status === 'TERMINATED' && (row.termination_day === null || row.termination_day <= day);
  const inForce =
    row.status !== 'WITHDRAWN' && row.status !== 'SUSPENDED' && !terminatedBefore && row.in_term;
  return { inForce, category: row.category };
}
