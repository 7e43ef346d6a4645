import type { SessionAccount } from '#machines/session.machine.ts';

/**
 * The stored account list of the spec: only non-secret account data, so that the first paint
 * (root redirect, account names in the menu) needs no round trip. Never a token: the tokens
 * stay in the BFF's server-side session.
 */
export interface StoredAccount {
  accountIndex: number;
  sub: string;
  tenantId: string | number;
  tenantSlug: string;
  tenantName: string;
  userName: string;
  userFullName: string;
}

const KEY = 'bo.accounts';

export function readStoredAccounts(): StoredAccount[] {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as StoredAccount[]) : [];
  } catch {
    return [];
  }
}

export function writeStoredAccounts(accounts: readonly SessionAccount[]): void {
  // Picked field by field, so that nothing else the BFF may add later lands in storage.
  const stored: StoredAccount[] = accounts.map((a) => ({
    accountIndex: a.accountIndex,
    sub: a.sub,
    tenantId: a.tenantId,
    tenantSlug: a.tenantSlug,
    tenantName: a.tenantName,
    userName: a.userName,
    userFullName: a.userFullName,
  }));
  try {
    localStorage.setItem(KEY, JSON.stringify(stored));
  } catch {
    // Storage full or disabled: only the fast first paint suffers.
  }
}
