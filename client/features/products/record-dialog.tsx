import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { ConflictPanel, type ConflictKey } from '#client/entities/record/conflict-panel.tsx';
import { useRecordSave } from '#client/entities/record/use-record-edit.ts';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import type * as v from 'valibot';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { DialogActions } from './dialog-form.tsx';
import { useFailureMessage } from './page-parts.tsx';

/** What every record of the product editor carries: who saved it last, and when. */
interface Saved {
  updatedAt: string;
  updatedBy: string;
}

/** A record as the edit machine keeps it: with its version (0 where the service keeps none). */
type Versioned<R> = R & { version: number };

/** How a 409 `version_conflict` carries the record as saved now, and how its fields compare. */
export interface ConflictShape<V, F extends string> {
  /** The property of the answer's body that holds the current record (`namedRange`). */
  property: string;
  fields: readonly F[];
  /** The values as the conflict panel shows them, one text per field. */
  shown: (values: V) => Record<F, string>;
  /** `t` of the panel's texts (`conflict.*` of the record's kind). */
  translate: (key: ConflictKey, values?: Record<string, string>) => string;
  label: (field: F) => string;
}

export interface PartEditOptions<R extends Saved, V, I, F extends string> {
  /** The record edited, or null for a new one. */
  record: R | null;
  valuesOf: (record: R) => V;
  emptyValues: () => V;
  /** The form's own check, as the service checks: the input, or the errors per field. */
  validate: (values: V) => { ok: true; input: I } | { ok: false; errors: FieldErrors };
  /** Omitted by a dialog that only edits (its record is never null). */
  create?: (input: I) => Promise<R>;
  /**
   * `version` is the one the edit is based on (0 where the service keeps no versions). Omitted by
   * a dialog that only creates (its record is always null).
   */
  update?: (record: R, input: I, version: number) => Promise<R>;
  /** Omitted where the service keeps no versions of the record: no save can then conflict. */
  conflict?: ConflictShape<V, F>;
  /** A refusal shown at the fields it is about (a formula's problem at the expression), if any. */
  fieldErrorsOf?: (error: unknown) => FieldErrors | null;
  onSaved: (record: R) => void;
}

/** A form's values checked by its schema: the input to send (with `extra`), or the errors. */
export function schemaCheck<T, E extends object = object>(
  schema: v.GenericSchema<unknown, T>,
  values: unknown,
  extra?: E,
): { ok: true; input: T & E } | { ok: false; errors: FieldErrors } {
  const result = validateForm(schema, values);
  return result.success
    ? { ok: true, input: { ...(extra as E), ...result.output } }
    : { ok: false, errors: result.errors };
}

const versioned = <R,>(record: R): Versioned<R> => ({
  ...record,
  version: ((record as { version?: unknown }).version as number | undefined) ?? 0,
});

/**
 * A product editor dialog's create or edit on the record-edit machine (useRecordSave): the form's
 * check, the save, a refusal in the user's language with every value kept, and, for a record the
 * service versions, the 409 conflict with the record as saved now (load it, keep mine, merge).
 */
export function usePartEdit<R extends Saved, V, I, F extends string>(
  options: PartEditOptions<R, V, I, F>,
) {
  const failureMessage = useFailureMessage();
  const { record, valuesOf, conflict } = options;
  return useRecordSave<Versioned<R>, V, I, F>({
    record: record ? versioned(record) : null,
    valuesOf,
    emptyValues: options.emptyValues,
    validate: options.validate,
    send: async (input, version) =>
      versioned(
        record && version !== null
          ? await options.update!(record, input, version)
          : await options.create!(input),
      ),
    conflictRows: (loaded, mine, saved) =>
      conflict
        ? conflictRowsOf(
            conflict.fields,
            conflict.shown(valuesOf(loaded)),
            conflict.shown(mine),
            conflict.shown(valuesOf(saved)),
          )
        : [],
    conflictOf: (error) => {
      if (!conflict || !(error instanceof ApiError) || error.code !== 'version_conflict') {
        return null;
      }
      const current = (error.body as Record<string, R | undefined> | null)?.[conflict.property];
      return current ? versioned(current) : null;
    },
    ...useSaveOutcome({
      fieldErrors: (error) => options.fieldErrorsOf?.(error),
      failure: failureMessage,
      onSaved: (saved: R) => options.onSaved(saved),
    }),
  });
}

/**
 * The props that tie one input to a field of a form on usePartEdit: its value, its change and
 * its errors (`<TextInput label={...} {...field('name')} />`).
 */
export function fieldBinder<V>(form: {
  values: V;
  errors: FieldErrors;
  setValues: (update: (current: V) => V) => void;
}) {
  return <K extends keyof V & string>(key: K) => ({
    value: form.values[key],
    onChange: (value: V[K]) => form.setValues((current) => ({ ...current, [key]: value })),
    errors: form.errors[key],
  });
}

/**
 * usePartEdit for a part the service keeps no versions of (a PUT replaces it, so a save cannot
 * conflict; the last save wins): a field, a premium formula. `valuesOf(null)` are the values of
 * a new one. Answers the form, its `field` binder, and the frame's props for PartDialog (save or
 * add, cancel); `onClose` says whether anything was saved.
 */
export function useReplacedPartEdit<R extends Saved & { id: number }, V, I>(options: {
  record: R | null;
  valuesOf: (record: R | null) => V;
  validate: PartEditOptions<R, V, I, never>['validate'];
  create: (input: I) => Promise<R>;
  replace: (id: number, input: I) => Promise<R>;
  fieldErrorsOf?: PartEditOptions<R, V, I, never>['fieldErrorsOf'];
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation('products');
  const { record, valuesOf, onClose } = options;
  const form = usePartEdit<R, V, I, never>({
    record,
    valuesOf,
    emptyValues: () => valuesOf(null),
    validate: options.validate,
    create: options.create,
    update: (saved, input) => options.replace(saved.id, input),
    ...(options.fieldErrorsOf ? { fieldErrorsOf: options.fieldErrorsOf } : {}),
    onSaved: () => onClose(true),
  });
  return {
    form,
    field: fieldBinder(form),
    frame: {
      form,
      submitLabel: record ? t('actions.save') : t('actions.add'),
      onCancel: () => onClose(false),
    },
  };
}

/**
 * The edits of a form's list value (a funnel's steps, a range's bands): the whole list changed
 * (an item added or moved), one item changed, one removed.
 */
export function listEdits<V, K extends keyof V>(
  form: { setValues: (update: (current: V) => V) => void },
  key: K,
) {
  type Item = V[K] extends readonly (infer I)[] ? I : never;
  const set = (update: (current: Item[]) => Item[]) =>
    form.setValues((current) => ({ ...current, [key]: update(current[key] as Item[]) }));
  return {
    set,
    change: (index: number, change: Partial<Item>) =>
      set((current) =>
        current.map((item, i) => (i === index ? Object.assign({}, item, change) : item)),
      ),
    remove: (index: number) => set((current) => current.filter((_, i) => i !== index)),
  };
}

/** The problems of a list as a whole (overlapping bands, a step without fields), one a line. */
export function ListErrors({ id, errors }: { id?: string; errors: readonly string[] }) {
  if (!errors.length) return null;
  return (
    <ul id={id} className="text-sm text-red-700">
      {errors.map((text) => (
        <li key={text}>{text}</li>
      ))}
    </ul>
  );
}

/**
 * The frame of a product editor dialog on usePartEdit: the conflict (when there is one) above the
 * fields, the refusal above the buttons, busy while the machine checks or saves.
 */
export function PartDialog<R extends Saved, V, I, F extends string>({
  title,
  submitLabel,
  form,
  conflict,
  onCancel,
  wide = false,
  children,
}: {
  title: string;
  submitLabel: string;
  form: ReturnType<typeof usePartEdit<R, V, I, F>>;
  conflict?: ConflictShape<V, F>;
  onCancel: () => void;
  wide?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('products');
  const { busy } = form;
  return (
    <FormDialog title={title} busy={busy} onDismiss={onCancel} wide={wide}>
      <form noValidate onSubmit={form.onSubmit} className="flex flex-col gap-4">
        {form.conflict && conflict ? (
          <ConflictPanel
            translate={conflict.translate}
            conflict={form.conflict}
            label={conflict.label}
            shown={(_, value) => value}
            busy={busy}
            onLoadSaved={form.loadSaved}
            onOverwrite={form.overwrite}
            onMerge={form.merge}
          />
        ) : null}
        {children}
        <DialogActions
          failure={form.failure === null ? null : form.failure || t('errors.generic')}
          busy={busy}
          submitLabel={submitLabel}
          onCancel={onCancel}
        />
      </form>
    </FormDialog>
  );
}
