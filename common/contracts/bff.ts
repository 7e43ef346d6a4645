import * as v from 'valibot';
import { WorkspaceSchema } from './auth.ts';

/**
 * The BFF's own endpoints under `/bff` (docs/contracts.md, "BFF session API"): the public
 * configuration, the browser session's accounts, sign-in and sign-out, workspaces and the
 * password change. The upstream's tokens never appear here: the BFF keeps them and answers each
 * account as `SessionAccountSchema`. A refused body is 400 `bad_request` in the one error shape,
 * each problem at its dotted path (common/contracts/error.ts).
 */

// ---- answers ----------------------------------------------------------------------------------

/** `GET /bff/config`: what the SPA needs before anyone signs in. */
export const BffConfigSchema = v.strictObject({
  appEnv: v.string(),
  buildId: v.string(),
  sandbox: v.boolean(),
  /** The origin signed document addresses may point at; null: this origin's /storage/. */
  storageOrigin: v.nullable(v.string()),
});

/** One signed-in account of the browser session, as the browser sees it (no token). */
export const SessionAccountSchema = v.strictObject({
  accountIndex: v.pipe(v.number(), v.integer(), v.minValue(0)),
  userName: v.string(),
  userFullName: v.string(),
  tenantId: v.string(),
  tenantName: v.string(),
  tenantSlug: v.string(),
  sub: v.string(),
  /** Who the user is in the upstream's records (`createdBy`, `updatedBy`); null if unknown. */
  userCode: v.nullable(v.string()),
  permissions: v.array(v.string()),
  isRequiredToChangePassword: v.boolean(),
  /** The access token's expiry, ms since the epoch; 0 while a password change is pending. */
  expiresAt: v.number(),
  /** The token's tenant slug: the workspace the account currently works in. */
  workspace: v.string(),
});

/** `GET /bff/session`: the accounts of this browser session, by index. */
export const SessionAnswerSchema = v.strictObject({ accounts: v.array(SessionAccountSchema) });

/** `POST /bff/login` and `/bff/login/saml`: the index the account got and the account. */
export const SignInAnswerSchema = v.strictObject({
  accountIndex: SessionAccountSchema.entries.accountIndex,
  account: SessionAccountSchema,
});

/** `POST /bff/accounts/{i}/refresh`, `/workspaces/switch` and `/change-password`. */
export const AccountAnswerSchema = v.strictObject({ account: SessionAccountSchema });

/** `GET /bff/accounts/{i}/workspaces`: the workspaces of the account's tenant group. */
export const WorkspacesAnswerSchema = v.strictObject({ workspaces: v.array(WorkspaceSchema) });

// ---- request bodies ---------------------------------------------------------------------------

// No sign-in name or password holds a control character (Unicode Cc, NUL included): a NUL would
// fail the upstream's query, and a password holding one could never be used to sign in. The
// message is English (the BFF's `message` names it); the code is valibot's `check`.
const noControl = v.check((s: string) => !/\p{Cc}/u.test(s), 'must not contain control characters');
const slug = v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,63}$/));

/** `POST /bff/login`. */
export const BffLoginBody = v.object({
  username: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(254), noControl),
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(256), noControl),
});

/** `POST /bff/login/saml`: the identity provider's one-time code for a tenant. */
export const BffSamlLoginBody = v.object({
  tenantSlug: slug,
  code: v.pipe(v.string(), v.minLength(1), v.maxLength(512), noControl),
});

/** `POST /bff/accounts/{i}/workspaces/switch`. */
export const BffSwitchBody = v.object({ targetWorkspace: slug });

/**
 * `POST /bff/accounts/{i}/change-password`: without the old password only while the account must
 * change it (the BFF holds the sign-in's challenge); otherwise the old one is required, which the
 * route checks since only it knows the account.
 */
export const BffChangePasswordBody = v.object({
  oldPassword: v.optional(v.pipe(v.string(), v.maxLength(256), noControl)),
  newPassword: v.pipe(v.string(), v.minLength(1), v.maxLength(256), noControl),
});

export type BffConfig = v.InferOutput<typeof BffConfigSchema>;
export type SessionAccount = v.InferOutput<typeof SessionAccountSchema>;
export type SessionAnswer = v.InferOutput<typeof SessionAnswerSchema>;
export type SignInAnswer = v.InferOutput<typeof SignInAnswerSchema>;
export type AccountAnswer = v.InferOutput<typeof AccountAnswerSchema>;
export type WorkspacesAnswer = v.InferOutput<typeof WorkspacesAnswerSchema>;
export type BffLoginInput = v.InferInput<typeof BffLoginBody>;
export type BffSamlLoginInput = v.InferInput<typeof BffSamlLoginBody>;
export type BffChangePasswordInput = v.InferInput<typeof BffChangePasswordBody>;
