import * as v from 'valibot';
import { AuditEntries, Id, Int, JsonRecord, Timestamp } from './shared.ts';

/**
 * The tenantservice's administration records (docs/contracts.md, "Administration and
 * registration"): users, invites, roles, organizations, saved list views. The request bodies
 * stay in the service's route files for now (server/sandbox/services/tenant/).
 */

export const USER_STATUSES = ['active', 'disabled', 'invited'] as const;

export const PermissionSchema = v.strictObject({
  id: Id,
  code: v.string(),
  module: v.string(),
  entity: v.string(),
  action: v.string(),
});

export const RoleSchema = v.strictObject({
  id: Id,
  code: v.string(),
  label: v.string(),
  description: v.string(),
  permissions: v.array(PermissionSchema),
  ...AuditEntries,
});

/** An organization as a user or an invite names it (`expand=organization(s)`). */
export const OrganizationRefSchema = v.strictObject({ id: Id, code: v.string(), name: v.string() });

export const OrganizationSchema = v.strictObject({
  ...OrganizationRefSchema.entries,
  parentId: v.nullable(Id),
  email: v.nullable(v.string()),
  street: v.nullable(v.string()),
  houseNumber: v.nullable(v.string()),
  zipCode: v.nullable(v.string()),
  city: v.nullable(v.string()),
  country: v.nullable(v.string()),
  customFields: JsonRecord,
  ern: v.string(),
  ...AuditEntries,
});

/** `roles` and `organization` come with `expand=roles,organizations`. */
export const AdminUserSchema = v.strictObject({
  id: Id,
  code: v.string(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  status: v.picklist(USER_STATUSES),
  sub: v.string(),
  ern: v.string(),
  mfaAuthentication: v.boolean(),
  subscriptions: v.array(v.unknown()),
  organizationId: v.nullable(Id),
  roles: v.optional(v.array(RoleSchema)),
  organization: v.optional(v.nullable(OrganizationRefSchema)),
  ...AuditEntries,
});

/** `roles` and `organization` come with `expand=roles,organization`. */
export const InviteSchema = v.strictObject({
  id: Id,
  code: v.string(),
  email: v.string(),
  organizationId: v.nullable(Id),
  organization: v.optional(v.nullable(OrganizationRefSchema)),
  roles: v.optional(v.array(RoleSchema)),
  expiresOn: Timestamp,
  isExpired: v.boolean(),
  metadata: v.nullable(JsonRecord),
  ...AuditEntries,
});

/** A saved view of a list: its query string as the list's address carries it, without '?'. */
export const ListViewSchema = v.strictObject({
  id: Id,
  code: v.string(),
  list: v.string(),
  name: v.string(),
  query: v.string(),
  shared: v.boolean(),
  isOwn: v.boolean(),
  owner: v.strictObject({ name: v.string() }),
  version: Int,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export type UserStatus = (typeof USER_STATUSES)[number];
export type Role = v.InferOutput<typeof RoleSchema>;
export type Organization = v.InferOutput<typeof OrganizationSchema>;
export type AdminUser = v.InferOutput<typeof AdminUserSchema>;
export type Invite = v.InferOutput<typeof InviteSchema>;
export type ListView = v.InferOutput<typeof ListViewSchema>;
