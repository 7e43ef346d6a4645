import type { AccountInput } from '#common/account-fields.ts';
import { partyName, type NamedParty } from '#common/party-name.ts';
import { fetchJson } from './fetch-json.ts';
import { listParams, type ListQuery, type Page } from './tenant-admin-client.ts';
import type { Account, AccountPatchInput, AccountUpdateInput } from '#common/contracts/account.ts';

// The record's type is the accountservice's contract (common/contracts/account.ts).
export type { Account };

/**
 * Customer accounts of the accountservice through the BFF proxy (docs/contracts.md, "Insurance:
 * customers and partners"). One function per request; each takes an AbortSignal.
 */

export const ACCOUNTS_PAGE_SIZE = 30;

export interface AccountsQuery {
  page?: number;
  /** The previous page's nextPageToken (a keyset token: wins over `page`). */
  pageToken?: string;
  search?: string;
  type?: Account['type'] | undefined;
  city?: string | undefined;
  order?: ListQuery['order'];
}

const base = (accountIndex: number) => `/api/${accountIndex}/accountservice/v1`;

/** The list's query string; the CSV export sends the same one. */
export function accountsParams(query: AccountsQuery): string {
  return listParams({
    pageSize: ACCOUNTS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    ...(query.pageToken ? { pageToken: query.pageToken } : {}),
    filter: { type: query.type, city: query.city },
    order: query.order ?? null,
    ...(query.search !== undefined ? { search: query.search } : {}),
  });
}

export function listAccounts(
  accountIndex: number,
  query: AccountsQuery,
  signal?: AbortSignal,
): Promise<Page<Account>> {
  return fetchJson(`${base(accountIndex)}/accounts?${accountsParams(query)}`, { signal });
}

/** `ref` is the account's id or its code (`acc_...`). */
export function getAccount(
  accountIndex: number,
  ref: string,
  signal?: AbortSignal,
): Promise<{ account: Account }> {
  return fetchJson(`${base(accountIndex)}/accounts/${encodeURIComponent(ref)}`, { signal });
}

/**
 * Saves the edit made on top of `version`. When somebody saved in between, the service answers
 * 409 `version_conflict` and the ApiError's body carries the current `account`.
 */
export function updateAccount(
  accountIndex: number,
  code: string,
  values: AccountUpdateInput,
  signal?: AbortSignal,
): Promise<{ account: Account }> {
  return fetchJson(`${base(accountIndex)}/accounts/${encodeURIComponent(code)}`, {
    method: 'PUT',
    body: values,
    signal,
  });
}

/**
 * Saves only the fields the user changed, on top of `version`; the others keep what is saved,
 * whoever saved it. A 409 `version_conflict` carries the current `account` as updateAccount's.
 */
export function patchAccount(
  accountIndex: number,
  code: string,
  changes: AccountPatchInput,
  signal?: AbortSignal,
): Promise<{ account: Account }> {
  return fetchJson(`${base(accountIndex)}/accounts/${encodeURIComponent(code)}`, {
    method: 'PATCH',
    body: changes,
    signal,
  });
}

export function createAccount(
  accountIndex: number,
  values: AccountInput,
  signal?: AbortSignal,
): Promise<{ account: Account }> {
  return fetchJson(`${base(accountIndex)}/accounts`, { method: 'POST', body: values, signal });
}

/**
 * The name a customer is shown by: the company, or title, first and last name. The rule is the
 * one policy holders, applicants and the CSV export use (common/party-name.ts).
 */
export function displayNameOf(account: NamedParty): string {
  return partyName(account);
}
