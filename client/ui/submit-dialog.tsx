import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { confirmDialogMachine } from '#machines/confirm-dialog.machine.ts';
import { FormDialog, FormDialogFooter } from './form-dialog.tsx';

/**
 * A form in a dialog whose submit runs one request, driven by `confirmDialogMachine` (open, busy
 * while the request runs, back to open with the refusal): the flow that confirm dialogs use,
 * with fields. `submit` returns false when the form itself is invalid (its fields show why) and
 * the request otherwise; a rejection keeps the dialog open with every value, so nothing typed is
 * lost. On success the caller closes the dialog (its `submit` does, e.g. through `onDone`).
 */
export function SubmitDialog({
  title,
  submitLabel,
  busyLabel,
  cancelLabel,
  submit,
  failureMessage,
  onCancel,
  wide,
  tone,
  children,
}: {
  title: string;
  submitLabel: string;
  busyLabel?: string;
  cancelLabel?: string;
  submit: () => Promise<unknown> | false;
  /** The refusal as the user reads it. */
  failureMessage: (error: unknown) => string;
  onCancel: () => void;
  wide?: boolean;
  tone?: 'primary' | 'danger';
  children: ReactNode;
}) {
  const { t } = useTranslation('ui');
  const pending = useRef<Promise<unknown> | null>(null);
  const describe = useRef(failureMessage);
  useEffect(() => {
    describe.current = failureMessage;
  });
  const actor = useActorRef(
    confirmDialogMachine.provide({
      actors: {
        runAction: fromPromise(async () => {
          try {
            return await pending.current;
          } catch (error) {
            // The machine shows a thrown string as it is: the refusal, translated.
            throw describe.current(error) || t('confirm.generic_error');
          }
        }),
      },
    }),
  );
  useEffect(() => {
    actor.send({ type: 'confirm.open', title, message: '' });
  }, [actor, title]);
  const state = useSelector(actor, (s) => s);
  const busy = state.matches('busy');
  const failure = state.context.hasError
    ? (state.context.errorMessage ?? t('confirm.generic_error'))
    : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!actor.getSnapshot().can({ type: 'confirm.accept' })) return;
    const request = submit();
    if (request === false) return;
    pending.current = request;
    actor.send({ type: 'confirm.accept' });
  };
  const cancel = () => {
    if (busy) return;
    actor.send({ type: 'confirm.cancel' });
    onCancel();
  };

  return (
    <FormDialog title={title} busy={busy} onDismiss={cancel} wide={wide ?? false}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {children}
        <FormDialogFooter
          failure={failure}
          busy={busy}
          cancelLabel={cancelLabel ?? t('confirm.cancel')}
          submitLabel={submitLabel}
          busyLabel={busyLabel ?? t('confirm.busy')}
          tone={tone ?? 'primary'}
          onCancel={cancel}
        />
      </form>
    </FormDialog>
  );
}
