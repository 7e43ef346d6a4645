import { assign, fromPromise, setup } from 'xstate';

export type BatchRowState = 'pending' | 'running' | 'done' | 'failed';

export interface BatchRow {
  id: number;
  /** How the screen names the row (an e-mail address). */
  label: string;
  state: BatchRowState;
  /** The service's error code of a failed row. */
  error: string | null;
}

/** The service's answer for one id of a chunk. */
export interface BatchRowResult {
  id: number;
  ok: boolean;
  error?: string | undefined;
}

export interface BatchActionContext {
  /** What the batch does (`enable`, `disable`, `delete`, `roles`); the screen's key. */
  action: string | null;
  /** Extra input of the action, such as the role ids of a role change. */
  params: Record<string, unknown>;
  rows: BatchRow[];
  /** How many rows go to the service in one call: progress shows between the calls. */
  chunkSize: number;
  /** The code of a call that failed as a whole (no answer, 5xx); null otherwise. */
  error: string | null;
}

export type BatchActionEvent =
  | {
      type: 'batch.start';
      action: string;
      rows: readonly { id: number; label: string }[];
      params?: Record<string, unknown>;
    }
  | { type: 'batch.confirm' }
  | { type: 'batch.cancel' }
  /** Runs the failed rows again (after a partial failure), or the rest after a failed call. */
  | { type: 'batch.retry' }
  | { type: 'batch.close' };

export interface BatchActionInput {
  chunkSize?: number;
}

/** The input of the `runChunk` actor: one call of the service for a few rows. */
export interface BatchChunk {
  action: string;
  ids: number[];
  params: Record<string, unknown>;
}

export const countRows = (rows: readonly BatchRow[], state: BatchRowState) =>
  rows.filter((row) => row.state === state).length;

const nextChunk = (context: BatchActionContext) =>
  context.rows.filter((row) => row.state === 'pending').slice(0, context.chunkSize);

/** The rows of the chunk now running, with the service's answer for each. */
function applyResults(rows: readonly BatchRow[], results: readonly BatchRowResult[]): BatchRow[] {
  const byId = new Map(results.map((result) => [result.id, result]));
  return rows.map((row) => {
    if (row.state !== 'running') return row;
    const result = byId.get(row.id);
    // A row the service did not answer for was not done: it counts as failed, retry may send it.
    if (result === undefined) return { ...row, state: 'failed', error: 'no_result' };
    return result.ok
      ? { ...row, state: 'done', error: null }
      : { ...row, state: 'failed', error: result.error ?? 'generic' };
  });
}

function failureCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : 'unavailable';
}

/**
 * One action over selected rows (users' enable, disable, delete, role change): `batch.start`
 * names the action and rows and asks for confirmation; `running` sends the pending rows to the
 * service a chunk at a time (`runChunk`), each row going pending -> running -> done or failed
 * with the service's error code. Then
 * - `done`: every row was done (`notifyDone`);
 * - `partial`: some rows failed; `batch.retry` sends only those again;
 * - `failed`: a call failed as a whole (no answer); its rows are pending again and `batch.retry`
 *   goes on from there.
 * `batch.close` ends the flow; rows that changed make the screen reload (`notifyDone` also after
 * a partial run, as some rows did change).
 *
 * Provide: actor `runChunk` (input {@link BatchChunk}, answers one {@link BatchRowResult} per id);
 * action `notifyDone` (params: the rows).
 */
export const batchActionMachine = setup({
  types: {
    context: {} as BatchActionContext,
    events: {} as BatchActionEvent,
    input: {} as BatchActionInput,
  },
  actors: {
    runChunk: fromPromise<BatchRowResult[], BatchChunk>(async () => {
      throw new Error('batchActionMachine: provide the runChunk actor');
    }),
  },
  actions: {
    notifyDone: (_, _params: { rows: BatchRow[] }) => {},
  },
  guards: {
    hasPending: ({ context }) => countRows(context.rows, 'pending') > 0,
    allDone: ({ context }) => context.rows.every((row) => row.state === 'done'),
    hasRows: ({ event }) => event.type === 'batch.start' && event.rows.length > 0,
  },
}).createMachine({
  id: 'batchAction',
  context: ({ input }) => ({
    action: null,
    params: {},
    rows: [],
    chunkSize: Math.max(1, input.chunkSize ?? 10),
    error: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'batch.start': {
          guard: 'hasRows',
          target: 'confirming',
          actions: assign(({ event }) => ({
            action: event.action,
            params: event.params ?? {},
            rows: event.rows.map((row) => ({
              id: row.id,
              label: row.label,
              state: 'pending' as const,
              error: null,
            })),
            error: null,
          })),
        },
      },
    },
    confirming: {
      on: {
        'batch.confirm': 'running',
        'batch.cancel': { target: 'idle', actions: assign({ action: null, rows: [], params: {} }) },
      },
    },
    running: {
      initial: 'chunk',
      states: {
        chunk: {
          entry: assign({
            rows: ({ context }) => {
              const ids = new Set(nextChunk(context).map((row) => row.id));
              return context.rows.map((row) =>
                ids.has(row.id) ? { ...row, state: 'running' as const } : row,
              );
            },
          }),
          invoke: {
            id: 'runChunk',
            src: 'runChunk',
            input: ({ context }) => ({
              // Set by `batch.start`, the only way into the flow.
              action: context.action!,
              ids: context.rows.filter((row) => row.state === 'running').map((row) => row.id),
              params: context.params,
            }),
            onDone: {
              target: 'next',
              actions: assign({
                rows: ({ context, event }) => applyResults(context.rows, event.output),
              }),
            },
            onError: {
              target: '#batchAction.failed',
              actions: assign({
                // Nothing is known of the chunk's rows: pending again, for a retry.
                rows: ({ context }) =>
                  context.rows.map((row) =>
                    row.state === 'running' ? { ...row, state: 'pending' as const } : row,
                  ),
                error: ({ event }) => failureCodeOf(event.error),
              }),
            },
          },
        },
        next: {
          always: [
            { guard: 'hasPending', target: 'chunk', reenter: true },
            {
              guard: 'allDone',
              target: '#batchAction.done',
              actions: { type: 'notifyDone', params: ({ context }) => ({ rows: context.rows }) },
            },
            {
              target: '#batchAction.partial',
              actions: { type: 'notifyDone', params: ({ context }) => ({ rows: context.rows }) },
            },
          ],
        },
      },
    },
    done: {
      on: { 'batch.close': { target: 'idle', actions: assign({ action: null, rows: [] }) } },
    },
    partial: {
      on: {
        'batch.retry': {
          target: 'running',
          actions: assign({
            rows: ({ context }) =>
              context.rows.map((row) =>
                row.state === 'failed' ? { ...row, state: 'pending' as const, error: null } : row,
              ),
          }),
        },
        'batch.close': { target: 'idle', actions: assign({ action: null, rows: [] }) },
      },
    },
    failed: {
      on: {
        'batch.retry': { target: 'running', actions: assign({ error: null }) },
        'batch.close': {
          target: 'idle',
          actions: [
            // Rows done before the failed call did change: the screen reloads.
            { type: 'notifyDone', params: ({ context }) => ({ rows: context.rows }) },
            assign({ action: null, rows: [], error: null }),
          ],
        },
      },
    },
  },
});

/** Sample input and events for `npm run paths -- batch-action` and the tests. */
export const pathsInput: BatchActionInput = { chunkSize: 10 };

export const pathEvents = {
  'batch.start': [
    {
      type: 'batch.start',
      action: 'delete',
      rows: [
        { id: 1, label: 'admin@demo.test' },
        { id: 2, label: 'temp@demo.test' },
      ],
    },
  ],
  'xstate.done.actor.runChunk': [
    {
      type: 'xstate.done.actor.runChunk',
      output: [
        { id: 1, ok: true },
        { id: 2, ok: true },
      ],
    },
    {
      type: 'xstate.done.actor.runChunk',
      output: [
        { id: 1, ok: false, error: 'cannot_delete_self' },
        { id: 2, ok: true },
      ],
    },
  ],
  'xstate.error.actor.runChunk': [
    { type: 'xstate.error.actor.runChunk', error: { status: 502, code: 'upstream_unavailable' } },
  ],
} as const;
