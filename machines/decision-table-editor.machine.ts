import { assign, fromPromise, setup } from 'xstate';

/**
 * One version of a decision table as the editor shows it: the table's name, the version's number
 * and who saved it when, the latest version's number (an older one is only viewed), and the grid
 * (opaque here: the screen's editable table, compared as data for "unsaved changes").
 */
export interface LoadedDecisionTable {
  name: string;
  versionNumber: number;
  latestVersionNumber: number;
  savedBy: string;
  savedAt: string;
  grid: unknown;
}

/**
 * How `saveVersion` rejects, classified by the screen's binding:
 * - `conflict`: somebody saved a newer version since this one was loaded (its number);
 * - `refused`: the service refused the file (400 `invalid_dmn`: its code and message, shown
 *   translated with the service's detail);
 * - `failed`: anything else (no answer, 5xx).
 */
export type SaveRefusal =
  | { kind: 'conflict'; latestVersionNumber: number }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'failed' };

/** Why a load failed: 404 (no such table or version, the spec's messages) or anything else. */
export type LoadFailure = { kind: 'missing'; message: string } | { kind: 'failed' };

export interface SaveRequest {
  grid: unknown;
  /** The latest version when this one was loaded: a newer one is a conflict, unless `force`. */
  baseVersionNumber: number;
  force: boolean;
}

export interface DecisionTableEditorContext {
  /** The version asked for in the address; null: the latest. */
  versionNumber: number | null;
  loaded: LoadedDecisionTable | null;
  /** The grid as the user edited it (the loaded one until the first edit). */
  draft: unknown;
  loadFailure: LoadFailure | null;
  saveRefusal: SaveRefusal | null;
  /** The save under way overrides a newer version (the user chose "save anyway"). */
  force: boolean;
}

export type DecisionTableEditorEvent =
  /** The grid after a user's change (a cell typed, a rule added, ...). */
  | { type: 'table.edit'; grid: unknown }
  | { type: 'table.save' }
  /** Drop the unsaved changes: the grid of the loaded version again. */
  | { type: 'table.discard' }
  /** The table was renamed (its name is not versioned). */
  | { type: 'table.renamed'; name: string }
  | { type: 'failure.dismiss' }
  | { type: 'load.retry' }
  /** After a conflict: load the newer version, dropping the changes. */
  | { type: 'conflict.reload' }
  /** After a conflict: save the changes as the next version anyway. */
  | { type: 'conflict.saveAnyway' }
  /** After a conflict: back to the changes, nothing saved. */
  | { type: 'conflict.dismiss' };

export interface DecisionTableEditorInput {
  versionNumber: number | null;
}

const sameGrid = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const refusalOf = (error: unknown): SaveRefusal => {
  const kind = (error as { kind?: unknown } | null | undefined)?.kind;
  return kind === 'conflict' || kind === 'refused' || kind === 'failed'
    ? (error as SaveRefusal)
    : { kind: 'failed' };
};

const loadFailureOf = (error: unknown): LoadFailure => {
  const kind = (error as { kind?: unknown } | null | undefined)?.kind;
  return kind === 'missing' ? (error as LoadFailure) : { kind: 'failed' };
};

/**
 * The decision table editor (issue 17): `loading` the version asked for, then `viewing` it when
 * it is an older one (read-only: versions are never edited, a save makes the next one) or
 * `editing` the latest; the first change makes it `dirty` (a change undone makes it clean
 * again). `table.save` goes `saving`: the binding compares the latest version number with the
 * one loaded (a colleague's newer version is a `conflict`: reload it, save anyway, or go back
 * to the changes), then uploads the file; the service's refusal keeps every change (`dirty` with
 * the refusal). A failed load is `failed` until `load.retry`.
 *
 * Provide: actors `loadVersion` (input: the version number or null; answers
 * {@link LoadedDecisionTable}, rejects with a {@link LoadFailure}) and `saveVersion` (input
 * {@link SaveRequest}; answers the saved version as loaded, rejects with a {@link SaveRefusal});
 * action `notifySaved` (the versions list reloads).
 */
export const decisionTableEditorMachine = setup({
  types: {
    context: {} as DecisionTableEditorContext,
    events: {} as DecisionTableEditorEvent,
    input: {} as DecisionTableEditorInput,
  },
  actors: {
    loadVersion: fromPromise<LoadedDecisionTable, { versionNumber: number | null }>(async () => {
      throw new Error('decisionTableEditorMachine: provide the loadVersion actor');
    }),
    saveVersion: fromPromise<LoadedDecisionTable, SaveRequest>(async () => {
      throw new Error('decisionTableEditorMachine: provide the saveVersion actor');
    }),
  },
  actions: {
    notifySaved: () => {},
  },
  guards: {
    isOlderVersion: (_, params: { loaded: LoadedDecisionTable }) =>
      params.loaded.versionNumber < params.loaded.latestVersionNumber,
    isUnchanged: ({ context }, params: { grid: unknown }) =>
      sameGrid(params.grid, context.loaded?.grid),
    isConflict: (_, params: { error: unknown }) => refusalOf(params.error).kind === 'conflict',
  },
}).createMachine({
  id: 'decisionTableEditor',
  context: ({ input }) => ({
    versionNumber: input.versionNumber,
    loaded: null,
    draft: null,
    loadFailure: null,
    saveRefusal: null,
    force: false,
  }),
  initial: 'loading',
  on: {
    'table.renamed': {
      actions: assign({
        loaded: ({ context, event }) => context.loaded && { ...context.loaded, name: event.name },
      }),
    },
  },
  states: {
    loading: {
      entry: assign({ loadFailure: null, saveRefusal: null, force: false }),
      invoke: {
        id: 'loadVersion',
        src: 'loadVersion',
        input: ({ context }) => ({ versionNumber: context.versionNumber }),
        onDone: [
          {
            guard: { type: 'isOlderVersion', params: ({ event }) => ({ loaded: event.output }) },
            target: 'viewing',
            actions: assign({ loaded: ({ event }) => event.output, draft: null }),
          },
          {
            target: 'editing',
            actions: assign({
              loaded: ({ event }) => event.output,
              draft: ({ event }) => event.output.grid,
            }),
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({ loadFailure: ({ event }) => loadFailureOf(event.error) }),
        },
      },
    },
    failed: {
      on: { 'load.retry': 'loading' },
    },
    // An older version, read-only; the page links to the latest.
    viewing: {},
    editing: {
      on: {
        'table.edit': [
          {
            guard: { type: 'isUnchanged', params: ({ event }) => ({ grid: event.grid }) },
            actions: assign({ draft: ({ event }) => event.grid }),
          },
          { target: 'dirty', actions: assign({ draft: ({ event }) => event.grid }) },
        ],
      },
    },
    dirty: {
      on: {
        'table.edit': [
          {
            guard: { type: 'isUnchanged', params: ({ event }) => ({ grid: event.grid }) },
            target: 'editing',
            actions: assign({ draft: ({ event }) => event.grid, saveRefusal: null }),
          },
          { actions: assign({ draft: ({ event }) => event.grid }) },
        ],
        'table.save': { target: 'saving', actions: assign({ force: false }) },
        'table.discard': {
          target: 'editing',
          actions: assign({ draft: ({ context }) => context.loaded?.grid, saveRefusal: null }),
        },
        'failure.dismiss': { actions: assign({ saveRefusal: null }) },
      },
    },
    saving: {
      entry: assign({ saveRefusal: null }),
      invoke: {
        id: 'saveVersion',
        src: 'saveVersion',
        input: ({ context }) => ({
          grid: context.draft,
          baseVersionNumber: context.loaded?.latestVersionNumber ?? 0,
          force: context.force,
        }),
        onDone: {
          target: 'editing',
          actions: [
            assign({
              loaded: ({ event }) => event.output,
              draft: ({ event }) => event.output.grid,
              force: false,
            }),
            'notifySaved',
          ],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'conflict',
            actions: assign({ saveRefusal: ({ event }) => refusalOf(event.error) }),
          },
          {
            target: 'dirty',
            actions: assign({ saveRefusal: ({ event }) => refusalOf(event.error), force: false }),
          },
        ],
      },
    },
    conflict: {
      on: {
        'conflict.reload': {
          target: 'loading',
          actions: assign({ versionNumber: null }),
        },
        'conflict.saveAnyway': { target: 'saving', actions: assign({ force: true }) },
        'conflict.dismiss': { target: 'dirty', actions: assign({ saveRefusal: null }) },
      },
    },
  },
});

/** Sample events for the generated paths (`npm run paths`, the model spec). */
export const pathEvents = {
  'xstate.done.actor.loadVersion': [
    {
      type: 'xstate.done.actor.loadVersion',
      output: {
        name: 'Routing',
        versionNumber: 2,
        latestVersionNumber: 2,
        savedBy: 'a',
        savedAt: '2026-01-01T00:00:00Z',
        grid: { threshold: 1 },
      },
    },
    {
      type: 'xstate.done.actor.loadVersion',
      output: {
        name: 'Routing',
        versionNumber: 1,
        latestVersionNumber: 2,
        savedBy: 'a',
        savedAt: '2026-01-01T00:00:00Z',
        grid: { threshold: 0 },
      },
    },
  ],
  'xstate.error.actor.loadVersion': [
    { type: 'xstate.error.actor.loadVersion', error: { kind: 'missing', message: 'x' } },
  ],
  'table.edit': [{ type: 'table.edit', grid: { threshold: 2 } }],
  'xstate.done.actor.saveVersion': [
    {
      type: 'xstate.done.actor.saveVersion',
      output: {
        name: 'Routing',
        versionNumber: 3,
        latestVersionNumber: 3,
        savedBy: 'a',
        savedAt: '2026-01-01T00:00:00Z',
        grid: { threshold: 2 },
      },
    },
  ],
  'xstate.error.actor.saveVersion': [
    {
      type: 'xstate.error.actor.saveVersion',
      error: { kind: 'conflict', latestVersionNumber: 3 },
    },
    {
      type: 'xstate.error.actor.saveVersion',
      error: { kind: 'refused', code: 'invalid_dmn', message: 'x' },
    },
  ],
} as const;

export const pathsInput: DecisionTableEditorInput = { versionNumber: null };
