import type { PolicyAction } from '#common/policy-lifecycle.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { loadPolicy } from './insurance-policy-routes.ts';

/**
 * What a policy's history compares (issue 15, point 12): the contract's own fields and, from the
 * newest timeslice of its current version, the premium and each insured object's data by object
 * name (`objects.vehicle.vehicleValue`). Versions, ids and stamps are left out: the history
 * names who and when itself.
 */
export async function policyFacts(
  tx: Queryable,
  auth: { tenantId: number; tenantSlug: string },
  key: string,
) {
  const policy = await loadPolicy(tx, auth.tenantId, auth.tenantSlug, key, 'timelines');
  const slice = policy.timeline?.at(-1);
  return {
    status: policy.status,
    accountCode: policy.accountCode,
    holder: policy.holder,
    policyStartDate: policy.policyStartDate,
    terminationDate: policy.terminationDate,
    terminationReason: policy.terminationReason,
    premiumOverride: policy.premiumOverride,
    productVersionId: policy.productVersionId,
    premium: slice?.premium.grandTotal ?? null,
    objects: Object.fromEntries(
      (slice?.policyObjects ?? []).map((o) => [o.insuredObjectName, o.data]),
    ),
  };
}

/**
 * The history's name of a lifecycle write. Draft writes change no contract field, so they record
 * nothing (no field differs); applying the draft does.
 */
export const POLICY_EVENT: Record<PolicyAction, string> = {
  terminate: 'terminated',
  withdraw: 'withdrawn',
  restoreVersion: 'version_restored',
  createDraft: 'draft_created',
  patchDraft: 'draft_changed',
  deleteDraft: 'draft_deleted',
  applyDraft: 'updated',
};
