import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { SessionActorContext } from '#client/api/session-context.ts';
import type { SessionAccount } from '#machines/session.machine.ts';

/**
 * Who saved a record, for audit lines. Upstream records carry only a user code (`updatedBy`,
 * e.g. `usr_9a7a…`); `/bff/session` says each account's own code (`userCode`, from the access
 * token), so the signed-in user's records read with the user's name. Rows the sandbox seeded say
 * `system`; another user's code reads as a neutral "a user" (resolving other users needs
 * `tenant-management.users.view`, which a claims handler does not hold). No raw code is shown,
 * not even in a title (issue 15, point 12): the record's History tab names everyone who saved.
 */

/** What the sandbox (and upstream defaults) write into `updated_by` for records no one saved. */
const SYSTEM_CODE = 'system';

export type PersonLabel =
  { kind: 'system' } | { kind: 'self'; name: string } | { kind: 'someone'; code: string };

/** Who a user code is, seen from the signed-in account (pure: the hook below translates it). */
export function personOf(
  code: string,
  account: Pick<SessionAccount, 'userCode' | 'userFullName'> | undefined,
): PersonLabel {
  if (code === SYSTEM_CODE) return { kind: 'system' };
  if (account?.userCode && account.userCode === code) {
    return { kind: 'self', name: account.userFullName };
  }
  return { kind: 'someone', code };
}

/** The signed-in account of the current `/u/:accountIndex` route. */
export function useRouteAccount() {
  const { accountIndex = '0' } = useParams();
  return SessionActorContext.useSelector((s) =>
    s.context.accounts.find((a) => String(a.accountIndex) === accountIndex),
  );
}

/**
 * A function from user code to its label; for lists that name many people (version rows, audit
 * lines). `title` stays for the callers' title attributes and is never a user code now.
 */
export function usePersonNames(): (code: string) => { label: string; title: string | undefined } {
  const { t } = useTranslation('ui');
  const account = useRouteAccount();
  return (code) => {
    const person = personOf(code, account);
    if (person.kind === 'system') return { label: t('person.system'), title: undefined };
    if (person.kind === 'self') return { label: person.name, title: undefined };
    return { label: t('person.someone'), title: undefined };
  };
}

/** The label for one user code (see usePersonNames). */
export function usePersonName(code: string): { label: string; title: string | undefined } {
  return usePersonNames()(code);
}
