import type { FormEvent, ReactNode, Ref } from 'react';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import type { ConflictRow } from '#client/ui/conflict-rows.ts';
import { ConflictPanel, type ConflictKey } from './conflict-panel.tsx';
import type { VersionedRecord } from './use-record-edit.ts';

/** What the form needs of `useRecordSave` / `useVersionedSave`. */
export interface RecordEditState<R extends VersionedRecord, F extends string> {
  conflict: { saved: R; rows: ConflictRow<F>[] } | null;
  busy: boolean;
  failure: string | null;
  dismissFailure: () => void;
  save: () => void;
  overwrite: () => void;
  merge: () => void;
  loadSaved: (saved: R) => void;
}

/**
 * A versioned record's edit form: the conflict panel after a 409 (load the saved record, keep
 * this user's changes on top of it, or merge), the fields (`children`), the failure of the last
 * save and the save button. The customer's data, the lead's payment and free data, the claim's
 * data and an organisation's custom data are this form with their own fields.
 */
export function RecordEditForm<R extends VersionedRecord, F extends string>({
  form,
  translate,
  label,
  shown,
  onLoadSaved,
  ariaLabel,
  submitLabel,
  actions,
  formRef,
  children,
}: {
  form: RecordEditState<R, F>;
  /** `t` of the caller's namespace, which holds the `conflict.*` texts. */
  translate: (key: ConflictKey, values?: Record<string, string>) => string;
  label: (field: F) => string;
  shown: (field: F, value: string) => string;
  /** After the saved record was loaded into the form: the page shows it too. */
  onLoadSaved: (saved: R) => void;
  ariaLabel?: string;
  /** The save button's text (the caller says "Saving…" while `busy`). */
  submitLabel: string;
  /** Further buttons beside the save button (the claim's "Reload"). */
  actions?: ReactNode;
  /** The form element, for a caller that moves focus in it (to the first invalid field). */
  formRef?: Ref<HTMLFormElement>;
  children: ReactNode;
}) {
  const { conflict, busy, failure } = form;
  return (
    <>
      {conflict ? (
        <ConflictPanel
          translate={translate}
          conflict={conflict}
          label={label}
          shown={shown}
          busy={busy}
          onLoadSaved={(saved) => {
            form.loadSaved(saved);
            onLoadSaved(saved);
          }}
          onOverwrite={form.overwrite}
          onMerge={form.merge}
        />
      ) : null}
      <form
        ref={formRef}
        noValidate
        aria-label={ariaLabel}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          form.save();
        }}
        className="flex flex-col gap-4"
      >
        {children}
        <SaveFooter
          failure={failure}
          onDismiss={form.dismissFailure}
          busy={busy}
          submitLabel={submitLabel}
          actions={actions}
        />
      </form>
    </>
  );
}

/**
 * The foot of a record's form: why the last save failed (dismissible; what was typed stays),
 * then the save button with any further `actions` beside it. Without `canSave` (a user who may
 * only read) there is no button: the form shows the record.
 */
export function SaveFooter({
  failure,
  onDismiss,
  busy,
  submitLabel,
  actions,
  canSave = true,
}: {
  failure: string | null;
  onDismiss: () => void;
  busy: boolean;
  /** The save button's text (the caller says "Saving…" while `busy`). */
  submitLabel: string;
  actions?: ReactNode;
  canSave?: boolean;
}) {
  return (
    <>
      {failure ? (
        <AlertBar tone="danger" onDismiss={onDismiss}>
          {failure}
        </AlertBar>
      ) : null}
      {canSave ? (
        <div className={actions ? 'flex gap-3' : undefined}>
          <Button type="submit" disabled={busy}>
            {submitLabel}
          </Button>
          {actions}
        </div>
      ) : null}
    </>
  );
}
