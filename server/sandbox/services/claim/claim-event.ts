/**
 * What a `claim.created` event gives the workflows it starts as variables. The demo workspace's
 * claim custom field `estimatedDamage` holds euros (DEMO_CLAIM_FIELDS, a number that may have
 * cents); workflows and decision tables reckon money in integer cents (claim intake's table
 * fast-tracks `amount <= 100000`), so the estimate becomes `amount` in cents here, once.
 */

export interface ClaimEventSource {
  claim_type: string;
  status: string;
  custom_fields: Record<string, unknown> | null;
}

/** Euros as typed (a number, or a numeric text from an older client) -> cents; 0 when unknown. */
export function estimatedDamageCents(customFields: Record<string, unknown> | null): number {
  const raw = customFields?.estimatedDamage;
  const euros = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof euros !== 'number' || !Number.isFinite(euros) || euros < 0) return 0;
  return Math.round(euros * 100);
}

export function claimCreatedVariables(claim: ClaimEventSource): Record<string, unknown> {
  return {
    claimType: claim.claim_type,
    status: claim.status,
    amount: estimatedDamageCents(claim.custom_fields),
  };
}
