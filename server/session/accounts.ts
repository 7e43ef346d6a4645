import type { SessionData } from 'express-session';
import { parsePermissions } from '#common/permissions.ts';
import type { AccountRecord } from '#server/session/session.ts';
import { claimsOf, type Tokens } from '#server/upstream/auth-client.ts';

/** Builds (or refreshes) an account record from fresh upstream tokens. */
export function accountFromTokens(
  accountIndex: number,
  tokens: Tokens,
  previous?: AccountRecord,
): AccountRecord {
  const c = claimsOf(tokens.accessToken);
  const fullName = [c.given_name, c.family_name].filter(Boolean).join(' ');
  return {
    accountIndex,
    userName: c.email,
    userFullName: fullName || c.email,
    tenantId: String(c.tenant_id),
    tenantName: c.tenant_name,
    tenantSlug: c.tenant_slug,
    sub: c.sub,
    userCode: c.user_code ?? null,
    permissions: parsePermissions(tokens.permissions),
    isRequiredToChangePassword: false,
    expiresAt: c.exp * 1000,
    accessToken: tokens.accessToken,
    refreshCookie: tokens.refreshCookie ?? previous?.refreshCookie,
  };
}

export function accountsOf(s: SessionData | null | undefined): AccountRecord[] {
  return Object.values(s?.accounts ?? {}).sort((a, b) => a.accountIndex - b.accountIndex);
}

/** The index for a new sign-in: the same user (sub, or user name while a password change is
 * pending) keeps its index; otherwise the lowest free one, so existing /u/{i} links stay valid. */
export function indexFor(s: SessionData, userName: string, sub?: string): number {
  const existing = accountsOf(s).find(
    (a) => (sub && a.sub === sub) || a.userName.toLowerCase() === userName.toLowerCase(),
  );
  if (existing) return existing.accountIndex;
  let i = 0;
  while (s.accounts?.[String(i)]) i++;
  return i;
}
