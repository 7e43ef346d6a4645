import { fetchJson } from './fetch-json.ts';
import type { NameLabels } from '#common/name-labels.ts';
import type {
  AdminUser,
  Invite,
  UserCreateInput,
  UserSession,
  UserStatus,
  UserUpdateInput,
} from '#common/contracts/tenant.ts';

// The records' types are the tenantservice's contract (common/contracts/tenant.ts).
export type { AdminUser, Invite, UserSession, UserStatus };

/**
 * User administration of the tenant service through the BFF proxy (docs/contracts.md,
 * "Administration and registration"). One function per request; each takes an AbortSignal.
 */

export interface RoleRef {
  id: number;
  code: string;
  label: string;
  /** The label per language (issue 16). */
  labels?: NameLabels;
  description?: string;
  /** The description per language (issue 16). */
  descriptionLabels?: NameLabels;
  permissions?: { code: string; module: string }[];
}

export interface OrganizationRef {
  id: number;
  code?: string;
  name: string;
}

export interface Page<T> {
  items: T[];
  nextPageToken: string | null;
  /** The whole filtered list's count, where the service answers it (upstream contract). */
  totalItems?: number;
}

export interface BatchResult<K extends 'id' | 'email' = 'id'> {
  results: (Record<K, K extends 'id' ? number : string> & { ok: boolean; error?: string })[];
}

export const USERS_PAGE_SIZE = 30;
export const ROLES_PAGE_SIZE = 50;

export interface ListQuery {
  pageSize: number;
  /** 1-based; the spec sends pageToken only above 1. */
  page?: number;
  /**
   * The previous page's nextPageToken, passed back as it came (wins over `page`): a keyset list's
   * token carries its sort and total, which a page number would lose.
   */
  pageToken?: string | null;
  filter?: Record<string, string | undefined>;
  order?: { field: string; direction: 'ASC' | 'DESC' } | null;
  search?: string;
  expand?: string[];
}

/**
 * A filter value with the characters that would end or split it (`&`, `=`) and `%` itself
 * percent-encoded, so that the city `Bad & Bunt` stays one value; the sandbox decodes each value
 * (docs/contracts.md, "List filters"). Other characters stay as they are: `status=open,approved`
 * reads the same as before.
 */
const filterValue = (value: string) => value.replace(/[%&=]/g, (c) => encodeURIComponent(c));

/** The spec's shared list parameters (section 7): filter `a=b&c=d`, order `field:ASC`. */
export function listParams(query: ListQuery): string {
  const params = new URLSearchParams({ pageSize: String(query.pageSize) });
  if (query.pageToken) params.set('pageToken', query.pageToken);
  else if (query.page !== undefined && query.page > 1) params.set('pageToken', String(query.page));
  const filter = Object.entries(query.filter ?? {})
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${filterValue(value!)}`)
    .join('&');
  if (filter) params.set('filter', filter);
  if (query.order) params.set('order', `${query.order.field}:${query.order.direction}`);
  if (query.search?.trim()) params.set('search', query.search.trim());
  if (query.expand?.length) params.set('expand', query.expand.join(','));
  return params.toString();
}

const base = (accountIndex: number) => `/api/${accountIndex}/tenantservice/v1`;

export interface UsersQuery {
  page?: number;
  status?: UserStatus | undefined;
  roleId?: number | undefined;
  search?: string;
  order?: ListQuery['order'];
}

/** The users list's query (the CSV export of the list repeats it). */
export function usersParams(query: UsersQuery): string {
  return listParams({
    pageSize: USERS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    filter: {
      status: query.status,
      roleId: query.roleId === undefined ? undefined : String(query.roleId),
    },
    order: query.order ?? null,
    ...(query.search !== undefined ? { search: query.search } : {}),
    expand: ['roles', 'organizations'],
  });
}

export function listUsers(
  accountIndex: number,
  query: UsersQuery,
  signal?: AbortSignal,
): Promise<Page<AdminUser>> {
  return fetchJson(`${base(accountIndex)}/users?${usersParams(query)}`, { signal });
}

export type UserAction = 'enable' | 'disable' | 'delete';

/** Enable, disable or delete several users; unknown or refused ids are per-id errors. */
export function userBatch(
  accountIndex: number,
  action: UserAction,
  ids: readonly number[],
  signal?: AbortSignal,
): Promise<BatchResult> {
  return fetchJson(`${base(accountIndex)}/users/${action}-batch`, {
    method: 'POST',
    body: { ids },
    signal,
  });
}

/** The service has no single enable/disable endpoint: one user is a batch of one. */
export async function setUserEnabled(
  accountIndex: number,
  id: number,
  enabled: boolean,
  signal?: AbortSignal,
): Promise<BatchResult> {
  return userBatch(accountIndex, enabled ? 'enable' : 'disable', [id], signal);
}

export function deleteUser(accountIndex: number, id: number, signal?: AbortSignal): Promise<void> {
  return fetchJson(`${base(accountIndex)}/users/${id}`, { method: 'DELETE', signal });
}

export function assignRoles(
  accountIndex: number,
  id: number,
  roleIds: readonly number[],
  signal?: AbortSignal,
): Promise<{ user: AdminUser }> {
  return fetchJson(`${base(accountIndex)}/users/${id}/assign-roles`, {
    method: 'POST',
    body: { roleIds },
    signal,
  });
}

export function listRoles(
  accountIndex: number,
  page = 1,
  signal?: AbortSignal,
): Promise<Page<RoleRef>> {
  const params = listParams({ pageSize: ROLES_PAGE_SIZE, page, order: null });
  return fetchJson(`${base(accountIndex)}/roles?${params}`, { signal });
}

export function listOrganizations(
  accountIndex: number,
  page = 1,
  signal?: AbortSignal,
): Promise<Page<OrganizationRef>> {
  const params = listParams({
    pageSize: ROLES_PAGE_SIZE,
    page,
    order: { field: 'name', direction: 'ASC' },
  });
  return fetchJson(`${base(accountIndex)}/organizations?${params}`, { signal });
}

/** The open invitations' query (the CSV export of the list repeats it). */
export function invitesParams(query: { page?: number; search?: string }): string {
  return listParams({
    pageSize: USERS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    order: { field: 'email', direction: 'ASC' },
    ...(query.search !== undefined ? { search: query.search } : {}),
    expand: ['roles', 'organization'],
  });
}

export function listInvites(
  accountIndex: number,
  page = 1,
  signal?: AbortSignal,
  search?: string,
): Promise<Page<Invite>> {
  const params = invitesParams({ page, ...(search !== undefined ? { search } : {}) });
  return fetchJson(`${base(accountIndex)}/users/invites?${params}`, { signal });
}

export function createInvites(
  accountIndex: number,
  body: { emails: string[]; organizationId: number | null; roleIds: number[] },
  signal?: AbortSignal,
): Promise<BatchResult<'email'>> {
  return fetchJson(`${base(accountIndex)}/users/invites/batch`, {
    method: 'POST',
    body,
    signal,
  });
}

export function deleteInvite(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/users/invites/${id}`, { method: 'DELETE', signal });
}

export function deleteInvites(
  accountIndex: number,
  ids: readonly number[],
  signal?: AbortSignal,
): Promise<BatchResult> {
  return fetchJson(`${base(accountIndex)}/users/invites/delete-batch`, {
    method: 'POST',
    body: { ids },
    signal,
  });
}

/** Fetches every page of a small list (roles, organisations) for a select or checkboxes. */
export async function listAll<T>(
  load: (page: number, signal?: AbortSignal) => Promise<Page<T>>,
  signal?: AbortSignal,
): Promise<T[]> {
  const items: T[] = [];
  // A hard stop: these lists are small, a runaway token must not loop forever.
  for (let page = 1; page <= 20; page++) {
    const result = await load(page, signal);
    items.push(...result.items);
    if (!result.nextPageToken) break;
  }
  return items;
}

// ---- the user page (issue 16) ------------------------------------------------------------------

/** One user with roles, for the user page. */
export async function getUser(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<AdminUser> {
  const { user } = await fetchJson<{ user: AdminUser }>(
    `${base(accountIndex)}/users/${id}?expand=roles`,
    { signal },
  );
  return user;
}

/** Name and e-mail on top of `version`; a 409 `version_conflict` carries the current user. */
export async function updateUser(
  accountIndex: number,
  id: number,
  body: UserUpdateInput,
  signal?: AbortSignal,
): Promise<AdminUser> {
  const { user } = await fetchJson<{ user: AdminUser }>(`${base(accountIndex)}/users/${id}`, {
    method: 'PUT',
    body,
    signal,
  });
  return user;
}

/** Creates an active user; the sandbox e-mails a link to set the password. */
export async function createUser(
  accountIndex: number,
  body: UserCreateInput,
  signal?: AbortSignal,
): Promise<AdminUser> {
  const { user } = await fetchJson<{ user: AdminUser }>(`${base(accountIndex)}/users`, {
    method: 'POST',
    body,
    signal,
  });
  return user;
}

export function sendPasswordReset(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/users/${id}/reset-password`, {
    method: 'POST',
    body: {},
    signal,
  });
}

/** The required action "change password at the next sign-in", on or off. */
export async function setChangePasswordRequired(
  accountIndex: number,
  id: number,
  changePassword: boolean,
  signal?: AbortSignal,
): Promise<AdminUser> {
  const { user } = await fetchJson<{ user: AdminUser }>(
    `${base(accountIndex)}/users/${id}/required-actions`,
    { method: 'PUT', body: { changePassword }, signal },
  );
  return user;
}

export async function listUserSessions(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<UserSession[]> {
  const { items } = await fetchJson<{ items: UserSession[] }>(
    `${base(accountIndex)}/users/${id}/sessions`,
    { signal },
  );
  return items;
}

/** Ends one sign-in of the user: its tokens stop working at once (decision 007). */
export function endUserSession(
  accountIndex: number,
  id: number,
  sessionId: string,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/users/${id}/sessions/${encodeURIComponent(sessionId)}`, {
    method: 'DELETE',
    signal,
  });
}
