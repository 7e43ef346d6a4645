import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { SessionActorContext } from '#client/api/session-context.ts';

/**
 * Who last saved a record, for audit lines. Upstream records carry only a user code
 * (`updatedBy`, e.g. `usr_9a7a…`); the access token names the user by `sub`, not by that code,
 * and resolving other users' codes needs `tenant-management.users.view`, which a claims
 * handler does not hold. So the code of the signed-in user is learned from the records this tab
 * saves with that account (the service stamps its own code on them) and shown as the user's
 * name; rows the sandbox seeded say `system`; any other code reads as a neutral "a user" with
 * the code in the title, never as a raw code.
 */

/** What the sandbox (and upstream defaults) write into `updated_by` for records no one saved. */
const SYSTEM_CODE = 'system';
const STORAGE_KEY = 'own-user-codes';

/** sub → user code; in sessionStorage so a reload of the tab keeps what it learned. */
function readCodes(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Notes that the account with this `sub` is the user `code` (from a record it just saved). */
export function rememberOwnCode(sub: string | undefined, code: string): void {
  if (!sub || !code || code === SYSTEM_CODE) return;
  const codes = readCodes();
  if (codes[sub] === code) return;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...codes, [sub]: code }));
  } catch {
    // Storage full or blocked: the audit line falls back to the neutral label.
  }
}

/** The signed-in account of the current `/u/:accountIndex` route. */
function useRouteAccount() {
  const { accountIndex = '0' } = useParams();
  return SessionActorContext.useSelector((s) =>
    s.context.accounts.find((a) => String(a.accountIndex) === accountIndex),
  );
}

/** The `sub` of the account of the current `/u/:accountIndex` route. */
export function useRouteAccountSub(): string | undefined {
  return useRouteAccount()?.sub;
}

/** The label for a user code and, when it is not a name, the code for a title attribute. */
export function usePersonName(code: string): { label: string; title: string | undefined } {
  const { t } = useTranslation('ui');
  const account = useRouteAccount();
  if (code === SYSTEM_CODE) return { label: t('person.system'), title: undefined };
  if (account && readCodes()[account.sub] === code) {
    return { label: account.userFullName, title: undefined };
  }
  return { label: t('person.someone'), title: code };
}
