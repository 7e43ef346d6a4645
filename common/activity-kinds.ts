/**
 * The kinds the tenant's activity log shows (issue 16): who changed which user, role,
 * organisation, organisation invitation or setting. Without imports, so that the screen's filter
 * reads it without the contract schemas.
 */
export const ADMIN_ENTITY_TYPES = [
  'user',
  'role',
  'organization',
  'organization_invitation',
  'setting',
] as const;
export type AdminEntityType = (typeof ADMIN_ENTITY_TYPES)[number];

export const isAdminEntityType = (kind: string): kind is AdminEntityType =>
  (ADMIN_ENTITY_TYPES as readonly string[]).includes(kind);
