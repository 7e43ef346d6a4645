/**
 * The account the user last worked in, kept across tabs: a page outside /u that acts for an
 * account (the /download page, opened from a link in a new window) uses it. Only an index, no
 * account data; the session decides whether that account is still signed in.
 */

const KEY = 'bo.lastAccount';

export function rememberAccount(accountIndex: number): void {
  try {
    localStorage.setItem(KEY, String(accountIndex));
  } catch {
    // Storage full or disabled: the first signed-in account is used instead.
  }
}

export function rememberedAccount(): number | undefined {
  try {
    const raw = localStorage.getItem(KEY);
    return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The account to act for outside /u: the one this tab last signed in to or worked in, else the
 * one last used in any tab, else the first signed in; only ever one the session holds.
 */
export function lastUsedAccount(
  held: readonly number[],
  current: number | undefined,
  remembered: number | undefined,
): number | undefined {
  for (const candidate of [current, remembered]) {
    if (candidate !== undefined && held.includes(candidate)) return candidate;
  }
  return [...held].sort((a, b) => a - b)[0];
}
