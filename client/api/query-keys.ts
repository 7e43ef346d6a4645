import { queryOptions, type QueryKey } from '@tanstack/react-query';

/**
 * The first part of every server-state key: the signed-in account (`/u/:i`) the data was loaded
 * for. Two accounts in one browser, or one account before and after a workspace switch, must never
 * share an entry, and signing an account out must be able to drop everything it loaded with one
 * prefix (`client/app/server-state.tsx`).
 */
export const accountKey = (accountIndex: number) => ['account', accountIndex] as const;

/** The account a key was built for, or undefined for a key outside any account. */
export function accountIndexOfKey(key: readonly unknown[]): number | undefined {
  return key[0] === 'account' && typeof key[1] === 'number' ? key[1] : undefined;
}

/**
 * The one shape of the `*-queries.ts` factories: a key and a load. The load gets the query's
 * AbortSignal, so a screen left or a key changed cancels its request; `cache` holds a query's own
 * freshness rules where it has any.
 */
export function keyedQuery<const TKey extends QueryKey, T>(
  queryKey: TKey,
  load: (signal: AbortSignal) => Promise<T>,
  cache: { staleTime?: number; gcTime?: number } = {},
) {
  return queryOptions<T, Error, T, TKey>({
    queryKey,
    queryFn: ({ signal }) => load(signal),
    ...cache,
  });
}
