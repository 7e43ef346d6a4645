import type { CreatedPolicy } from '#client/api/applications-client.ts';
import { fetchJson } from '#client/api/fetch-json.ts';
import type { Lead, LeadHolder } from '#client/api/leads-client.ts';
import type { PolicyObjectInput } from '#common/policy-object-data.ts';

/**
 * Turning an approved lead into a policy (docs/contracts.md, "Policy writes"): the create-policy
 * request with the lead's own data and its code, after which the service has moved the lead to
 * converted in the same transaction. Kept in the leads feature because the body is the lead's;
 * the same endpoint serves the new-policy form (`createPolicy` in applications-client.ts).
 */

/** What POST /policies takes from a lead. */
export interface LeadPolicyInput {
  productVersionId: number;
  accountCode: string | null;
  holder: LeadHolder | null;
  policyObjects: PolicyObjectInput[];
  premiumOverride: { premiumItems: { premiumFormulaId: number; total: number }[] } | null;
  leadCode: string;
}

/**
 * The policy a lead applies for: its product version, customer or prospect, insured data and the
 * totals agreed by hand (the lead keeps them as a bare list, a policy under `premiumItems`).
 */
export function policyFromLead(lead: Lead, newStart: string | null = null): LeadPolicyInput {
  return {
    productVersionId: lead.productVersionId,
    accountCode: lead.accountCode,
    holder: lead.policy.holder,
    policyObjects: lead.policy.policyObjects.map((object) => ({
      insuredObjectId: object.insuredObjectId,
      // The new start the user chose when the lead's own had passed (409 term.start_in_past).
      data:
        newStart && 'policyStartDate' in object.data
          ? { ...object.data, policyStartDate: newStart }
          : object.data,
    })),
    premiumOverride: lead.premiumOverride?.length
      ? {
          premiumItems: lead.premiumOverride.map(({ premiumFormulaId, total }) => ({
            premiumFormulaId,
            total,
          })),
        }
      : null,
    leadCode: lead.code,
  };
}

/**
 * Creates the lead's policy. Refusals: 404 (the lead is gone), 409 `illegal_transition` (the
 * lead's status does not lead to converted; the body carries the current `lead`), 409
 * `lead_converted` (it has a policy already), 409 `product_version_not_active`, 400
 * `validation_error` (the lead's data is not a complete policy), 403.
 */
export async function createPolicyFromLead(
  accountIndex: number,
  lead: Lead,
  newStart: string | null = null,
  signal?: AbortSignal,
): Promise<CreatedPolicy> {
  const res = await fetchJson<{ policy: CreatedPolicy }>(
    `/api/${accountIndex}/insuranceservice/v1/policies`,
    { method: 'POST', body: policyFromLead(lead, newStart), signal },
  );
  return res.policy;
}

/**
 * The lead's start date (ISO day) when it lies before today: the service refuses such a
 * conversion (409 `term.start_in_past`), so the page asks for a new start first. Null otherwise.
 */
export function pastStartOf(lead: Lead, todayMs: number): string | null {
  const start = lead.policy.policyObjects
    .map((object) => object.data.policyStartDate)
    .find((value): value is string => typeof value === 'string');
  if (!start) return null;
  const today = new Date(todayMs).toISOString().slice(0, 10);
  return start.slice(0, 10) < today ? start.slice(0, 10) : null;
}
