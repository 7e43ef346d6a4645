import type { PolicyStatus } from '#common/policy-lifecycle.ts';
import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';

/**
 * Policies of the insurance service through the BFF proxy (docs/contracts.md, "Insurance:
 * policies"). One function per request; each takes an AbortSignal.
 */

const base = (accountIndex: number) => `/api/${accountIndex}/insuranceservice/v1`;

/** Spec, section 9: list default 30. */
export const POLICIES_PAGE_SIZE = 30;

export {
  POLICY_STATUSES,
  isPolicyStatus,
  type PolicyStatus,
  type RevisionStatus,
} from '#common/policy-lifecycle.ts';
import type {
  Policy,
  PolicyDraftPatchInput,
  PolicyRestoreInput,
  PolicyRow,
  PolicyTerminateInput,
  PolicyWithdrawInput,
  TerminationFigures,
} from '#common/contracts/policy.ts';

// The records' types are the policy contract (common/contracts/policy.ts).
export type {
  PartyHolder as PolicyHolder,
  Policy,
  PolicyObject,
  PolicyRow,
  PolicyVersion,
  TerminationFigures,
  Timeslice,
} from '#common/contracts/policy.ts';

// One premium shape for policies, applications and the premium quote machine.
export type { Premium, PremiumItem } from '#common/premium.ts';

export interface PoliciesQuery {
  /** The previous page's nextPageToken; null for the first page. */
  pageToken: string | null;
  statuses?: readonly PolicyStatus[];
  productSlug?: string;
  accountCode?: string;
  search?: string;
  /** By id: newest (DESC, the service's default) or oldest first. */
  order?: 'newest' | 'oldest';
  /** A column the list is sorted by (the service's field); wins over `order`. */
  sort?: { field: PolicySortField; direction: 'ASC' | 'DESC' } | null;
  pageSize?: number;
}

/** The columns the service sorts the list by (besides its id), keyset-paged on (column, id). */
export const POLICY_SORT_FIELDS = [
  'policyNumber',
  'holder',
  'productName',
  'status',
  'policyStartDate',
  'premium',
] as const;
export type PolicySortField = (typeof POLICY_SORT_FIELDS)[number];

/** The list's query string without its page token; the CSV export sends the same one. */
export function policiesParams(query: Omit<PoliciesQuery, 'pageToken'>): string {
  return listParams({
    pageSize: query.pageSize ?? POLICIES_PAGE_SIZE,
    filter: {
      status: query.statuses?.join(','),
      productSlug: query.productSlug,
      accountCode: query.accountCode,
    },
    order: query.sort ?? { field: 'id', direction: query.order === 'oldest' ? 'ASC' : 'DESC' },
    ...(query.search ? { search: query.search } : {}),
    expand: ['timelines', 'product'],
  });
}

/** A page of policies with their current timeline and product (the spec's list defaults). */
export function listPolicies(
  accountIndex: number,
  query: PoliciesQuery,
  signal: AbortSignal,
): Promise<Page<Policy>> {
  // Each premium item with its formula's unit, so that the table says the unit of the total
  // without asking for the formulas of every product version (issue 13).
  const url = policiesUrl(accountIndex, query, { expand: 'timelines,product,premiumUnits' });
  return fetchJson(url, { signal });
}

/** The list's address: its query with `set` instead of the defaults, and the page token. */
function policiesUrl(accountIndex: number, query: PoliciesQuery, set: Record<string, string>) {
  const params = new URLSearchParams(policiesParams(query));
  for (const [name, value] of Object.entries(set)) {
    if (value) params.set(name, value);
    else params.delete(name);
  }
  // The service's keyset tokens are opaque ("2.1971.d"): sent back exactly as received.
  if (query.pageToken) params.set('pageToken', query.pageToken);
  return `${base(accountIndex)}/policies?${params}`;
}

/**
 * A page of the policies list as the table shows it: rows with the current premium instead of
 * the whole timeline, made by the BFF from the upstream list (`view=row`, the BFF's parameter;
 * docs/decisions/004-list-rows.md). Same filters, order and keyset tokens as `listPolicies`.
 */
export function listPolicyRows(
  accountIndex: number,
  query: PoliciesQuery,
  signal: AbortSignal,
): Promise<Page<PolicyRow>> {
  // No expansions: the BFF sets the ones the rows are made from.
  return fetchJson(policiesUrl(accountIndex, query, { expand: '', view: 'row' }), { signal });
}

/** `ref` is the policy's id or code (`pol_...`); a 404 means "Policy does not exist". */
export async function getPolicy(
  accountIndex: number,
  ref: string,
  signal: AbortSignal,
): Promise<Policy> {
  const res = await fetchJson<{ policy: Policy }>(
    `${base(accountIndex)}/policies/${encodeURIComponent(ref)}?expand=versions,product`,
    { signal },
  );
  return res.policy;
}

// ---- lifecycle writes (docs/contracts.md, "Policy writes") -------------------------------------
// Each names the version it builds on; a stale one is a 409 `version_conflict` whose body carries
// the current `policy`. Each answers the policy as `getPolicy` does, with its versions.

const policyPath = (accountIndex: number, code: string, rest = '') =>
  `${base(accountIndex)}/policies/${encodeURIComponent(code)}${rest}`;

async function write(
  path: string,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  body: unknown,
  signal?: AbortSignal,
): Promise<Policy> {
  const res = await fetchJson<{ policy: Policy }>(path, { method, body, signal });
  return res.policy;
}

/** One object of a draft edit: its data merged key by key into the draft; null empties a field. */
export type PolicyObjectPatch = PolicyDraftPatchInput['policyObjects'][number];

export const createDraft = (
  ai: number,
  code: string,
  basedOnVersionId: number,
  signal?: AbortSignal,
) => write(policyPath(ai, code, '/draft'), 'POST', { basedOnVersionId }, signal);

export const patchDraft = (
  ai: number,
  code: string,
  body: PolicyDraftPatchInput,
  signal?: AbortSignal,
) => write(policyPath(ai, code, '/draft'), 'PATCH', body, signal);

export const deleteDraft = (
  ai: number,
  code: string,
  basedOnVersionId: number,
  signal?: AbortSignal,
) => write(policyPath(ai, code, '/draft'), 'DELETE', { basedOnVersionId }, signal);

/** The spec's `PUT /policies/{id}`: the draft becomes the current version. */
export const applyDraft = (
  ai: number,
  code: string,
  basedOnVersionId: number,
  signal?: AbortSignal,
) => write(policyPath(ai, code), 'PUT', { basedOnVersionId }, signal);

export const terminatePolicy = (
  ai: number,
  code: string,
  body: PolicyTerminateInput,
  signal?: AbortSignal,
) => write(policyPath(ai, code, '/terminate'), 'POST', body, signal);

/** What terminating on that date would store: the earned premium and the refund (a 400 outside). */
export async function previewTermination(
  ai: number,
  code: string,
  terminationDate: string,
  signal?: AbortSignal,
): Promise<TerminationFigures> {
  const res = await fetchJson<{ termination: TerminationFigures }>(
    policyPath(ai, code, '/termination-preview'),
    { method: 'POST', body: { terminationDate }, signal },
  );
  return res.termination;
}

export const withdrawPolicy = (
  ai: number,
  code: string,
  body: PolicyWithdrawInput,
  signal?: AbortSignal,
) => write(policyPath(ai, code, '/withdraw'), 'POST', body, signal);

export const restorePolicyVersion = (
  ai: number,
  code: string,
  body: PolicyRestoreInput,
  signal?: AbortSignal,
) => write(policyPath(ai, code, '/restore-policy-version'), 'POST', body, signal);
