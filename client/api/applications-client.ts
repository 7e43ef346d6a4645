import type { ObjectDataIssue } from '#common/policy-object-data.ts';
import { fetchJson } from './fetch-json.ts';
import type {
  Policy,
  PolicyCalculateInput,
  PolicyCreateInput,
  PremiumCalculation,
} from '#common/contracts/policy.ts';

// The answers' types are the policy contract (common/contracts/policy.ts).
export type { PremiumCalculation };

/**
 * Applications of the insurance service through the BFF proxy (docs/contracts.md, "Insurance:
 * policies", "Policy writes", and "Insurance: applications and premium quotes"): the premium of
 * an application being filled in, and selling it as a policy. One function per request; each
 * takes an AbortSignal.
 */

const base = (accountIndex: number) => `/api/${accountIndex}/insuranceservice/v1`;

/**
 * The premium of the data as it stands. Incomplete data is a normal answer (`premium: null`
 * with the missing fields); wrong values are a 400 `validation_error` whose body carries
 * `issues`; a formula the tariff cannot evaluate is a 422 `calculation_failed`.
 */
export function calculatePremium(
  accountIndex: number,
  body: PolicyCalculateInput,
  signal: AbortSignal,
): Promise<PremiumCalculation> {
  return fetchJson(`${base(accountIndex)}/premiums/calculate`, { method: 'POST', body, signal });
}

/** What the application form sells: always on a customer account (the contract's body allows a holder). */
export type NewPolicyInput = PolicyCreateInput & { accountCode: string };

/** What the form needs of the created policy (the answer is the whole policy). */
export type CreatedPolicy = Pick<Policy, 'id' | 'code' | 'policyNumber' | 'productName'>;

/**
 * Sells the application as a policy. 400 `validation_error` with `issues` (the fields' codes of
 * common/policy-object-data.ts, `unknown_account`, `unknown_product_version`); 409
 * `product_version_not_active` when the version no longer sells.
 */
export async function createPolicy(
  accountIndex: number,
  body: NewPolicyInput,
  signal?: AbortSignal,
): Promise<CreatedPolicy> {
  const res = await fetchJson<{ policy: CreatedPolicy }>(`${base(accountIndex)}/policies`, {
    method: 'POST',
    body,
    signal,
  });
  return res.policy;
}

/** The issues of a 400 `validation_error` body; [] for anything else. */
export function issuesOf(body: unknown): { path: string; code: string }[] {
  const issues = (body as { issues?: unknown } | null | undefined)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter(
    (issue): issue is ObjectDataIssue =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof (issue as { path?: unknown }).path === 'string' &&
      typeof (issue as { code?: unknown }).code === 'string',
  );
}
