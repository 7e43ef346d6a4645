import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { SessionAccount } from '#machines/session.machine.ts';
import { accountIndexOfKey } from '#client/api/query-keys.ts';
import { SessionActorContext } from '#client/api/session-context.ts';

/**
 * The one cache of server state (docs/decisions/003-server-state-cache.md). The defaults keep
 * what the screens did before the cache, so the change of library is not one a user sees:
 * - `staleTime: 0` and `gcTime: 0`: an entry goes when its last reader does, so a screen opened
 *   again shows loading and fresh data, as after a navigation today; two readers on one screen
 *   still share one request.
 * - `retry: false`: a 403 or 404 (or a 5xx) shows the screen's error and its "Try again" at once;
 *   retrying a refusal would only delay what the user must see.
 * - `refetchOnWindowFocus` and `refetchOnReconnect` off: a back office user comes back to a
 *   half-filled form; a background reload must not move the screen under them. Screens reload
 *   what a save changed by invalidating its keys instead.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      // One line per failed load, as the screens logged before; aborted loads are not failures.
      onError: (error, query) => console.error('load failed', query.queryKey, error),
    }),
    defaultOptions: {
      queries: {
        staleTime: 0,
        gcTime: 0,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
      mutations: { retry: false },
    },
  });
}

/** Who an account is: the same index may later hold another user, or the same user elsewhere. */
const identityOf = (account: SessionAccount): string =>
  [account.sub, account.tenantId, account.workspace ?? account.tenantSlug].join('\n');

/**
 * Drops every entry loaded for an account that is no longer signed in as the same user in the
 * same workspace: signed out, expired, switched to another workspace, or its index now held by
 * another sign-in. Removing an entry also aborts its load under way (query-core's `destroy`), so a
 * late answer cannot land in the cache afterwards.
 */
export function forgetChangedAccounts(
  client: QueryClient,
  before: readonly SessionAccount[],
  after: readonly SessionAccount[],
): void {
  const was = new Map(before.map((account) => [account.accountIndex, identityOf(account)]));
  const unchanged = new Set(
    after
      .filter((account) => was.get(account.accountIndex) === identityOf(account))
      .map((account) => account.accountIndex),
  );
  client.removeQueries({
    predicate: ({ queryKey }) => {
      const index = accountIndexOfKey(queryKey);
      return index !== undefined && !unchanged.has(index);
    },
  });
}

/** Anything that reports the session's accounts as they change (the session actor). */
interface AccountsSource {
  getSnapshot(): { context: { accounts: SessionAccount[] } };
  subscribe(listener: (snapshot: { context: { accounts: SessionAccount[] } }) => void): {
    unsubscribe(): void;
  };
}

/** Keeps the cache to the accounts signed in now; returns the unsubscribe. */
export function followSessionAccounts(client: QueryClient, session: AccountsSource): () => void {
  let accounts = session.getSnapshot().context.accounts;
  const subscription = session.subscribe(({ context }) => {
    if (context.accounts === accounts) return;
    forgetChangedAccounts(client, accounts, context.accounts);
    accounts = context.accounts;
  });
  return () => subscription.unsubscribe();
}

/**
 * Provides the cache to the screens. It wraps the shell (a lazy route, inside the session
 * provider whose accounts it follows), so the sign-in page loads none of the library: the screens
 * that read server state are all in the shell. Leaving the shell (signed out of the last account)
 * drops the cache with it.
 */
export function ServerStateProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  const session = SessionActorContext.useActorRef();
  useEffect(() => followSessionAccounts(client, session), [client, session]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
