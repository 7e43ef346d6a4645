import * as v from 'valibot';
import { Id, Timestamp } from './shared.ts';
import { PASSWORD_MAX_LENGTH } from '#common/password-rules.ts';
import { personTextRules, registrationText } from '#common/registration-fields.ts';
import {
  addressFields,
  customFieldValues,
  CustomSchemaRecordSchema,
  OrganizationAddressEntries,
  OrganizationRefSchema,
  RoleSchema,
} from './tenant.ts';

/**
 * The authservice (docs/contracts.md, "Upstream endpoints the sandbox serves", "Guest"): sign-in,
 * tokens, workspaces, single sign-on, and the guest calls without a signed-in account that the
 * BFF passes on under `/api/guest/authservice/v1` (registration by invitation, password reset).
 */

// ---- answers ----------------------------------------------------------------------------------

/** A sign-in, refresh, switch or forced change: the token and the permissions joined by `,`. */
export const TokensSchema = v.strictObject({ accessToken: v.string(), permissions: v.string() });
/** A sign-in of a user who must change the password first: the challenge of that change. */
export const PasswordChallengeSchema = v.strictObject({
  newPasswordRequired: v.literal(true),
  challenge: v.string(),
});
export const LoginAnswerSchema = v.union([TokensSchema, PasswordChallengeSchema]);

export const WorkspaceSchema = v.strictObject({
  name: v.string(),
  slug: v.string(),
  tenantName: v.string(),
  isDefault: v.boolean(),
  isDisabled: v.boolean(),
});

/** `GET /saml-login-link`: the identity provider's page, relative to the BFF. */
export const SamlLinkSchema = v.strictObject({ url: v.string() });

/** A role as an invitation names it to the guest: no permissions, no audit. */
export const InvitedRoleSchema = v.strictObject(
  v.pick(RoleSchema, ['id', 'code', 'label']).entries,
);

/** `GET /verify-invite`: the invitation of a user, with the tenant's organisation schema. */
export const UserInviteSchema = v.strictObject({
  email: v.string(),
  expiresOn: Timestamp,
  organizationId: v.nullable(Id),
  organization: v.nullable(v.strictObject(v.pick(OrganizationRefSchema, ['id', 'name']).entries)),
  roles: v.array(InvitedRoleSchema),
  customSchema: v.nullable(CustomSchemaRecordSchema),
});

/**
 * `GET /verify-org-invitation`: the organisation invitation as the tenant's admin sees it (its
 * roles in full), the organisation schema, and the identity provider's page when it offers
 * single sign-on.
 */
export const OrganizationInvitationSchema = v.strictObject({
  id: Id,
  code: v.string(),
  email: v.string(),
  name: v.string(),
  slug: v.nullable(v.string()),
  parentOrganizationId: v.nullable(Id),
  ...OrganizationAddressEntries,
  expiresAt: Timestamp,
  isExpired: v.boolean(),
  usedAt: v.nullable(Timestamp),
  organizationId: v.nullable(Id),
  roles: v.array(RoleSchema),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  createdBy: v.string(),
  updatedBy: v.string(),
  customSchema: v.nullable(CustomSchemaRecordSchema),
  samlIdpLoginUrl: v.nullable(v.string()),
});

/** `POST /create-user`: the address the new user signs in with. */
export const RegisteredUserSchema = v.strictObject({ email: v.nullable(v.string()) });
/** `GET /verify-reset-password`: the address of the account the link resets. */
export const ResetAccountSchema = v.strictObject({ email: v.string() });

// ---- request bodies ---------------------------------------------------------------------------

const email = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(320));
// No password longer than the rule's maximum can exist (common/password-rules.ts).
const secret = v.pipe(v.string(), v.maxLength(PASSWORD_MAX_LENGTH));

/** POST /login. */
export const LoginBody = v.object({ username: email, password: v.pipe(secret, v.nonEmpty()) });
/** POST /refresh-token and /logout (the refresh token is the cookie). */
export const UsernameBody = v.object({ username: email });
/** POST /change-password, forced: the challenge of the sign-in instead of the old password. */
export const ForcedChangeBody = v.object({
  username: email,
  challenge: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
  newPassword: secret,
});
/** POST /change-password, signed in (bearer). */
export const SignedInChangeBody = v.object({
  username: email,
  oldPassword: v.pipe(secret, v.nonEmpty()),
  newPassword: secret,
});
/** POST /workspaces/switch. */
export const SwitchBody = v.object({
  username: email,
  targetWorkspace: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100)),
});
/** POST /login/saml: the one-time code of the identity provider. */
export const SamlLoginBody = v.object({
  tenantSlug: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100)),
  code: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
});

// Guest bodies. The password rules (common/password-rules.ts) are checked after the shape, so a
// weak password is 400 `invalid_password`, not a `validation_error`.
const token = v.pipe(v.string(), v.nonEmpty(), v.maxLength(200));
const person = {
  // The wizard's user data step checks the same (common/registration-fields.ts).
  ...personTextRules(),
  password: secret,
  isEulaAccepted: v.literal(true, 'isEulaAccepted must be true'),
  customFields: customFieldValues,
  invitationToken: token,
};
/** POST /create-user: registration by a user invitation. */
export const CreateUserBody = v.object({ ...person, ...addressFields });
/** POST /create-org-and-user: registration of an invited organisation and its contact. */
export const CreateOrgAndUserBody = v.object({
  ...person,
  name: v.optional(registrationText('name')),
  ...addressFields,
});
/** POST /forgot-password. */
export const ForgotBody = v.object({ email: v.pipe(v.string(), v.trim(), v.maxLength(320)) });
/** POST /reset-password. */
export const ResetBody = v.object({
  resetToken: token,
  newPassword: secret,
});

export type Tokens = v.InferOutput<typeof TokensSchema>;
export type LoginAnswer = v.InferOutput<typeof LoginAnswerSchema>;
export type SamlLink = v.InferOutput<typeof SamlLinkSchema>;
export type RegisteredUser = v.InferOutput<typeof RegisteredUserSchema>;
export type ResetAccount = v.InferOutput<typeof ResetAccountSchema>;
export type Workspace = v.InferOutput<typeof WorkspaceSchema>;
export type InvitedRole = v.InferOutput<typeof InvitedRoleSchema>;
export type UserInvite = v.InferOutput<typeof UserInviteSchema>;
export type OrganizationInvitation = v.InferOutput<typeof OrganizationInvitationSchema>;
export type RegistrationInput = v.InferInput<typeof CreateUserBody>;
export type OrganizationRegistrationInput = v.InferInput<typeof CreateOrgAndUserBody>;
export type ResetPasswordInput = v.InferInput<typeof ResetBody>;
