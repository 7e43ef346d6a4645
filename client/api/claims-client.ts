import type { ClaimType } from '#common/claims.ts';
import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';
import type { TransitionRule } from './leads-client.ts';
import type {
  Claim,
  ClaimCancelInput,
  ClaimCreateInput,
  ClaimPatchInput,
  SettlementCreateInput,
  SettlementUpdateInput,
  PaymentDecisionInput,
  PaymentReversalInput,
  ClaimPartner,
  ClaimPartnerLinkInput,
  ClaimPartnerRole,
  ClaimStatus,
  Settlement,
} from '#common/contracts/claim.ts';

// The records' types are the claim contract (common/contracts/claim.ts).
export type {
  Claim,
  ClaimPartner,
  ClaimPartnerLinkInput,
  ClaimPartnerRole,
  ClaimStatus,
  ClaimTotals,
  Settlement,
} from '#common/contracts/claim.ts';
export type { PartyHolder as ClaimHolder } from '#common/contracts/policy.ts';

/**
 * Claims, their settlements and partners of the claim service through the BFF proxy
 * (docs/contracts.md, "Claims (sandbox)"). One function per request; each takes an AbortSignal.
 * Refused writes are ApiErrors: 400 `validation_error` with `{field}: {code}` (codes of
 * common/claims.ts), 409 `version_conflict`, `illegal_transition` or `claim_closed` whose body
 * carries the current `claim` (or `settlement`), 409 `duplicate` for a partner linked twice.
 */

export { CLAIM_TYPES, type ClaimType } from '#common/claims.ts';

/** Spec: lists default to 30; the service takes up to 100. */
export const CLAIMS_PAGE_SIZE = 30;
/** A claim has few settlements and partners: one page of the service's maximum. */
export const CLAIM_PARTS_PAGE_SIZE = 100;

const base = (accountIndex: number) => `/api/${accountIndex}/claimservice/v1`;
const path = (accountIndex: number, rest: string) => `${base(accountIndex)}${rest}`;

/** The fields a claim form edits, and those of a settlement: the contract's bodies' fields. */
export type {
  ClaimFieldsInput as ClaimFieldsBody,
  SettlementFieldsInput as SettlementFieldsBody,
} from '#common/claims.ts';

/** What a refused write carries (see the module comment). */
export interface ClaimErrorBody {
  error: string;
  message: string;
  claim?: Claim;
  settlement?: Settlement;
}

export type ClaimOrderField =
  'createdAt' | 'claimNumber' | 'damageDate' | 'status' | 'title' | 'policyNumber' | 'holder';

export interface ClaimsQuery {
  page?: number;
  /** The previous page's nextPageToken (a keyset token: wins over `page`). */
  pageToken?: string;
  pageSize?: number;
  search?: string;
  /** Any of these statuses. */
  statuses?: readonly string[];
  claimType?: ClaimType | undefined;
  policyCode?: string | undefined;
  accountCode?: string | undefined;
  productId?: number | undefined;
  /** Default: createdAt, newest first. */
  order?: { field: ClaimOrderField; direction: 'ASC' | 'DESC' } | null;
}

/** The list's query string (the CSV export sends the same one). */
export function claimsParams(query: ClaimsQuery): string {
  return listParams({
    pageSize: query.pageSize ?? CLAIMS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    ...(query.pageToken ? { pageToken: query.pageToken } : {}),
    filter: {
      status: query.statuses?.length ? query.statuses.join(',') : undefined,
      claimType: query.claimType,
      policyCode: query.policyCode,
      accountCode: query.accountCode,
      productId: query.productId === undefined ? undefined : String(query.productId),
    },
    order: query.order ?? null,
    ...(query.search !== undefined ? { search: query.search } : {}),
  });
}

export function listClaims(
  accountIndex: number,
  query: ClaimsQuery,
  signal?: AbortSignal,
): Promise<Page<Claim>> {
  return fetchJson(path(accountIndex, `/claims?${claimsParams(query)}`), { signal });
}

/** `ref` is the claim's id or its code (`clm_...`); a 404 means "Claim does not exist". */
export async function getClaim(accountIndex: number, ref: string, signal?: AbortSignal) {
  const res = await fetchJson<{ claim: Claim }>(
    path(accountIndex, `/claims/${encodeURIComponent(ref)}`),
    { signal },
  );
  return res.claim;
}

/** A new claim on a policy; it starts in the tenant's first status. */
export async function createClaim(
  accountIndex: number,
  body: ClaimCreateInput,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ claim: Claim }>(path(accountIndex, '/claims'), {
    method: 'POST',
    body,
    signal,
  });
  return res.claim;
}

/** Changes some fields, or moves the status, on top of `version`. */
export async function updateClaim(
  accountIndex: number,
  code: string,
  changes: ClaimPatchInput,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ claim: Claim }>(
    path(accountIndex, `/claims/${encodeURIComponent(code)}`),
    { method: 'PATCH', body: changes, signal },
  );
  return res.claim;
}

/** A status move alone: 409 `illegal_transition` when the tenant's rules forbid it. */
export function moveClaim(
  accountIndex: number,
  code: string,
  status: string,
  version: number,
  signal?: AbortSignal,
) {
  return updateClaim(accountIndex, code, { status, version }, signal);
}

/**
 * Cancels the claim with a reason (issue 15): it is closed, its settlements stay. What a claim
 * holding money gets instead of a delete.
 */
export async function cancelClaim(
  accountIndex: number,
  code: string,
  body: ClaimCancelInput,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ claim: Claim }>(
    path(accountIndex, `/claims/${encodeURIComponent(code)}/cancel`),
    { method: 'POST', body, signal },
  );
  return res.claim;
}

/**
 * Deletes the claim with its partner links and documents; 409 `claim_has_settlements` when it
 * has settlements (money is never deleted: cancel it).
 */
export async function deleteClaim(
  accountIndex: number,
  code: string,
  version: number,
  signal?: AbortSignal,
): Promise<void> {
  await fetchJson(path(accountIndex, `/claims/${encodeURIComponent(code)}?version=${version}`), {
    method: 'DELETE',
    signal,
  });
}

/** In the service's order; the spec's screens sort them by name. */
export async function listClaimStatuses(accountIndex: number, signal?: AbortSignal) {
  const res = await fetchJson<Page<ClaimStatus>>(path(accountIndex, '/claim-statuses'), {
    signal,
  });
  return res.items;
}

/** The claim status moves of the tenant (served beside the lead rules, entity type claim). */
export async function listClaimRules(accountIndex: number, signal?: AbortSignal) {
  const res = await fetchJson<Page<TransitionRule>>(
    `/api/${accountIndex}/insuranceservice/v1/status-transitions/rules?filter=entityType%3Dclaim`,
    { signal },
  );
  return res.items;
}

export async function listClaimPartnerRoles(accountIndex: number, signal?: AbortSignal) {
  const res = await fetchJson<Page<ClaimPartnerRole>>(path(accountIndex, '/claim-partner-roles'), {
    signal,
  });
  return res.items;
}

/** The partners of a claim with the partner and the role expanded. */
export function listClaimPartners(
  accountIndex: number,
  claimCode: string,
  signal?: AbortSignal,
): Promise<Page<ClaimPartner>> {
  const params = listParams({
    pageSize: CLAIM_PARTS_PAGE_SIZE,
    filter: { claimCode },
    expand: ['partner', 'role'],
  });
  return fetchJson(path(accountIndex, `/claim-partners?${params}`), { signal });
}

/** 400 `partnerCode: unknown_partner`, 409 `duplicate` for the same partner in the same role. */
export async function linkClaimPartner(
  accountIndex: number,
  claimCode: string,
  body: ClaimPartnerLinkInput,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ claimPartner: ClaimPartner }>(
    path(accountIndex, `/claims/${encodeURIComponent(claimCode)}/partner`),
    { method: 'POST', body, signal },
  );
  return res.claimPartner;
}

export async function removeClaimPartner(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  await fetchJson(path(accountIndex, `/claim-partners/${id}`), { method: 'DELETE', signal });
}

export function listSettlements(
  accountIndex: number,
  claimCode: string,
  signal?: AbortSignal,
): Promise<Page<Settlement>> {
  const params = listParams({ pageSize: CLAIM_PARTS_PAGE_SIZE, filter: { claimCode } });
  return fetchJson(path(accountIndex, `/settlements?${params}`), { signal });
}

export async function getSettlement(accountIndex: number, ref: string, signal?: AbortSignal) {
  const res = await fetchJson<{ settlement: Settlement }>(
    path(accountIndex, `/settlements/${encodeURIComponent(ref)}`),
    { signal },
  );
  return res.settlement;
}

/** 400 `insuredObject: unknown_insured_object` unless a policy object of the claim's policy. */
export async function createSettlement(
  accountIndex: number,
  body: SettlementCreateInput,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ settlement: Settlement }>(path(accountIndex, '/settlements'), {
    method: 'POST',
    body,
    signal,
  });
  return res.settlement;
}

export async function updateSettlement(
  accountIndex: number,
  code: string,
  body: SettlementUpdateInput,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ settlement: Settlement }>(
    path(accountIndex, `/settlements/${encodeURIComponent(code)}`),
    { method: 'PUT', body, signal },
  );
  return res.settlement;
}

export async function deleteSettlement(
  accountIndex: number,
  code: string,
  signal?: AbortSignal,
): Promise<void> {
  await fetchJson(path(accountIndex, `/settlements/${encodeURIComponent(code)}`), {
    method: 'DELETE',
    signal,
  });
}

/** A decision on one settlement (`/settlements/{code}/{action}`), answered by the settlement. */
async function settlementAction<B>(
  accountIndex: number,
  code: string,
  action: 'payment-reversal' | 'payment-decision',
  body: B,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ settlement: Settlement }>(
    path(accountIndex, `/settlements/${encodeURIComponent(code)}/${action}`),
    { method: 'POST', body, signal },
  );
  return res.settlement;
}

/** Reverses what is left of a settlement's booked payment: a counter-entry with a reason. */
export const reversePayment = (
  accountIndex: number,
  code: string,
  body: PaymentReversalInput,
  signal?: AbortSignal,
) => settlementAction(accountIndex, code, 'payment-reversal', body, signal);

/** Approves or rejects a settlement's payment awaiting a second person (four-eyes). */
export const decidePayment = (
  accountIndex: number,
  code: string,
  body: PaymentDecisionInput,
  signal?: AbortSignal,
) => settlementAction(accountIndex, code, 'payment-decision', body, signal);
