import type { Queryable } from '#server/sandbox/platform/db.ts';
import type { AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { HttpError, invalidInput } from '#server/sandbox/platform/errors.ts';
import type { ErrorIssue } from '#common/contracts/error.ts';
import { hasPermission } from '#common/permissions.ts';
import { COVER_OVERRIDE_PERMISSION, coveredClaimTypes } from '#common/claims.ts';

/**
 * The cover check of a claim (issue 15): the policy must be in force on the loss date and its
 * product's category must cover the kind of loss. The claim service reads the policy tables
 * itself (as it does for a claim's policy number and holder), never the insurance routes.
 *
 * In force on the loss day means: the policy is neither withdrawn (it never existed) nor
 * suspended, it was not terminated on or before the loss day (a terminated policy without a
 * termination date is taken as never in force), and the day lies in a timeslice of one of its
 * versions that is no draft (from its first day up to, not including, the day its term ends).
 * Days are the workspace's, as for the claim's other dates.
 */

interface CoverFacts {
  status: string;
  category: string;
  termination_day: string | null;
  in_term: boolean;
}

export async function coverIssues(
  db: Queryable,
  tenantId: number,
  claim: { policyCode: string; damageDate: string; claimType: string },
  timeZone: string,
): Promise<ErrorIssue[]> {
  const [facts] = await db.query<CoverFacts>(
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
    [tenantId, claim.policyCode, timeZone, claim.damageDate],
  );
  if (!facts) return [];
  const issues: ErrorIssue[] = [];
  const terminatedBefore =
    facts.status === 'TERMINATED' &&
    (facts.termination_day === null || facts.termination_day <= claim.damageDate);
  if (
    facts.status === 'WITHDRAWN' ||
    facts.status === 'SUSPENDED' ||
    terminatedBefore ||
    !facts.in_term
  ) {
    issues.push({ path: 'damageDate', code: 'no_cover_on_loss_date' });
  }
  if (!coveredClaimTypes(facts.category).some((type) => type === claim.claimType)) {
    issues.push({ path: 'claimType', code: 'loss_not_covered' });
  }
  return issues;
}

/**
 * Refuses a claim without cover (400 naming each field), unless the caller overrides it with a
 * reason and holds the override permission (403 otherwise). Answers the codes overridden, which
 * the caller records with {@link recordCoverOverride} once the claim row exists.
 */
export function checkCover(
  issues: ErrorIssue[],
  override: { reason: string } | undefined,
  auth: AuthContext,
): string[] {
  if (!issues.length) return [];
  if (!override) {
    throw invalidInput(issues, issues.map((i) => `${i.path}: ${i.code}`).join('; '));
  }
  if (!hasPermission(auth.permissions, COVER_OVERRIDE_PERMISSION)) {
    throw new HttpError(403, 'forbidden', `missing permission ${COVER_OVERRIDE_PERMISSION}`);
  }
  return issues.map((i) => i.code);
}

/** The audit of an override: which refusals, who, when (the injected clock), why. */
export async function recordCoverOverride(
  db: Queryable,
  tenantId: number,
  claimId: number,
  entry: { codes: string[]; reason: string; by: string; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO claim_cover_overrides (tenant_id, claim_id, codes, reason, overridden_by,
                                        overridden_at)
     VALUES ($1, $2, $3::text[], $4, $5, $6)`,
    [tenantId, claimId, entry.codes, entry.reason, entry.by, entry.at],
  );
}
