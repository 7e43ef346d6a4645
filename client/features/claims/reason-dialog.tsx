import * as v from 'valibot';
import { useTranslation } from 'react-i18next';
import { TextareaInput } from '#client/ui/form/fields.tsx';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import { useVersionedSave, type VersionedRecord } from '#client/entities/record/use-record-edit.ts';
import { ClaimReason } from '#common/claims.ts';
import { errorKey, serverFieldErrors } from './claim-form.ts';

interface ReasonValues {
  reason: string;
}

/**
 * The confirm dialog of a write that needs a reason said in words (cancelling a claim, reversing
 * a booked payment; issue 15): what happens, the reason field, and the write on top of the
 * record's version. It uses the record-edit flow (validating, saving, refused with what was typed
 * kept) without its conflict panel: a reason is no field edit to merge, so a 409 is a refusal,
 * shown in the user's words by `refusal`.
 */
export function ReasonDialog<R extends VersionedRecord>({
  record,
  title,
  message,
  reasonLabel,
  submitLabel,
  name,
  send,
  refusal,
  onDone,
}: {
  record: R;
  title: string;
  message?: string;
  reasonLabel: string;
  submitLabel: string;
  /** The reason field's form name (a test finds it by its label). */
  name: string;
  send: (reason: string, version: number) => Promise<R>;
  refusal: (error: unknown) => string;
  onDone: (saved: R | null) => void;
}) {
  const { t } = useTranslation('claims');
  const form = useVersionedSave({
    record,
    valuesOf: (): ReasonValues => ({ reason: '' }),
    validate: (values: ReasonValues) => {
      const parsed = v.safeParse(ClaimReason, values.reason);
      return parsed.success
        ? { ok: true as const, input: parsed.output }
        : { ok: false as const, errors: { reason: [errorKey(parsed.issues[0].message)] } };
    },
    send: (reason: string, version) => send(reason, version),
    conflictRows: () => [],
    conflictOf: () => null,
    refusal: (error) => {
      const fields = serverFieldErrors(error, ['reason']);
      if (fields) return { errors: fields };
      return { failure: refusal(error) };
    },
    onSaved: onDone,
  });
  const { values, setValues, errors, busy, failure } = form;

  return (
    <FormDialog title={title} busy={busy} onDismiss={() => onDone(null)}>
      <form noValidate className="flex flex-col gap-4" onSubmit={form.onSubmit}>
        {message ? <p className="text-sm text-slate-700">{message}</p> : null}
        <TextareaInput
          name={name}
          label={reasonLabel}
          value={values.reason}
          required
          disabled={busy}
          errors={errors.reason}
          onChange={(reason) => setValues({ reason })}
        />
        <FormDialogFooter
          failure={failure}
          onDismissFailure={form.dismissFailure}
          busy={busy}
          cancelLabel={t('actions.cancel')}
          submitLabel={submitLabel}
          busyLabel={t('actions.saving')}
          tone="danger"
          onCancel={() => onDone(null)}
        />
      </form>
    </FormDialog>
  );
}
