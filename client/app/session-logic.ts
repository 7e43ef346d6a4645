import { createActor, fromPromise } from 'xstate';
import {
  sessionMachine,
  type SessionEndReason,
  type SignInCredentials,
  type SignInResult,
} from '#machines/session.machine.ts';
import { writeStoredAccounts } from '#client/api/account-storage.ts';
import * as bff from '#client/api/bff-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';

/** The sign-in page's query flag for each reason an account ended (login-form.tsx reads it). */
const REASON_FLAGS: Record<SessionEndReason, string> = {
  no_ui_permission: 'isNotUiPermission',
  user_disabled: 'isUserDisabled',
};

function withBackUrl(path: string, backUrl: string | undefined): string {
  return backUrl ? `${path}?backUrl=${encodeURIComponent(backUrl)}` : path;
}

/**
 * The sign-in page after an account ended: back to `backUrl` afterwards, and the flag of why
 * (the spec's isNotUiPermission, isUserDisabled) so the page says so instead of a time-out. The
 * session's redirect and the account guard build the same address, whichever runs first.
 */
export function loginAfterEnd(backUrl: string, reason: SessionEndReason | null): string {
  const to = withBackUrl('/login', backUrl);
  const flag = reason ? REASON_FLAGS[reason] : null;
  return flag ? `${to}${to.includes('?') ? '&' : '?'}${flag}=1` : to;
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

/**
 * The session machine with the browser's I/O: the BFF calls and storage. Where it goes after a
 * sign-in or sign-out is the caller's: the app's router, or, on the light sign-in page that has no
 * router yet, starting the app at that path (`quick-sign-in.tsx`).
 */
export function sessionLogicWith(navigate: (to: string) => void) {
  return sessionMachine.provide({
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
        navigate(backUrl ?? `/u/${accountIndex}`);
      },
      navigateToPasswordChange: (_, { accountIndex, backUrl }) => {
        navigate(withBackUrl(`/u/${accountIndex}/changepassword`, backUrl));
      },
      navigateAfterSignOut: (_, { remaining }) => {
        const next = remaining[0];
        navigate(next ? `/u/${next.accountIndex}` : '/login');
      },
      redirectToLogin: (_, { backUrl, reason }) => {
        // The spec passes the flag on so the sign-in page can say why (noAccessUser); a disabled
        // user is told so the same way (isUserDisabled).
        navigate(loginAfterEnd(backUrl, reason));
      },
    },
  });
}

/** A running session actor outside React's provider: the light sign-in page's own. */
export function startSessionActor(navigate: (to: string) => void) {
  return createActor(sessionLogicWith(navigate), { input: { accounts: [] } }).start();
}
