import { fetchJson } from './fetch-json.ts';
import { getCustomSchema } from './settings-client.ts';
import { listParams, type ListQuery, type Page, type RoleRef } from './tenant-admin-client.ts';
import type {
  OrgInvitationInput,
  Organization,
  OrganizationInput,
  OrganizationUpdateInput,
} from '#common/contracts/tenant.ts';

// The record's type is the tenantservice's contract (common/contracts/tenant.ts).
export type { Organization };

/**
 * Organisations and organisation invitations of the tenant service through the BFF proxy
 * (docs/contracts.md, "Administration and registration"). One function per request; each takes
 * an AbortSignal.
 */

export const ORGANIZATIONS_PAGE_SIZE = 30;

/** The address of the spec's organisation form: all five required. */
export interface OrganizationAddress {
  street: string;
  houseNumber: string;
  zipCode: string;
  city: string;
  country: string;
}

export interface OrganizationUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  status: 'active' | 'disabled' | 'invited';
  roles?: RoleRef[];
}

export interface OrganizationInvitation extends OrganizationAddress {
  id: number;
  email: string;
  name: string;
  slug: string;
  customFields: Record<string, unknown>;
  expiresAt: string;
  isExpired: boolean;
  roles?: RoleRef[];
  createdAt: string;
}

/** A custom schema as the service keeps it (fields as in `#client/ui/form/custom-schema.ts`). */
export interface CustomSchemaRecord {
  id: number;
  entity: string;
  fields: unknown[];
}

export type SortOrder = ListQuery['order'];

const base = (accountIndex: number) => `/api/${accountIndex}/tenantservice/v1`;

/** A page of a searchable, sortable list. */
export interface SearchQuery {
  page?: number;
  search?: string;
  order?: SortOrder;
}

/** The organisations list's query (the CSV export of the list repeats it). */
export function organizationsParams(query: SearchQuery): string {
  return listParams({
    pageSize: ORGANIZATIONS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    order: query.order ?? null,
    ...(query.search !== undefined ? { search: query.search } : {}),
  });
}

export function listOrganizations(
  accountIndex: number,
  query: SearchQuery,
  signal?: AbortSignal,
): Promise<Page<Organization>> {
  return fetchJson(`${base(accountIndex)}/organizations?${organizationsParams(query)}`, {
    signal,
  });
}

export function getOrganization(
  accountIndex: number,
  id: string,
  signal?: AbortSignal,
): Promise<{ organization: Organization }> {
  return fetchJson(`${base(accountIndex)}/organizations/${encodeURIComponent(id)}`, { signal });
}

export function createOrganization(
  accountIndex: number,
  body: OrganizationInput,
  signal?: AbortSignal,
): Promise<{ organization: Organization }> {
  return fetchJson(`${base(accountIndex)}/organizations`, { method: 'POST', body, signal });
}

/** The name stays as it is (read-only); custom fields left out keep their values. */
export function updateOrganization(
  accountIndex: number,
  id: number,
  body: OrganizationUpdateInput,
  signal?: AbortSignal,
): Promise<{ organization: Organization }> {
  return fetchJson(`${base(accountIndex)}/organizations/${id}`, { method: 'PUT', body, signal });
}

/** The users of one organisation: the users list with the organizationId filter. */
export function listOrganizationUsers(
  accountIndex: number,
  organizationId: number,
  query: { page?: number; order?: SortOrder },
  signal?: AbortSignal,
): Promise<Page<OrganizationUser>> {
  const params = listParams({
    pageSize: ORGANIZATIONS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    filter: { organizationId: String(organizationId) },
    order: query.order ?? null,
    expand: ['roles'],
  });
  return fetchJson(`${base(accountIndex)}/users?${params}`, { signal });
}

/** The organisation invitations' query (the CSV export of the list repeats it). */
export function organizationInvitationsParams(query: SearchQuery): string {
  return listParams({
    pageSize: ORGANIZATIONS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    order: query.order ?? null,
    ...(query.search !== undefined ? { search: query.search } : {}),
    expand: ['roles'],
  });
}

export function listOrganizationInvitations(
  accountIndex: number,
  query: SearchQuery,
  signal?: AbortSignal,
): Promise<Page<OrganizationInvitation>> {
  const params = organizationInvitationsParams(query);
  return fetchJson(`${base(accountIndex)}/invitations/organizations?${params}`, { signal });
}

/** What the invitation form sends: the contract's body (common/contracts/tenant.ts). */
export type { OrgInvitationInput as OrganizationInvitationInput };

export function createOrganizationInvitation(
  accountIndex: number,
  body: OrgInvitationInput,
  signal?: AbortSignal,
): Promise<{ invitation: OrganizationInvitation }> {
  return fetchJson(`${base(accountIndex)}/invitations/organizations`, {
    method: 'POST',
    body,
    signal,
  });
}

/** Re-invite: a new token and expiry, e-mailed to `email`; the earlier link stops working. */
export function reinviteOrganization(
  accountIndex: number,
  id: number,
  email: string,
  signal?: AbortSignal,
): Promise<{ invitation: OrganizationInvitation }> {
  return fetchJson(`${base(accountIndex)}/invitations/organizations/${id}`, {
    method: 'PATCH',
    body: { email },
    signal,
  });
}

export function deleteOrganizationInvitation(
  accountIndex: number,
  id: number,
  signal?: AbortSignal,
): Promise<void> {
  return fetchJson(`${base(accountIndex)}/invitations/organizations/${id}`, {
    method: 'DELETE',
    signal,
  });
}

/** The tenant's custom schema for organisations, or null when it has none. */
export function getOrganizationSchema(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<CustomSchemaRecord | null> {
  return getCustomSchema(accountIndex, 'organization', signal);
}
