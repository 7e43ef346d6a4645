import type { Queryable } from '#server/sandbox/platform/db.ts';
import type { AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { HttpError, invalidInput } from '#server/sandbox/platform/errors.ts';
import type { ErrorIssue } from '#common/contracts/error.ts';
import { hasPermission } from '#common/permissions.ts';
import { COVER_OVERRIDE_PERMISSION, coveredClaimTypes } from '#common/claims.ts';
import { policyInForceOn } from '#server/sandbox/services/insurance/index.ts';

/**
 * The cover check of a claim (issue 15): the policy must be in force on the loss date (the
 * insurance service's rule, `policyInForceOn`) and its product's category must cover the kind of
 * loss. Days are the workspace's, as for the claim's other dates.
 */
export async function coverIssues(
  db: Queryable,
  tenantId: number,
  claim: { policyCode: string; damageDate: string; claimType: string },
  timeZone: string,
): Promise<ErrorIssue[]> {
  const policy = await policyInForceOn(db, tenantId, claim.policyCode, claim.damageDate, timeZone);
  if (!policy) return [];
  const issues: ErrorIssue[] = [];
  if (!policy.inForce) issues.push({ path: 'damageDate', code: 'no_cover_on_loss_date' });
  if (!coveredClaimTypes(policy.category).some((type) => type === claim.claimType)) {
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
