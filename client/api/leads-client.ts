import type { ObjectDataIssue, PolicyObjectInput } from '#common/policy-object-data.ts';
import { fetchJson } from './fetch-json.ts';
import { listParams, type ListQuery, type Page } from './tenant-admin-client.ts';
import type {
  Lead,
  LeadCreateInput,
  LeadPolicyInput,
  LeadStatus,
  LeadUpdateInput,
  LeadVersion,
} from '#common/contracts/lead.ts';
import type { TransitionRule } from '#common/contracts/shared.ts';

// The records' types are the lead contract (common/contracts/lead.ts).
export type {
  Lead,
  LeadAccount,
  LeadHolder,
  LeadPolicy,
  LeadPolicyObject,
  LeadStatus,
  LeadVersion,
  LeadVersionSummary,
  PremiumOverrideItem,
} from '#common/contracts/lead.ts';
export type { Premium } from '#common/premium.ts';
export type { TransitionRule };

/**
 * Leads (applications) of the insurance service through the BFF proxy (docs/contracts.md,
 * "Insurance: leads"). One function per request; each takes an AbortSignal.
 */

export const LEADS_PAGE_SIZE = 30;

const base = (accountIndex: number) => `/api/${accountIndex}/insuranceservice/v1`;

/**
 * The policy part of a create or edit, and the changes a save sends: the lead contract's bodies,
 * with the form's object data as it stands (unknown here; the service checks it per object).
 */
export type PolicyInput = Omit<LeadPolicyInput, 'policyObjects'> & {
  policyObjects: PolicyObjectInput[];
};
export type LeadChanges = Omit<LeadCreateInput, 'policy'> & { policy?: PolicyInput };

/** What a refused save carries: the current lead (409) or the policy data issues (400). */
export interface LeadErrorBody {
  error: string;
  message: string;
  lead?: Lead;
  issues?: ObjectDataIssue[];
}

export interface LeadsQuery {
  page?: number;
  /** The previous page's nextPageToken (a keyset token: wins over `page`). */
  pageToken?: string;
  search?: string;
  status?: string | undefined;
  productSlug?: string | undefined;
  accountCode?: string | undefined;
  order?: ListQuery['order'];
  pageSize?: number;
}

/** The list's query string; the CSV export sends the same one. */
export function leadsParams(query: LeadsQuery): string {
  return listParams({
    pageSize: query.pageSize ?? LEADS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    ...(query.pageToken ? { pageToken: query.pageToken } : {}),
    filter: {
      status: query.status,
      productSlug: query.productSlug,
      accountCode: query.accountCode,
    },
    order: query.order ?? null,
    ...(query.search !== undefined ? { search: query.search } : {}),
  });
}

export function listLeads(
  accountIndex: number,
  query: LeadsQuery,
  signal?: AbortSignal,
): Promise<Page<Lead>> {
  return fetchJson(`${base(accountIndex)}/leads?${leadsParams(query)}`, { signal });
}

/** `ref` is the lead's id or its code (`lea_...`); the answer carries its versions. */
export async function getLead(accountIndex: number, ref: string, signal?: AbortSignal) {
  const res = await fetchJson<{ lead: Lead }>(
    `${base(accountIndex)}/leads/${encodeURIComponent(ref)}`,
    { signal },
  );
  return res.lead;
}

export async function getLeadVersion(
  accountIndex: number,
  code: string,
  version: number,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ leadVersion: LeadVersion }>(
    `${base(accountIndex)}/leads/${encodeURIComponent(code)}/versions/${version}`,
    { signal },
  );
  return res.leadVersion;
}

export async function createLead(
  accountIndex: number,
  body: LeadChanges & { policy: PolicyInput },
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ lead: Lead }>(`${base(accountIndex)}/leads`, {
    method: 'POST',
    body,
    signal,
  });
  return res.lead;
}

/**
 * Saves the changes made on top of `version`. A stale version answers 409 `version_conflict`, a
 * move the status rules forbid 409 `illegal_transition`; both ApiErrors carry the current `lead`.
 */
export async function updateLead(
  accountIndex: number,
  code: string,
  changes: LeadChanges & Pick<LeadUpdateInput, 'version'>,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ lead: Lead }>(
    `${base(accountIndex)}/leads/${encodeURIComponent(code)}`,
    { method: 'PATCH', body: changes, signal },
  );
  return res.lead;
}

export async function listLeadStatuses(accountIndex: number, signal?: AbortSignal) {
  const res = await fetchJson<Page<LeadStatus>>(`${base(accountIndex)}/lead-statuses`, { signal });
  return res.items;
}

export async function listLeadRules(accountIndex: number, signal?: AbortSignal) {
  const res = await fetchJson<Page<TransitionRule>>(
    `${base(accountIndex)}/status-transitions/rules?filter=entityType%3Dlead`,
    { signal },
  );
  return res.items;
}
