import { useEffect, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import {
  sessionMachine,
  type SessionAccount,
  type SignInCredentials,
  type SignInResult,
} from '#machines/session.machine.ts';
import { writeStoredAccounts } from '#client/api/account-storage.ts';
import * as bff from '#client/api/bff-client.ts';
import { ApiError, setSessionExpiredListener } from '#client/api/fetch-json.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { router } from './router.tsx';

function withBackUrl(path: string, backUrl: string | undefined): string {
  return backUrl ? `${path}?backUrl=${encodeURIComponent(backUrl)}` : path;
}

async function signIn(credentials: SignInCredentials, signal: AbortSignal): Promise<SignInResult> {
  try {
    const { accountIndex, account } =
      credentials.kind === 'password'
        ? await bff.login(
            { username: credentials.username, password: credentials.password },
            signal,
          )
        : await bff.loginSaml(
            { tenantSlug: credentials.tenantSlug, code: credentials.code },
            signal,
          );
    return account.isRequiredToChangePassword
      ? { kind: 'passwordChangeRequired', accountIndex, account }
      : { kind: 'signedIn', accountIndex, account };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'no_ui_permission') return { kind: 'refusedNoUi' };
    if (error.status === 429) {
      return { kind: 'rateLimited', retryAfterSeconds: error.retryAfterSeconds ?? 60 };
    }
    if (error.status >= 500) throw error;
    return { kind: 'failed', error: error.code };
  }
}

/** The session machine with the browser's I/O: the BFF calls, storage and the router. */
const sessionLogic = sessionMachine.provide({
  actors: {
    signIn: fromPromise(({ input, signal }) => signIn(input.credentials, signal)),
    changePassword: fromPromise(async ({ input, signal }) => {
      try {
        const { accountIndex, ...body } = input;
        const { account } = await bff.changePassword(accountIndex, body, signal);
        return { kind: 'changed' as const, account };
      } catch (error) {
        if (error instanceof ApiError && error.status < 500) {
          return { kind: 'failed' as const, error: error.code };
        }
        throw error;
      }
    }),
    signOut: fromPromise(({ input, signal }) => bff.logout(input.accountIndex, signal)),
  },
  actions: {
    persistAccounts: (_, { accounts }) => writeStoredAccounts(accounts),
    navigateAfterSignIn: (_, { accountIndex, backUrl }) => {
      void router.navigate(backUrl ?? `/u/${accountIndex}`, { replace: true });
    },
    navigateToPasswordChange: (_, { accountIndex, backUrl }) => {
      void router.navigate(withBackUrl(`/u/${accountIndex}/changepassword`, backUrl), {
        replace: true,
      });
    },
    navigateAfterSignOut: (_, { remaining }) => {
      const next = remaining[0];
      void router.navigate(next ? `/u/${next.accountIndex}` : '/login', { replace: true });
    },
    redirectToLogin: (_, { backUrl, isNotUiPermission }) => {
      const to = withBackUrl('/login', backUrl);
      // The spec passes the flag on so the sign-in page can say why (noAccessUser).
      const flagged = isNotUiPermission
        ? `${to}${to.includes('?') ? '&' : '?'}isNotUiPermission=1`
        : to;
      void router.navigate(flagged, { replace: true });
    },
  },
});

/** Turns the fetch wrapper's 401 `session_expired` into the machine's event. */
function SessionExpiryBridge() {
  const actor = SessionActorContext.useActorRef();
  useEffect(() => {
    setSessionExpiredListener((accountIndex, isNotUiPermission) => {
      const { pathname, search, hash } = window.location;
      actor.send({
        type: 'session.expired',
        accountIndex,
        location: pathname + search + hash,
        isNotUiPermission,
      });
    });
    return () => setSessionExpiredListener(undefined);
  }, [actor]);
  return null;
}

export function SessionProvider({
  accounts,
  children,
}: {
  accounts: SessionAccount[];
  children: ReactNode;
}) {
  return (
    <SessionActorContext.Provider logic={sessionLogic} options={{ input: { accounts } }}>
      <SessionExpiryBridge />
      {children}
    </SessionActorContext.Provider>
  );
}
