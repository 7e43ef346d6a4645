import { assign, fromPromise, setup } from 'xstate';

/** A record saved with optimistic concurrency: its version, who saved it and when. */
export interface EditableRecord {
  version: number;
  updatedBy: string;
  updatedAt: string;
}

/** A record together with the form values it shows (the screen's `valuesOf(record)`). */
export interface LoadedRecord<R = EditableRecord, V = unknown> {
  record: R;
  values: V;
}

/** What the `validate` actor answers: the input to send, or the errors per field. */
export type ValidationResult<I = unknown> =
  { ok: true; input: I } | { ok: false; errors: Record<string, string[]> };

/**
 * The input of the `saveRecord` actor: what to send, on top of which version (null: a create),
 * and which of the form's fields the user changed from that version (a create: every field). The
 * binding sends only those, so that a save never writes back a value another user changed.
 */
export interface SaveRequest<I = unknown> {
  input: I;
  version: number | null;
  changed: string[];
}

/**
 * How `saveRecord` rejects, classified by the screen's binding from the service's error code:
 * - `conflict`: 409 `version_conflict` with the record as saved now;
 * - `invalid`: the service named fields (400 `validation_error`);
 * - `failed`: anything else, with the message the form shows.
 */
export type SaveRefusal<R = EditableRecord, V = unknown> =
  | { kind: 'conflict'; current: LoadedRecord<R, V> }
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'failed'; failure: string };

export interface RecordEditContext<R = EditableRecord, V = unknown, I = unknown> {
  /** The machine reads the record itself (`loadRecord`): when it starts, and on `record.reload`. */
  loads: boolean;
  /** The record the edit builds on; its version goes with the save. Null for a new record. */
  base: R | null;
  /** The values of `base`: what "unchanged" means for a merge. */
  baseValues: V;
  /** What the form shows and the user typed. */
  values: V;
  /** The checked input of the save under way. */
  input: I | null;
  errors: Record<string, string[]>;
  /** Why the last save or read failed ('' for the generic text), until the next try. */
  failure: string | null;
  /** After a 409: the record as somebody else saved it, and the input it refused. */
  conflict: { current: LoadedRecord<R, V>; mine: V } | null;
}

export type RecordEditEvent<R = EditableRecord, V = unknown> =
  /** The user typed: the form's values as they are now. */
  | { type: 'edit'; values: V }
  | { type: 'save' }
  | { type: 'failure.dismiss' }
  /**
   * The page has a newer record (it reloaded it, or another part of it saved it): the form
   * shows it and forgets what was typed.
   */
  | { type: 'record.load'; record: R; values: V }
  /** As `record.load`, but what is typed stays: only the version the save builds on moves. */
  | { type: 'record.rebase'; record: R; values: V }
  /**
   * Read the record again (`loadRecord`) and show it as saved now, dropping what was typed; only
   * for a machine that loads its record.
   */
  | { type: 'record.reload' }
  /** After a read that failed: try it again. */
  | { type: 'load.retry' }
  /** After a conflict: drop the input for the record as saved now. */
  | { type: 'resolve.reload' }
  /**
   * After a conflict: put this user's own changes (the fields they changed from what they had
   * loaded) on top of the record as saved now and save that; the other save's changes to other
   * fields stay.
   */
  | { type: 'resolve.keepMine' }
  /**
   * After a conflict: take the other save's value in every field this user left as loaded, keep
   * this user's value where they changed it; the form then builds on the saved record and waits
   * for `save`.
   */
  | { type: 'resolve.merge' };

export interface RecordEditInput<R = EditableRecord, V = unknown> {
  /**
   * The record as the page read it; null for a form that creates the record (no version yet, so
   * no conflict either) or, with `load`, until the machine read it.
   */
  record: R | null;
  /** The values of `record`, or of a new record (or the empty form until the record is read). */
  values: V;
  /** The machine reads the record with `loadRecord` before the form shows it. */
  load?: boolean;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys of a field holding an object (the custom fields) whose value differs. */
function changedKeys(before: unknown, after: Record<string, unknown>): string[] {
  const loaded = isPlainObject(before) ? before : {};
  return [...new Set([...Object.keys(loaded), ...Object.keys(after)])].filter(
    (key) => !sameValue(after[key], loaded[key]),
  );
}

/**
 * The top-level fields whose value differs from the loaded one: what a save sends. For a field
 * holding an object (the custom fields) also `field.key` per key that differs, so that a save can
 * send only those keys. Without a loaded record (a create) every field counts as changed.
 */
export function changedFields<V>(loaded: V | null, mine: V): string[] {
  if (typeof mine !== 'object' || mine === null) return [];
  const before = (loaded ?? null) as Record<string, unknown> | null;
  return Object.entries(mine as Record<string, unknown>).flatMap(([key, value]) => {
    if (before !== null && sameValue(value, before[key])) return [];
    if (before === null || !isPlainObject(value)) return [key];
    return [key, ...changedKeys(before[key], value).map((sub) => `${key}.${sub}`)];
  });
}

/**
 * The values after a merge: per top-level field, this user's value where they changed it from
 * what was loaded, else the value saved by the other user. A field holding an object (the custom
 * fields) merges per key: only the keys this user changed (or removed) go on top of the other
 * user's, so "keep mine" never reverts another user's change to a different custom field.
 */
export function mergeValues<V>(loaded: V, mine: V, saved: V): V {
  if (typeof mine !== 'object' || mine === null) return sameValue(mine, loaded) ? saved : mine;
  const result: Record<string, unknown> = { ...(saved as Record<string, unknown>) };
  for (const [key, value] of Object.entries(mine as Record<string, unknown>)) {
    const before = (loaded as Record<string, unknown> | null | undefined)?.[key];
    if (sameValue(value, before)) continue;
    const theirs = result[key];
    if (isPlainObject(value) && isPlainObject(before) && isPlainObject(theirs)) {
      const merged: Record<string, unknown> = { ...theirs };
      for (const sub of changedKeys(before, value)) {
        if (sub in value) merged[sub] = value[sub];
        else delete merged[sub];
      }
      result[key] = merged;
    } else result[key] = value;
  }
  return result as V;
}

/**
 * Editing a versioned record (the edit conflict flow of docs/contracts.md): the user edits,
 * `save` checks the input (`validate`) and sends it on top of the version the form is based on
 * (`saveRecord`). Then one of:
 * - `saved`: the service answered the saved record, which becomes the base (`notifySaved`);
 * - back to `editing` with the field errors or a failure; what is typed always stays;
 * - `conflict`: 409 with the record as saved now; the user reloads it (`resolve.reload`), saves
 *   the input over it (`resolve.keepMine`) or merges the two (`resolve.merge`).
 * A form for a new record has no base until its first save, so its refusals are never conflicts.
 *
 * With `load` the machine reads the record itself (`loading`, then `editing`, or `loadFailed`
 * with the reason until `load.retry`), and reads it again on `record.reload` (the page's reload
 * button, also from a conflict): a screen needs no loader of its own for the record it edits.
 * Without it the page reads the record and hands it in as input. Either way the page may hand a
 * newer one in with `record.load` / `record.rebase` (another part of the page saved it).
 *
 * Provide: actors `loadRecord` (answers the {@link LoadedRecord}, rejects as `saveRecord` does;
 * only with `load`), `validate` (input: the values; answers {@link ValidationResult}) and
 * `saveRecord` (input {@link SaveRequest}; answers the saved {@link LoadedRecord}, rejects with a
 * {@link SaveRefusal}); action `notifySaved` (params: the saved record).
 */
export const recordEditMachine = setup({
  types: {
    context: {} as RecordEditContext,
    events: {} as RecordEditEvent,
    input: {} as RecordEditInput,
  },
  actors: {
    loadRecord: fromPromise<LoadedRecord>(async () => {
      throw new Error('recordEditMachine: provide the loadRecord actor');
    }),
    validate: fromPromise<ValidationResult, unknown>(async () => {
      throw new Error('recordEditMachine: provide the validate actor');
    }),
    saveRecord: fromPromise<LoadedRecord, SaveRequest>(async () => {
      throw new Error('recordEditMachine: provide the saveRecord actor');
    }),
  },
  actions: {
    notifySaved: (_, _params: { record: EditableRecord }) => {},
  },
  guards: {
    loadsRecord: ({ context }) => context.loads,
    isValid: (_, params: { result: ValidationResult }) => params.result.ok,
    isConflict: ({ context }, params: { error: unknown }) =>
      context.base !== null && refusalOf(params.error).kind === 'conflict',
    isInvalid: (_, params: { error: unknown }) => refusalOf(params.error).kind === 'invalid',
  },
}).createMachine({
  id: 'recordEdit',
  context: ({ input }) => ({
    loads: input.load ?? false,
    base: input.record,
    baseValues: input.values,
    values: input.values,
    input: null,
    errors: {},
    failure: null,
    conflict: null,
  }),
  initial: 'opening',
  on: {
    edit: { actions: assign({ values: ({ event }) => event.values }) },
  },
  states: {
    // Decides once, from the input, whether the record must be read first.
    opening: {
      always: [{ guard: 'loadsRecord', target: 'loading' }, { target: 'editing' }],
    },
    loading: {
      // What arrives while reading is superseded by the record read.
      on: { edit: {} },
      invoke: {
        id: 'loadRecord',
        src: 'loadRecord',
        onDone: { target: 'editing', actions: assign(({ event }) => loadedOf(event.output)) },
        onError: {
          target: 'loadFailed',
          actions: assign({ failure: ({ event }) => failureOf(event.error) }),
        },
      },
    },
    loadFailed: {
      on: { 'load.retry': { target: 'loading', actions: assign({ failure: null }) } },
    },
    editing: {
      on: {
        save: 'validating',
        'failure.dismiss': { actions: assign({ failure: null }) },
        'record.load': {
          actions: assign(({ event }) => ({
            base: event.record,
            baseValues: event.values,
            values: event.values,
            errors: {},
            failure: null,
          })),
        },
        'record.rebase': {
          actions: assign(({ event }) => ({ base: event.record, baseValues: event.values })),
        },
        'record.reload': { guard: 'loadsRecord', target: 'loading' },
      },
    },
    validating: {
      invoke: {
        id: 'validate',
        src: 'validate',
        input: ({ context }: { context: RecordEditContext }) => context.values,
        onDone: [
          {
            guard: { type: 'isValid', params: ({ event }) => ({ result: event.output }) },
            target: 'saving',
            actions: assign({
              errors: {},
              failure: null,
              input: ({ event }) => (event.output.ok ? event.output.input : null),
            }),
          },
          {
            target: 'editing',
            actions: assign({
              errors: ({ event }) => (event.output.ok ? {} : event.output.errors),
            }),
          },
        ],
        onError: {
          target: 'editing',
          actions: assign({ failure: ({ event }) => failureOf(event.error) }),
        },
      },
    },
    saving: {
      invoke: {
        id: 'saveRecord',
        src: 'saveRecord',
        input: ({ context }) => ({
          input: context.input,
          version: context.base?.version ?? null,
          changed: changedFields(context.base ? context.baseValues : null, context.values),
        }),
        onDone: {
          target: 'saved',
          actions: [
            assign(({ event }) => ({
              base: event.output.record,
              baseValues: event.output.values,
              values: event.output.values,
              input: null,
              conflict: null,
            })),
            { type: 'notifySaved', params: ({ event }) => ({ record: event.output.record }) },
          ],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'conflict',
            actions: assign(({ context, event }) => {
              const refusal = refusalOf(event.error);
              return {
                input: null,
                conflict:
                  refusal.kind === 'conflict'
                    ? { current: refusal.current, mine: context.values }
                    : null,
              };
            }),
          },
          {
            guard: { type: 'isInvalid', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
            actions: assign(({ event }) => {
              const refusal = refusalOf(event.error);
              return { input: null, errors: refusal.kind === 'invalid' ? refusal.errors : {} };
            }),
          },
          {
            target: 'editing',
            actions: assign({ input: null, failure: ({ event }) => failureOf(event.error) }),
          },
        ],
      },
    },
    saved: {
      on: {
        edit: { target: 'editing', actions: assign({ values: ({ event }) => event.values }) },
        save: 'validating',
        'record.load': {
          target: 'editing',
          actions: assign(({ event }) => ({
            base: event.record,
            baseValues: event.values,
            values: event.values,
          })),
        },
        'record.rebase': {
          actions: assign(({ event }) => ({ base: event.record, baseValues: event.values })),
        },
        'record.reload': { guard: 'loadsRecord', target: 'loading' },
      },
    },
    conflict: {
      on: {
        // Saving again on the old base meets the same refusal: the user saw it and chose so.
        save: 'validating',
        'resolve.reload': {
          target: 'editing',
          actions: assign(({ context }) => loadedOf(context.conflict!.current)),
        },
        // Only this user's own changes go on top of the saved record: a field the other user
        // changed and this user left alone keeps the other user's value.
        'resolve.keepMine': {
          target: 'validating',
          actions: assign(({ context }) => {
            const { current } = context.conflict!;
            return {
              base: current.record,
              baseValues: current.values,
              values: mergeValues(context.baseValues, context.values, current.values),
            };
          }),
        },
        'resolve.merge': {
          target: 'editing',
          actions: assign(({ context }) => {
            const { current } = context.conflict!;
            return {
              ...loadedOf(current),
              values: mergeValues(context.baseValues, context.values, current.values),
            };
          }),
        },
        'record.load': {
          target: 'editing',
          actions: assign(({ event }) => loadedOf(event)),
        },
        // The page's reload button: the record as saved now, read again rather than the 409's.
        'record.reload': { guard: 'loadsRecord', target: 'loading' },
      },
    },
  },
});

function loadedOf(loaded: LoadedRecord) {
  return {
    base: loaded.record,
    baseValues: loaded.values,
    values: loaded.values,
    errors: {},
    failure: null,
    conflict: null,
  };
}

function refusalOf(error: unknown): SaveRefusal {
  const kind = (error as { kind?: unknown } | null | undefined)?.kind;
  if (kind === 'conflict' || kind === 'invalid' || kind === 'failed') return error as SaveRefusal;
  return { kind: 'failed', failure: '' };
}

/** The failure text of a refusal; '' when the binding gave none (the form's generic text). */
function failureOf(error: unknown): string {
  const refusal = refusalOf(error);
  return refusal.kind === 'failed' ? refusal.failure : '';
}

const loadedCustomer = {
  record: { version: 1, updatedBy: 'usr_a', updatedAt: '2026-01-01T10:00:00Z' },
  values: { city: 'Kiel', street: 'Holtenauer Straße' },
};

/**
 * Sample input and events for `npm run paths -- record-edit` and the tests: a form that reads its
 * record, so that every state is reachable from it.
 */
export const pathsInput: RecordEditInput = {
  record: null,
  values: { city: '', street: '' },
  load: true,
};

export const pathEvents = {
  'xstate.done.actor.loadRecord': [
    { type: 'xstate.done.actor.loadRecord', output: loadedCustomer },
  ],
  'xstate.error.actor.loadRecord': [
    { type: 'xstate.error.actor.loadRecord', error: { kind: 'failed', failure: 'Not read.' } },
  ],
  edit: [{ type: 'edit', values: { city: 'Kiel', street: 'Holstenstraße' } }],
  'xstate.done.actor.validate': [
    { type: 'xstate.done.actor.validate', output: { ok: true, input: { city: 'Kiel' } } },
    {
      type: 'xstate.done.actor.validate',
      output: { ok: false, errors: { city: ['form.errors.required'] } },
    },
  ],
  'xstate.error.actor.validate': [
    { type: 'xstate.error.actor.validate', error: { kind: 'failed', failure: 'Not checked.' } },
  ],
  'xstate.done.actor.saveRecord': [
    {
      type: 'xstate.done.actor.saveRecord',
      output: {
        record: { version: 2, updatedBy: 'usr_a', updatedAt: '2026-01-01T10:05:00Z' },
        values: { city: 'Kiel', street: 'Holstenstraße' },
      },
    },
  ],
  'xstate.error.actor.saveRecord': [
    {
      type: 'xstate.error.actor.saveRecord',
      error: {
        kind: 'conflict',
        current: {
          record: { version: 2, updatedBy: 'usr_b', updatedAt: '2026-01-01T10:04:00Z' },
          values: { city: 'Lübeck', street: 'Holtenauer Straße' },
        },
      },
    },
    {
      type: 'xstate.error.actor.saveRecord',
      error: { kind: 'invalid', errors: { phone: ['form.errors.invalid_phone'] } },
    },
    { type: 'xstate.error.actor.saveRecord', error: { kind: 'failed', failure: 'Not saved.' } },
  ],
  'record.load': [
    {
      type: 'record.load',
      record: { version: 3, updatedBy: 'usr_b', updatedAt: '2026-01-01T11:00:00Z' },
      values: { city: 'Husum', street: 'Markt' },
    },
  ],
} as const;
