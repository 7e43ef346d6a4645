import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import {
  recordEditMachine,
  type LoadedRecord,
  type SaveRefusal,
  type SaveRequest,
  type ValidationResult,
} from '#machines/record-edit.machine.ts';
import type { ConflictRow } from '#client/ui/conflict-rows.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';

/** A record saved with optimistic concurrency: its version, who saved it and when. */
export interface VersionedRecord {
  version: number;
  updatedBy: string;
  updatedAt: string;
}

/** Options of a form that edits a record or, with `record` null, creates one. */
export interface RecordSaveOptions<R extends VersionedRecord, V, I, F extends string> {
  record: R | null;
  valuesOf: (record: R) => V;
  /** The values of a new record. */
  emptyValues: () => V;
  /** The form's own check: the input to send, or the errors per field. */
  validate: (values: V) => { ok: true; input: I } | { ok: false; errors: FieldErrors };
  /**
   * `version` is null when the record is new (a create). `changed` names the form's fields the
   * user changed from that version: a save sends only what they stand for.
   */
  send: (input: I, version: number | null, changed: readonly string[]) => Promise<R>;
  conflictRows: (loaded: R, mine: V, saved: R) => ConflictRow<F>[];
  /** The current record a 409 `version_conflict` carries; null for any other error. */
  conflictOf: (error: unknown) => R | null;
  /** Any other refusal: errors at the fields, or a message for the form. */
  refusal: (error: unknown) => { errors: FieldErrors } | { failure: string };
  onSaved: (record: R) => void;
}

/**
 * Options of a form that reads the record it edits itself: `load` reads it (with the request's
 * signal), at first and on `reload`; the form shows `emptyValues` until then.
 */
export type LoadedEditOptions<R extends VersionedRecord, V, I, F extends string> = Omit<
  RecordSaveOptions<R, V, I, F>,
  'record' | 'send'
> & {
  load: (signal: AbortSignal) => Promise<R>;
  send: (input: I, version: number, changed: readonly string[]) => Promise<R>;
};

export type VersionedSaveOptions<R extends VersionedRecord, V, I, F extends string> = Omit<
  RecordSaveOptions<R, V, I, F>,
  'record' | 'send' | 'emptyValues'
> & { record: R; send: (input: I, version: number, changed: readonly string[]) => Promise<R> };

/**
 * A form that saves on top of the version it was loaded with (the edit conflict flow of
 * docs/contracts.md), driven by `recordEditMachine`: what is typed stays in every failure; a 409
 * with the current record becomes a conflict (shown by ConflictPanel) from which the user loads
 * the saved record, saves the input over it knowingly, or merges the two.
 */
export function useVersionedSave<R extends VersionedRecord, V, I, F extends string>(
  options: VersionedSaveOptions<R, V, I, F>,
) {
  const form = useRecordSave<R, V, I, F>({
    ...options,
    emptyValues: () => options.valuesOf(options.record),
    // With a record there is always a version: the base is the record or a saved successor.
    send: (input, version, changed) => options.send(input, version!, changed),
  });
  return { ...form, base: form.base! };
}

/**
 * useVersionedSave for a form that reads its record itself (record-edit's load state): `phase`
 * says whether it is still reading, failed to (then `retry`), or is ready; `reload` reads the
 * record as saved now and drops what was typed (the reload button, also after a conflict).
 */
export function useLoadedRecordEdit<R extends VersionedRecord, V, I, F extends string>(
  options: LoadedEditOptions<R, V, I, F>,
) {
  return useRecordSave<R, V, I, F>({
    ...options,
    record: null,
    // A loaded record always has a version: the base is the record read or a saved successor.
    send: (input, version, changed) => options.send(input, version!, changed),
  });
}

/**
 * useVersionedSave for a form that may also create the record: until the first save there is no
 * version, and no conflict can arise.
 */
export function useRecordSave<R extends VersionedRecord, V, I, F extends string>(
  options: RecordSaveOptions<R, V, I, F> & { load?: (signal: AbortSignal) => Promise<R> },
) {
  // The actor lives as long as the form; the screen's callbacks change with each render.
  const latest = useRef({ options });
  useEffect(() => {
    latest.current = { options };
  });

  const actor = useActorRef(
    recordEditMachine.provide({
      actors: {
        loadRecord: fromPromise<LoadedRecord>(async ({ signal }) => {
          const { load, valuesOf } = latest.current.options;
          const record = await load!(signal);
          return { record, values: valuesOf(record) };
        }),
        validate: fromPromise<ValidationResult, unknown>(async ({ input }) =>
          latest.current.options.validate(input as V),
        ),
        saveRecord: fromPromise<LoadedRecord, SaveRequest>(async ({ input }) => {
          const { send, valuesOf, conflictOf, refusal } = latest.current.options;
          try {
            const saved = await send(input.input as I, input.version, input.changed);
            return { record: saved, values: valuesOf(saved) };
          } catch (error) {
            const current = input.version === null ? null : conflictOf(error);
            if (current) {
              throw {
                kind: 'conflict',
                current: { record: current, values: valuesOf(current) },
              } satisfies SaveRefusal<R, V>;
            }
            const refused = refusal(error);
            throw (
              'errors' in refused
                ? { kind: 'invalid', errors: refused.errors }
                : { kind: 'failed', failure: refused.failure }
            ) satisfies SaveRefusal;
          }
        }),
      },
      actions: {
        notifySaved: (_, { record }) => {
          latest.current.options.onSaved(record as R);
        },
      },
    }),
    {
      input: {
        record: options.record,
        values: options.record ? options.valuesOf(options.record) : options.emptyValues(),
        load: options.load !== undefined,
      },
    },
  );

  const snapshot = useSelector(actor, (s) => s);
  const context = snapshot.context;
  const base = context.base as R | null;
  const values = context.values as V;
  const conflictState = context.conflict;
  const { conflictRows } = options;
  const conflict = useMemo(() => {
    if (conflictState === null || base === null) return null;
    const saved = conflictState.current.record as R;
    return { saved, rows: conflictRows(base, conflictState.mine as V, saved) };
  }, [conflictState, base, conflictRows]);

  const loaded = (record: R) => ({ record, values: latest.current.options.valuesOf(record) });

  return {
    /** Whether the record is still being read, could not be read, or is there to edit. */
    phase: (snapshot.matches('loadFailed')
      ? 'failed'
      : snapshot.matches('loading') || snapshot.matches('opening')
        ? 'loading'
        : 'ready') as 'loading' | 'failed' | 'ready',
    /** After a failed read: read the record again. */
    retry: () => actor.send({ type: 'load.retry' }),
    /** Reads the record as saved now; what is typed is dropped. */
    reload: () => actor.send({ type: 'record.reload' }),
    base,
    /** The page has a newer record: the save builds on it, what is typed stays. */
    setBase: (record: R) => actor.send({ type: 'record.rebase', ...loaded(record) }),
    values,
    setValues: (update: V | ((current: V) => V)) => {
      const current = actor.getSnapshot().context.values as V;
      const next = typeof update === 'function' ? (update as (v: V) => V)(current) : update;
      actor.send({ type: 'edit', values: next });
    },
    errors: context.errors as FieldErrors,
    busy: snapshot.matches('validating') || snapshot.matches('saving'),
    failure: context.failure,
    dismissFailure: () => actor.send({ type: 'failure.dismiss' }),
    conflict,
    /** Saves the input on top of the version the form is based on. */
    save: () => actor.send({ type: 'save' }),
    /** The form's submit handler: saves instead of letting the browser post the form. */
    onSubmit: (event: { preventDefault: () => void }) => {
      event.preventDefault();
      actor.send({ type: 'save' });
    },
    /** Puts this user's own changes on the version somebody else saved, and saves them. */
    overwrite: () => actor.send({ type: 'resolve.keepMine' }),
    /** After a conflict: this user's changes over the other save's, to check and save. */
    merge: () => actor.send({ type: 'resolve.merge' }),
    /** Drops the input for the record as saved now (the conflict's, or one the page read). */
    loadSaved: (saved: R) => {
      const state = actor.getSnapshot();
      if (state.matches('conflict') && state.context.conflict?.current.record === saved) {
        actor.send({ type: 'resolve.reload' });
      } else {
        actor.send({ type: 'record.load', ...loaded(saved) });
      }
    },
  };
}
