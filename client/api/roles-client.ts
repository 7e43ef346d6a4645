import { fetchJson } from './fetch-json.ts';
import { ROLES_PAGE_SIZE, listParams, type ListQuery, type Page } from './tenant-admin-client.ts';
import type { EffectivePermission, Role } from '#common/contracts/tenant.ts';
import type { NameLabels } from '#common/name-labels.ts';

// The records' types are the tenantservice's contract (common/contracts/tenant.ts).
export type {
  EffectivePermission,
  Permission as RolePermission,
  Role,
} from '#common/contracts/tenant.ts';

/**
 * Roles and effective permissions of the tenant service through the BFF proxy
 * (docs/contracts.md, "Administration and registration"). One function per request; each takes
 * an AbortSignal.
 */

export interface RoleInput {
  label: string;
  /** The label per language; left out, the saved translations stay. */
  labels?: NameLabels;
  description: string;
  /** The description per language; left out, the saved translations stay. */
  descriptionLabels?: NameLabels;
  permissions: string[];
}

export interface RolesQuery {
  page?: number;
  /** The service's `module` filter: roles that reach into the module (wildcards included). */
  module?: string | undefined;
  order?: ListQuery['order'];
}

const base = (accountIndex: number) => `/api/${accountIndex}/tenantservice/v1`;

/** The roles list's query (the CSV export of the list repeats it). */
export function rolesParams(query: RolesQuery): string {
  return listParams({
    pageSize: ROLES_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    filter: { module: query.module },
    order: query.order ?? null,
  });
}

export function listRoles(
  accountIndex: number,
  query: RolesQuery,
  signal?: AbortSignal,
): Promise<Page<Role>> {
  return fetchJson(`${base(accountIndex)}/roles?${rolesParams(query)}`, { signal });
}

export function getRole(
  accountIndex: number,
  id: string,
  signal?: AbortSignal,
): Promise<{ role: Role }> {
  return fetchJson(`${base(accountIndex)}/roles/${encodeURIComponent(id)}`, { signal });
}

/** 201 with the role; 409 `role_code_taken`, 403 `escalation`. */
export function createRole(
  accountIndex: number,
  body: RoleInput & { code: string },
  signal?: AbortSignal,
): Promise<{ role: Role }> {
  return fetchJson(`${base(accountIndex)}/roles`, { method: 'POST', body, signal });
}

/** Replaces label, description and permissions; 403 `escalation`. */
export function updateRole(
  accountIndex: number,
  id: number,
  body: RoleInput,
  signal?: AbortSignal,
): Promise<{ role: Role }> {
  return fetchJson(`${base(accountIndex)}/roles/${id}`, { method: 'PUT', body, signal });
}

/** 204; 409 `role_in_use` while users hold it, 403 `escalation`. */
export function deleteRole(accountIndex: number, id: number, signal?: AbortSignal): Promise<void> {
  return fetchJson(`${base(accountIndex)}/roles/${id}`, { method: 'DELETE', signal });
}

export function getEffectivePermissions(
  accountIndex: number,
  userId: string,
  signal?: AbortSignal,
): Promise<{ items: EffectivePermission[] }> {
  return fetchJson(
    `${base(accountIndex)}/users/${encodeURIComponent(userId)}/effective-permissions`,
    { signal },
  );
}

export interface UserWithRoles {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  roles: { id: number; code: string; label: string; labels?: NameLabels }[];
}

/** The user the effective permissions belong to, with the labels of their roles. */
export function getUserWithRoles(
  accountIndex: number,
  userId: string,
  signal?: AbortSignal,
): Promise<{ user: UserWithRoles }> {
  return fetchJson(`${base(accountIndex)}/users/${encodeURIComponent(userId)}?expand=roles`, {
    signal,
  });
}
