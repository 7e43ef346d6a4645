import type { QueryObserverResult } from '@tanstack/react-query';

/** What a screen shows of something it loads: a spinner, its error, or the value. */
export type LoadState<T> =
  { kind: 'loading' } | { kind: 'failed'; error: unknown } | { kind: 'ready'; value: T };

const LOADING = { kind: 'loading' } as const;

/**
 * A query's result as the screens show it. A new key (another id) has no data yet and shows
 * `loading`, never the previous record. A refetch after a failure ("Try again") shows `loading`
 * again, as the screens did before the cache; a refetch of loaded data (after a save) keeps it on
 * screen until the new answer replaces it.
 */
export function loadStateOf<T>(
  query: Pick<QueryObserverResult<T>, 'status' | 'fetchStatus' | 'data' | 'error'>,
): LoadState<T> {
  if (query.status === 'success') return { kind: 'ready', value: query.data as T };
  if (query.status === 'error' && query.fetchStatus === 'idle') {
    return { kind: 'failed', error: query.error };
  }
  return LOADING;
}

/**
 * A failure that means the record does not exist (or is another tenant's): 404. The kit does not
 * import the API layer, so it reads the HTTP status any error carries (the API's ApiError does).
 */
export function isNotFound(state: LoadState<unknown>): boolean {
  return state.kind === 'failed' && httpStatusOf(state.error) === 404;
}

function httpStatusOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

/**
 * Several loads a screen shows as one (a record's statuses and rules): the first failure at
 * once, else loading until every value is there, then the values in the order given.
 */
export function allLoaded<T extends readonly unknown[]>(states: {
  readonly [K in keyof T]: LoadState<T[K]>;
}): LoadState<T> {
  const list: readonly LoadState<unknown>[] = states;
  const failed = list.find((state) => state.kind === 'failed');
  if (failed) return failed;
  if (list.some((state) => state.kind === 'loading')) return LOADING;
  return {
    kind: 'ready',
    value: list.map((state) => (state.kind === 'ready' ? state.value : undefined)) as unknown as T,
  };
}

/** "Try again" for a group of loads: only the failed ones are asked again. */
export function retryFailed(queries: readonly Pick<QueryObserverResult, 'status' | 'refetch'>[]) {
  for (const query of queries) if (query.status === 'error') void query.refetch();
}

/** The same state with its value made into what the screen shows. */
export function mapLoaded<T, U>(state: LoadState<T>, map: (value: T) => U): LoadState<U> {
  return state.kind === 'ready' ? { kind: 'ready', value: map(state.value) } : state;
}
