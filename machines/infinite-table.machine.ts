import { assign, fromPromise, setup } from 'xstate';

export type SortDirection = 'asc' | 'desc';

/** What the table asks for: per-column filter texts and at most one sorted column. */
export interface TableQuery {
  filters: Readonly<Record<string, string>>;
  sort: { column: string; direction: SortDirection } | null;
}

export interface LoadPageInput {
  query: TableQuery;
  /** null for the first page. */
  pageToken: string | null;
  pageSize: number;
}

export interface LoadPageOutput {
  rows: readonly unknown[];
  /** null, '' or '0' (the spec's mock: "last page '0'") mean there are no more pages. */
  nextPageToken: string | null;
  /** Total row count when the back end knows it (aria-rowcount); otherwise left out. */
  totalCount?: number;
  /** The list holds more rows than `totalCount` (a capped count: "10 000+"). */
  totalAbove?: boolean;
}

export interface InfiniteTableInput {
  query?: TableQuery;
  /** Spec, section 9: default list page size 30. */
  pageSize?: number;
  /**
   * Pages loaded automatically (without a user action) before loading stops and the retry
   * button appears; null never stops. Supplied by the caller (spec, section 9).
   */
  stopLimit?: number | null;
}

export interface InfiniteTableContext {
  query: TableQuery;
  pageSize: number;
  stopLimit: number | null;
  rows: unknown[];
  nextPageToken: string | null;
  totalCount: number | null;
  /** `totalCount` is a floor, not the count (see {@link LoadPageOutput}). */
  totalAbove: boolean;
  /** Pages loaded since the last user action (query change, retry): compared to `stopLimit`. */
  autoPages: number;
  /** The last failure; null when loading stopped because of the stop limit. */
  error: unknown;
}

export type InfiniteTableEvent =
  | { type: 'table.query'; query: TableQuery }
  | { type: 'table.nearEnd' }
  | { type: 'table.retry' }
  | { type: 'table.reload' };

export const DEFAULT_PAGE_SIZE = 30;
export const emptyQuery: TableQuery = { filters: {}, sort: null };

export function isLastPageToken(token: string | null | undefined): boolean {
  return token === null || token === undefined || token === '' || token === '0';
}

type Loaded = { output: LoadPageOutput };

function appended(context: InfiniteTableContext, { output }: Loaded) {
  return {
    rows: [...context.rows, ...output.rows],
    nextPageToken: isLastPageToken(output.nextPageToken) ? null : output.nextPageToken,
    totalCount: output.totalCount ?? context.totalCount,
    totalAbove: output.totalCount === undefined ? context.totalAbove : output.totalAbove === true,
    autoPages: context.autoPages + 1,
    error: null,
  };
}

const restarted = (context: InfiniteTableContext, query: TableQuery) => ({
  ...context,
  query,
  rows: [],
  nextPageToken: null,
  totalCount: null,
  totalAbove: false,
  autoPages: 0,
  error: null,
});

/**
 * Loading of an infinite-scroll table, page by page with `pageToken` / `nextPageToken`.
 *
 * `loadingFirst` -> `idle` (more pages) | `exhausted` (no more) | `empty` (no rows at all);
 * `idle` --table.nearEnd--> `loadingMore`. Automatic loading `stopped` after a failure or after
 * `stopLimit` pages; `table.retry` goes on from where it stopped. `table.query` (filters, sort)
 * and `table.reload` restart from page 1 from any state: re-entering `loadingFirst` stops the
 * running `loadPage` actor, so a late answer of the previous query is never applied.
 *
 * Provide: actor `loadPage` (input {@link LoadPageInput}, output {@link LoadPageOutput}).
 */
export const infiniteTableMachine = setup({
  types: {
    context: {} as InfiniteTableContext,
    events: {} as InfiniteTableEvent,
    input: {} as InfiniteTableInput,
  },
  actors: {
    loadPage: fromPromise<LoadPageOutput, LoadPageInput>(async () => {
      throw new Error('infiniteTableMachine: provide the loadPage actor');
    }),
  },
  guards: {
    isEmptyResult: (_, { output }: Loaded) =>
      output.rows.length === 0 && isLastPageToken(output.nextPageToken),
    isLastPage: (_, { output }: Loaded) => isLastPageToken(output.nextPageToken),
    isStopLimitReached: ({ context }) =>
      context.stopLimit !== null && context.autoPages + 1 >= context.stopLimit,
  },
}).createMachine({
  id: 'infiniteTable',
  context: ({ input }) => ({
    query: input.query ?? emptyQuery,
    pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
    stopLimit: input.stopLimit ?? null,
    rows: [],
    nextPageToken: null,
    totalCount: null,
    totalAbove: false,
    autoPages: 0,
    error: null,
  }),
  initial: 'loadingFirst',
  on: {
    'table.query': {
      target: '.loadingFirst',
      reenter: true,
      actions: assign(({ context, event }) => restarted(context, event.query)),
    },
    'table.reload': {
      target: '.loadingFirst',
      reenter: true,
      actions: assign(({ context }) => restarted(context, context.query)),
    },
  },
  states: {
    loadingFirst: {
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({
          query: context.query,
          pageToken: null,
          pageSize: context.pageSize,
        }),
        onDone: [
          {
            guard: { type: 'isEmptyResult', params: ({ event }) => event },
            target: 'empty',
            actions: assign(({ context, event }) => appended(context, event)),
          },
          {
            guard: { type: 'isLastPage', params: ({ event }) => event },
            target: 'exhausted',
            actions: assign(({ context, event }) => appended(context, event)),
          },
          {
            guard: 'isStopLimitReached',
            target: 'stopped',
            actions: assign(({ context, event }) => appended(context, event)),
          },
          { target: 'idle', actions: assign(({ context, event }) => appended(context, event)) },
        ],
        onError: { target: 'stopped', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    idle: {
      on: { 'table.nearEnd': 'loadingMore' },
    },
    loadingMore: {
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({
          query: context.query,
          pageToken: context.nextPageToken,
          pageSize: context.pageSize,
        }),
        onDone: [
          {
            guard: { type: 'isLastPage', params: ({ event }) => event },
            target: 'exhausted',
            actions: assign(({ context, event }) => appended(context, event)),
          },
          {
            guard: 'isStopLimitReached',
            target: 'stopped',
            actions: assign(({ context, event }) => appended(context, event)),
          },
          { target: 'idle', actions: assign(({ context, event }) => appended(context, event)) },
        ],
        onError: { target: 'stopped', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    stopped: {
      on: {
        // A failed first page has no token to go on from: start again.
        'table.retry': [
          {
            guard: ({ context }) => context.rows.length === 0,
            target: 'loadingFirst',
            actions: assign({ autoPages: 0, error: null }),
          },
          { target: 'loadingMore', actions: assign({ autoPages: 0, error: null }) },
        ],
      },
    },
    exhausted: {},
    empty: {},
  },
});

/** Sample input for `npm run paths -- infinite-table` and the model-based test. */
export const pathsInput: InfiniteTableInput = { query: emptyQuery, pageSize: 2, stopLimit: 2 };

/** Sample events for `npm run paths -- infinite-table` and the model-based test. */
export const pathEvents = {
  'table.query': [{ type: 'table.query', query: { filters: { name: 'an' }, sort: null } }],
  'xstate.done.actor.loadPage': [
    { type: 'xstate.done.actor.loadPage', output: { rows: ['a', 'b'], nextPageToken: '2' } },
    { type: 'xstate.done.actor.loadPage', output: { rows: ['c'], nextPageToken: '0' } },
    { type: 'xstate.done.actor.loadPage', output: { rows: [], nextPageToken: null } },
  ],
  'xstate.error.actor.loadPage': [{ type: 'xstate.error.actor.loadPage', error: 'timeout' }],
} as const;
