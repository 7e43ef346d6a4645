import { useState } from 'react';
import type { ConflictRow } from '#client/ui/conflict-rows.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';

/** A record saved with optimistic concurrency: its version, who saved it and when. */
export interface VersionedRecord {
  version: number;
  updatedBy: string;
  updatedAt: string;
}

export interface VersionedSaveOptions<R extends VersionedRecord, V, I, F extends string> {
  record: R;
  valuesOf: (record: R) => V;
  /** The form's own check: the input to send, or the errors per field. */
  validate: (values: V) => { ok: true; input: I } | { ok: false; errors: FieldErrors };
  send: (input: I, version: number) => Promise<R>;
  conflictRows: (loaded: R, mine: V, saved: R) => ConflictRow<F>[];
  /** The current record a 409 `version_conflict` carries; null for any other error. */
  conflictOf: (error: unknown) => R | null;
  /** Any other refusal: errors at the fields, or a message for the form. */
  refusal: (error: unknown) => { errors: FieldErrors } | { failure: string };
  onSaved: (record: R) => void;
}

/**
 * A form that saves on top of the version it was loaded with (the edit conflict flow of
 * docs/contracts.md): what is typed stays in every failure; a 409 with the current record
 * becomes a conflict (shown by ConflictPanel) from which the user loads the saved record or saves
 * the input over it knowingly, on top of the saved version.
 */
export function useVersionedSave<R extends VersionedRecord, V, I, F extends string>(
  options: VersionedSaveOptions<R, V, I, F>,
) {
  const form = useRecordSave<R, V, I, F>({
    ...options,
    emptyValues: () => options.valuesOf(options.record),
    // With a record there is always a version: the base is the record or a saved successor.
    send: (input, version) => options.send(input, version!),
  });
  return { ...form, base: form.base! };
}

/** Options of a form that edits a record or, with `record` null, creates one. */
export type RecordSaveOptions<R extends VersionedRecord, V, I, F extends string> = Omit<
  VersionedSaveOptions<R, V, I, F>,
  'record' | 'send'
> & {
  record: R | null;
  /** The values of a new record. */
  emptyValues: () => V;
  /** `version` is null when the record is new (a create). */
  send: (input: I, version: number | null) => Promise<R>;
};

/**
 * useVersionedSave for a form that may also create the record: until the first save there is no
 * version, and no conflict can arise.
 */
export function useRecordSave<R extends VersionedRecord, V, I, F extends string>(
  options: RecordSaveOptions<R, V, I, F>,
) {
  const { valuesOf } = options;
  const [base, setBase] = useState<R | null>(options.record);
  const [values, setValues] = useState<V>(() =>
    options.record ? valuesOf(options.record) : options.emptyValues(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ saved: R; rows: ConflictRow<F>[] } | null>(null);

  const saveOn = async (loaded: R | null, version: number | null) => {
    const checked = options.validate(values);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    setFailure(null);
    setBusy(true);
    try {
      const saved = await options.send(checked.input, version);
      setBase(saved);
      setValues(valuesOf(saved));
      setConflict(null);
      options.onSaved(saved);
    } catch (error) {
      const current = loaded ? options.conflictOf(error) : null;
      if (loaded && current) {
        setConflict({ saved: current, rows: options.conflictRows(loaded, values, current) });
      } else {
        const refused = options.refusal(error);
        if ('errors' in refused) setErrors(refused.errors);
        else setFailure(refused.failure);
      }
    } finally {
      setBusy(false);
    }
  };

  return {
    base,
    setBase,
    values,
    setValues,
    errors,
    busy,
    failure,
    dismissFailure: () => setFailure(null),
    conflict,
    /** Saves the input on top of the version the form is based on. */
    save: () => void saveOn(base, base?.version ?? null),
    /** Saves the input again on top of the version somebody else saved. */
    overwrite: (saved: R) => {
      setBase(saved);
      void saveOn(saved, saved.version);
    },
    /** Drops the input for the record as saved now. */
    loadSaved: (saved: R) => {
      setBase(saved);
      setValues(valuesOf(saved));
      setErrors({});
      setConflict(null);
    },
  };
}
