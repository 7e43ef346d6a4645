import { lazy, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { isAllowed, type PermissionRule } from '#common/permissions.ts';
import { readStoredAccounts } from '#client/api/account-storage.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { parseHashPairs } from '#client/ui/hash-params.ts';
import { rememberAccount } from '#client/api/last-account.ts';
import { firstScreen } from './menu-access.ts';
import { loginAfterEnd } from './session-logic.ts';
import { screenPaths } from './route-table.ts';

const NotFoundPage = lazy(() => import('#client/features/errors/not-found-page.tsx'));
const NoAccessPage = lazy(() => import('#client/features/errors/no-access-page.tsx'));

function currentPath(location: { pathname: string; search: string; hash: string }): string {
  return location.pathname + location.search + location.hash;
}

/** `/`: into the first stored account, else to the sign-in (spec, routing structure). */
export function RootRedirect() {
  const stored = readStoredAccounts();
  const first = stored.map((a) => a.accountIndex).sort((a, b) => a - b)[0];
  return <Navigate to={first === undefined ? '/login' : `/u/${first}`} replace />;
}

/** Unknown paths outside /u: a known screen goes into /u/0, anything else is a 404. */
export function OutsideRoutes() {
  const location = useLocation();
  const [first] = location.pathname.split('/').filter(Boolean);
  if (first && (screenPaths.has(first) || first === 'help')) {
    return <Navigate to={`/u/0${location.pathname}${location.search}${location.hash}`} replace />;
  }
  return <NotFoundPage />;
}

/**
 * /organization/registration: without an invitation token (query on arrival, hash once a step
 * is shown) the not-found fallback shows, as the spec says.
 */
export function InvitationTokenGuard() {
  const { search, hash } = useLocation();
  const token = new URLSearchParams(search).get('token') ?? parseHashPairs(hash).token;
  return token ? <Outlet /> : <NotFoundPage />;
}

export function useAccountIndex(): number {
  const { accountIndex } = useParams();
  return Number(accountIndex);
}

export function useCurrentAccount() {
  const index = useAccountIndex();
  return SessionActorContext.useSelector((s) =>
    s.context.accounts.find((a) => a.accountIndex === index),
  );
}

/**
 * `/u/:accountIndex`: digits only; the account must be held by the session, else the sign-in
 * with a backUrl; a user flagged to change the password is held on the change-password page.
 */
export function AccountGuard() {
  const { accountIndex = '' } = useParams();
  const location = useLocation();
  const account = SessionActorContext.useSelector((s) =>
    s.context.accounts.find((a) => String(a.accountIndex) === accountIndex),
  );
  // An account that just ended: the session machine says why, and the guard's redirect says it
  // too (it may run before the machine's own).
  const endReason = SessionActorContext.useSelector((s) =>
    s.matches('expired') ? s.context.endReason : null,
  );
  const tail = location.pathname.split('/')[3];
  const held = account?.accountIndex;
  // The account last worked in, for the pages outside /u that act for one (/download).
  useEffect(() => {
    if (held !== undefined) rememberAccount(held);
  }, [held]);

  if (!/^\d+$/.test(accountIndex)) return <NotFoundPage />;
  if (!account) {
    // The logout page finishes its own navigation once the account is gone.
    if (tail === 'logout') return <Outlet />;
    return <Navigate to={loginAfterEnd(currentPath(location), endReason)} replace />;
  }
  if (account.isRequiredToChangePassword && tail !== 'changepassword' && tail !== 'logout') {
    return (
      <Navigate
        to={`/u/${accountIndex}/changepassword?backUrl=${encodeURIComponent(currentPath(location))}`}
        replace
      />
    );
  }
  return <Outlet />;
}

/** Exact `/u/{i}`: the first menu item the user may open, else /noaccess with noAccessUser. */
export function FirstScreenRedirect() {
  const account = useCurrentAccount();
  const screen = firstScreen(account?.permissions ?? []);
  const index = useAccountIndex();
  if (!screen) {
    return <Navigate to={`/u/${index}/noaccess`} state={{ messageKey: 'noAccessUser' }} replace />;
  }
  return <Navigate to={`/u/${index}/${screen.path}`} replace />;
}

/** Wraps each screen of the route table: the no-access screen when the permission is missing. */
export function PermissionGuard({ rule }: { rule: PermissionRule }) {
  const account = useCurrentAccount();
  if (!isAllowed(account?.permissions ?? [], rule)) return <NoAccessPage />;
  return <Outlet />;
}

/** Scrolls to the top on navigation, unless a tab asked to keep the position (spec). */
export function ScrollToTop() {
  const location = useLocation();
  const state = location.state as { onClickTab?: boolean } | null;
  useEffect(() => {
    if (state?.onClickTab) return;
    window.scrollTo(0, 0);
    // Only a change of page scrolls, not a state change on the same page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.pathname]);
  return null;
}
