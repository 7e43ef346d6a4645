import type { ClaimStatus } from '#client/api/claims-client.ts';
import type { TransitionRule } from '#client/api/leads-client.ts';
import { CLAIM_ENTITY_TYPE } from '#common/claims.ts';

/** Claim statuses as the spec lists them: by name, in the user's language's collation. */
export function statusesByName<S extends Pick<ClaimStatus, 'name'>>(
  statuses: readonly S[],
  language: string,
): S[] {
  const collator = new Intl.Collator(language);
  return [...statuses].sort((a, b) => collator.compare(a.name, b.name));
}

/** The tenant's rules that move claims (the service lists those of leads beside them). */
export function claimRules<R extends Pick<TransitionRule, 'entityType'>>(rules: readonly R[]): R[] {
  return rules.filter((r) => r.entityType === CLAIM_ENTITY_TYPE);
}

/**
 * The statuses a claim may move to (the slugs the status-move machine allows), by name. A move to
 * a slug the tenant does not list (a rule left behind) is still offered under its slug: the
 * service is the judge of it, and hiding it would hide a rule.
 */
export function movesByName(
  targets: readonly string[],
  statuses: readonly ClaimStatus[],
  language: string,
): Pick<ClaimStatus, 'slug' | 'name'>[] {
  return statusesByName(
    targets.map((slug) => ({ slug, name: statuses.find((s) => s.slug === slug)?.name ?? slug })),
    language,
  );
}
