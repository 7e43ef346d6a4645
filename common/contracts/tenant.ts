import { emailCheck } from '#common/email-address.ts';
import {
  REGISTRATION_FIELD_MAX,
  addressTextRules,
  registrationText,
} from '#common/registration-fields.ts';
import * as v from 'valibot';
import {
  CUSTOM_SCHEMA_ENTITIES,
  CustomSchemaBody,
  CustomSchemaFieldSchema,
} from '#common/custom-schema-field.ts';
import { normalizePermission } from '#common/permissions.ts';
import { labelsSchema, NameLabelsOut } from '#common/name-labels.ts';
import { AuditEntries, Id, Int, JsonRecord, Timestamp } from './shared.ts';

/** PUT /custom-schemas/{entity}: the editor's schema, which the settings form checks as well. */
export { CustomSchemaBody };

/**
 * The tenantservice's administration records (docs/contracts.md, "Administration and
 * registration"): users, invites, roles, organizations, saved list views, and the bodies of the
 * user and role administration.
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
  /** The label per language (issue 16); `label` shows where a language has none. */
  labels: NameLabelsOut,
  description: v.string(),
  descriptionLabels: NameLabelsOut,
  permissions: v.array(PermissionSchema),
  ...AuditEntries,
});

/** An organization as a user or an invite names it (`expand=organization(s)`). */
export const OrganizationRefSchema = v.strictObject({ id: Id, code: v.string(), name: v.string() });

/** An organisation's address and custom fields as the services answer them (an organisation,
 * and the invitation that creates one). */
export const OrganizationAddressEntries = {
  street: v.string(),
  houseNumber: v.string(),
  zipCode: v.string(),
  city: v.string(),
  country: v.string(),
  customFields: JsonRecord,
};

export const OrganizationSchema = v.strictObject({
  ...OrganizationRefSchema.entries,
  parentId: v.nullable(Id),
  email: v.string(),
  ...OrganizationAddressEntries,
  ern: v.string(),
  /** Count of saves; an update may send it back to be refused 409 when it is stale. */
  version: v.number(),
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
  /** Raised by each edit of name or e-mail (the user page's conflict check). */
  version: v.number(),
  /** The required action "change password at the next sign-in". */
  mustChangePassword: v.boolean(),
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

export const TenantSchema = v.strictObject({ id: Id, name: v.string(), slug: v.string() });

/**
 * The sandbox's optimistic versioning of a settings record (general, branding): a save sends the
 * `version` it was based on and a stale one is refused 409 `version_conflict` with the record as
 * saved now. In camel case beside the upstream's snake-case fields, as every versioned record of
 * the sandbox carries them (the client's edit flow and conflict panel read these names).
 */
export const SettingsVersionEntries = {
  version: Int,
  updatedAt: Timestamp,
  updatedBy: v.string(),
};

/** What a save of a versioned settings record sends beside its fields. */
export const SettingsVersionBody = v.object({
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** The tenant's general settings, in the upstream's snake case. */
export const GeneralSettingsSchema = v.strictObject({
  time_zone: v.string(),
  language: v.string(),
  currency: v.string(),
  format_hours: v.string(),
  format_dates: v.string(),
  ...SettingsVersionEntries,
});

/** The branding record as the tenant service stores it (`PUT /branding` takes all of it). */
export const BrandingRecordSchema = v.strictObject({
  tenant_id: Id,
  name: v.string(),
  address: v.nullable(v.string()),
  logo: v.nullable(v.string()),
  main_color: v.string(),
  ...SettingsVersionEntries,
});

/** One stored setting of the tenant or the user; `type` names the JSON type of `value`. */
export const SettingValueSchema = v.strictObject({
  key: v.string(),
  value: v.unknown(),
  type: v.string(),
});

/**
 * A tenant setting with the sandbox's version (an addition to the spec's key, value and type):
 * the tenant's settings revision at the key's last save, 0 and no stamps for a key never saved.
 * A tab of several keys is as new as the newest of them (migration 014).
 */
export const TenantSettingValueSchema = v.strictObject({
  ...SettingValueSchema.entries,
  version: v.pipe(v.number(), v.integer(), v.minValue(0)),
  updatedAt: v.nullable(Timestamp),
  updatedBy: v.nullable(v.string()),
});

/**
 * A custom schema: the fields a tenant adds to an entity. The fields are the editor's own schema
 * (common/custom-schema-field.ts), which is not strict: its unknown keys are dropped, not refused.
 */
export const CustomSchemaRecordSchema = v.strictObject({
  id: Id,
  code: v.string(),
  productCode: v.nullable(v.string()),
  entity: v.picklist(CUSTOM_SCHEMA_ENTITIES),
  fields: v.array(CustomSchemaFieldSchema),
  /** The sandbox's count of the schema's saves (a save sends it back; 409 when stale). */
  version: Int,
  ...AuditEntries,
});

/** `GET /users/{id}/effective-permissions`: each permission with the codes of the roles granting it. */
export const EffectivePermissionSchema = v.strictObject({
  permission: v.string(),
  roles: v.array(v.string()),
});

/** The answer of a batch: one result per id (deletes, enables) or address (invites). */
const batchResult = { ok: v.boolean(), error: v.optional(v.string()) };
export const BatchIdResultsSchema = v.strictObject({
  results: v.array(v.strictObject({ id: Id, ...batchResult })),
});
/** An invitation sent carries the invite it made (`expand=roles,organization`). */
export const BatchEmailResultsSchema = v.strictObject({
  results: v.array(
    v.strictObject({ email: v.string(), ...batchResult, invite: v.optional(InviteSchema) }),
  ),
});

// ---- request pieces and bodies (users and roles) ----------------------------------------------

const bodyId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));

/** The ids of a batch: 1 to 100. */
export const idList = v.pipe(v.array(bodyId), v.nonEmpty(), v.maxLength(100));
/** Roles to grant, by id or by code; either list may be left out. */
export const roleIdList = v.optional(v.pipe(v.array(bodyId), v.maxLength(50)));
export const roleCodeList = v.optional(
  v.pipe(v.array(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))), v.maxLength(50)),
);
// The message is the code (common/contracts/error.ts), as valibot's own `email` had.
export const emailAddress = v.pipe(v.string(), v.trim(), emailCheck('email'));
/** A postal address as the registration and organisation forms send it (their shared rules). */
export const addressFields = addressTextRules();
/** Custom field values; checked against the tenant's custom schema by the service. */
export const customFieldValues = v.optional(v.record(v.string(), v.unknown()), {});

/** POST /users/{id}/assign-roles: the roles the user holds from now on. */
export const AssignRolesBody = v.object({
  userId: v.optional(v.pipe(v.number(), v.integer())),
  roleIds: roleIdList,
  roleCodes: roleCodeList,
});
/** POST /users/{enable,disable,delete}-batch and /users/invites/delete-batch. */
export const BatchBody = v.object({ ids: idList });
/** The most addresses one invitation call takes (the invite dialog counts against it). */
export const INVITE_EMAILS_MAX = 100;
/** POST /users/invites/batch: one invitation per address, each with the same roles. */
export const InviteBatchBody = v.object({
  emails: v.pipe(v.array(emailAddress), v.nonEmpty(), v.maxLength(INVITE_EMAILS_MAX)),
  organizationId: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  roleIds: roleIdList,
  roleCodes: roleCodeList,
  metadata: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
});

const permissionText = v.pipe(
  v.string(),
  v.trim(),
  v.transform(normalizePermission),
  v.regex(/^(admin|\*|[a-z0-9*-]+(\.[a-z0-9*-]+){1,2})$/, 'permission like module.resource.action'),
);
/** A role's code, label and description: the service's limits, the role editor's `maxlength`. */
export const ROLE_CODE_MAX = 63;
export const ROLE_CODE_PATTERN = new RegExp(`^[a-z0-9][a-z0-9_-]{0,${ROLE_CODE_MAX - 1}}$`);
export const ROLE_LABEL_MAX = 100;
export const ROLE_DESCRIPTION_MAX = 500;
/** POST /roles. */
export const RoleBody = v.object({
  code: v.pipe(v.string(), v.trim(), v.regex(ROLE_CODE_PATTERN, 'code like claims-clerk')),
  label: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(ROLE_LABEL_MAX)),
  /** The label per language (issue 16); left out on an update, it stays. */
  labels: v.optional(labelsSchema(ROLE_LABEL_MAX)),
  description: v.optional(v.pipe(v.string(), v.maxLength(ROLE_DESCRIPTION_MAX)), ''),
  /** The description per language (issue 16); left out on an update, it stays. */
  descriptionLabels: v.optional(labelsSchema(ROLE_DESCRIPTION_MAX)),
  permissions: v.pipe(v.array(permissionText), v.maxLength(200)),
});
/** PUT /roles/{id}: the code may stay out (it never changes). */
export const RoleUpdateBody = v.object({
  ...RoleBody.entries,
  code: v.optional(RoleBody.entries.code),
});

// ---- request bodies (settings, organisations, list views) ----------------------------------------

const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone'));

/** PUT /general-settings. */
export const GeneralBody = v.object({
  time_zone: v.pipe(
    v.string(),
    v.check((tz) => TIME_ZONES.has(tz) || tz === 'UTC', 'unknown time zone'),
  ),
  language: v.pipe(v.string(), v.regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'language code like de or de-DE')),
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'ISO 4217 currency code')),
  format_hours: v.pipe(v.string(), v.nonEmpty(), v.maxLength(20)),
  format_dates: v.pipe(v.string(), v.nonEmpty(), v.maxLength(20)),
  ...SettingsVersionBody.entries,
});

/** A logo by address: a same-origin path or an https URL. */
const logoAddress = v.pipe(
  v.string(),
  v.maxLength(2000),
  v.regex(/^(?:\/(?![/\\])|https:\/\/)\S*$/, 'logo: a path on this site or an https address'),
);
/**
 * An uploaded logo, resized by the browser and sent inline as a data URL: raster formats only
 * (an SVG may carry script), about 110 KB of image at most.
 */
export const MAX_LOGO_DATA_URL_LENGTH = 150_000;
const logoDataUrl = v.pipe(
  v.string(),
  v.maxLength(MAX_LOGO_DATA_URL_LENGTH, 'logo: the image is too large'),
  v.regex(/^data:image\/(?:png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/, 'logo: png, jpeg or webp'),
);

/** The longest branding name; also the `maxlength` of the branding tab's field. */
export const BRANDING_NAME_MAX = 200;

/** PUT /branding. */
export const BrandingBody = v.object({
  name: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(BRANDING_NAME_MAX)),
  address: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500))), null),
  logo: v.optional(
    v.nullable(
      v.union(
        [logoAddress, logoDataUrl],
        'logo: a path on this site, an https address or a png, jpeg or webp image',
      ),
    ),
    null,
  ),
  main_color: v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'colour like #1dc4e9')),
  ...SettingsVersionBody.entries,
});

/** A stored setting of the tenant, a user or an organisation (chat widget, payment, dashboard). */
export const settingKey = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_.-]{1,100}$/, 'invalid setting key'),
);
export const SettingBody = v.object({
  key: settingKey,
  value: v.union([
    v.pipe(v.string(), v.maxLength(10_000)),
    v.number(),
    v.boolean(),
    v.null(),
    v.record(v.string(), v.unknown()),
    v.array(v.unknown()),
  ]),
  isSensitive: v.optional(v.boolean(), false),
  /**
   * The version of the setting the value was based on (the sandbox's addition): a stale one is
   * refused 409 `version_conflict`. Without it the save is unconditional, as the spec's callers
   * (the product settings) send it; the settings tabs always send it.
   */
  version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

/**
 * PUT /custom-schemas/{entity}: the fields and the version of the schema they were based on, 0
 * for an entity without a schema yet (a save is never unversioned: it would overwrite unseen).
 */
export const CustomSchemaSaveBody = v.object({
  ...CustomSchemaBody.entries,
  version: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

const orgName = registrationText('name');
export const OrganizationBody = v.object({
  name: orgName,
  email: v.optional(v.union([emailAddress, v.literal('')]), ''),
  parentId: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  ...addressFields,
  customFields: customFieldValues,
});
/**
 * The name is read-only after creation: sending it unchanged is fine, changing it is a 400. The
 * address is required (the spec's form); e-mail, parent and custom fields keep their value when
 * left out, so that a form without them does not wipe them.
 */
export const OrganizationUpdateBody = v.object({
  ...addressFields,
  name: v.optional(orgName),
  email: v.optional(v.union([emailAddress, v.literal('')])),
  parentId: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  customFields: v.optional(v.record(v.string(), v.unknown())),
  version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});
export const OrgInvitationBody = v.object({
  name: orgName,
  slug: v.pipe(v.string(), v.trim(), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'slug like acme-gmbh')),
  email: emailAddress,
  parentOrganizationId: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  street: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
  houseNumber: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(20)), ''),
  zipCode: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(20)), ''),
  city: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  country: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  customFields: v.optional(v.record(v.string(), v.unknown()), {}),
  roleIds: roleIdList,
  roleCodes: roleCodeList,
  expiresAt: v.optional(v.pipe(v.string(), v.isoTimestamp('ISO timestamp'))),
  offerSso: v.optional(v.boolean(), false),
});
export const ReinviteBody = v.object({ email: emailAddress });
/** The list a view belongs to, as its address names it (`customers`, `claims`, ...). */
export const ListViewListName = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9-]{1,39}$/, 'list: invalid'),
);
const ViewName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'name: required'),
  v.maxLength(80, 'name: too_long'),
);
// The list's own query string, without the '?': what the address bar would carry. Paging is not
// part of a view (a view starts at the top).
const Query = v.pipe(
  v.string(),
  v.maxLength(2000, 'query: too_long'),
  v.check((q) => !q.startsWith('?') && !/(^|&)page(Token)?=/.test(q), 'query: invalid'),
);
/** POST /list-views. */
export const ListViewCreateBody = v.object({
  list: ListViewListName,
  name: ViewName,
  query: Query,
  shared: v.optional(v.boolean(), false),
});
/** PUT /list-views/{code}: the whole view on top of its version. */
export const ListViewUpdateBody = v.object({
  name: ViewName,
  query: Query,
  shared: v.boolean(),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export type UserStatus = (typeof USER_STATUSES)[number];
export type Permission = v.InferOutput<typeof PermissionSchema>;
export type Role = v.InferOutput<typeof RoleSchema>;
export type Organization = v.InferOutput<typeof OrganizationSchema>;
export type AdminUser = v.InferOutput<typeof AdminUserSchema>;
export type Invite = v.InferOutput<typeof InviteSchema>;
export type ListView = v.InferOutput<typeof ListViewSchema>;
export type Tenant = v.InferOutput<typeof TenantSchema>;
export type GeneralSettings = v.InferOutput<typeof GeneralSettingsSchema>;
export type BrandingRecord = v.InferOutput<typeof BrandingRecordSchema>;
export type SettingValue = v.InferOutput<typeof SettingValueSchema>;
export type TenantSettingValue = v.InferOutput<typeof TenantSettingValueSchema>;
export type CustomSchemaRecord = v.InferOutput<typeof CustomSchemaRecordSchema>;
export type EffectivePermission = v.InferOutput<typeof EffectivePermissionSchema>;
export type RoleInput = v.InferInput<typeof RoleUpdateBody>;
export type InviteBatchInput = v.InferInput<typeof InviteBatchBody>;
type VersionStamp = keyof typeof SettingsVersionEntries;
/** `PUT /general` takes the fields and the version they were based on. */
export type GeneralInput = Omit<GeneralSettings, VersionStamp> & { version: number };
/**
 * `PUT /branding` takes the whole record but the tenant, which the token says, and the stamps
 * but the version it was based on.
 */
export type BrandingInput = Omit<BrandingRecord, 'tenant_id' | VersionStamp> & { version: number };
export type SettingInput = v.InferInput<typeof SettingBody>;
export type OrganizationInput = v.InferInput<typeof OrganizationBody>;
export type OrganizationUpdateInput = v.InferInput<typeof OrganizationUpdateBody>;
export type OrgInvitationInput = v.InferInput<typeof OrgInvitationBody>;
export type ListViewCreateInput = v.InferInput<typeof ListViewCreateBody>;
export type ListViewUpdateInput = v.InferInput<typeof ListViewUpdateBody>;

// ---- the user page (issue 16) -----------------------------------------------------------------

/** A user's first or last name: the registration's limit, so a registered name is editable. */
export const USER_NAME_MAX = REGISTRATION_FIELD_MAX.firstName;
const personName = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(USER_NAME_MAX, 'too_long'),
);

/** PUT /users/{id}: name and e-mail, on top of the version the page showed. */
export const UserUpdateBody = v.object({
  firstName: personName,
  lastName: personName,
  email: emailAddress,
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
});
export type UserUpdateInput = v.InferOutput<typeof UserUpdateBody>;

/** POST /users: a user made by the administrator, who sets a password through an e-mailed link. */
export const UserCreateBody = v.object({
  firstName: personName,
  lastName: personName,
  email: emailAddress,
  roleIds: roleIdList,
  roleCodes: roleCodeList,
});
export type UserCreateInput = v.InferOutput<typeof UserCreateBody>;

/** PUT /users/{id}/required-actions: what the user must do at the next sign-in. */
export const RequiredActionsBody = v.object({ changePassword: v.boolean() });

/** GET /users/{id}/sessions: one sign-in, continued by its refreshes until it ends. */
export const UserSessionSchema = v.strictObject({
  id: v.string(),
  startedAt: v.string(),
  lastRefreshAt: v.string(),
  workspace: v.string(),
});
export type UserSession = v.InferOutput<typeof UserSessionSchema>;
