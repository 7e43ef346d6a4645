import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { useFailureMessage } from './page-parts.tsx';

/**
 * A product editor dialog: the form, the server's refusal above the buttons, and busy while the
 * request runs. `submit` returns false when the form itself is invalid (its fields show why); a
 * rejection keeps the dialog open with every value, so nothing typed is lost.
 */
export function DialogForm({
  title,
  submitLabel,
  submit,
  onCancel,
  wide,
  children,
}: {
  title: string;
  submitLabel: string;
  submit: () => Promise<boolean> | false;
  onCancel: () => void;
  wide?: boolean;
  children: ReactNode;
}) {
  const failureMessage = useFailureMessage();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const pending = submit();
    if (pending === false) return;
    setBusy(true);
    try {
      await pending;
    } catch (error) {
      setFailure(failureMessage(error));
      setBusy(false);
    }
  };

  return (
    <FormDialog title={title} busy={busy} onDismiss={onCancel} wide={wide ?? false}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        {children}
        <DialogActions
          failure={failure}
          busy={busy}
          submitLabel={submitLabel}
          onCancel={onCancel}
        />
      </form>
    </FormDialog>
  );
}

/** The foot of a product editor dialog: the refusal, if any, then cancel and submit. */
export function DialogActions({
  failure,
  busy,
  submitLabel,
  onCancel,
}: {
  failure: string | null;
  busy: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  const { t } = useTranslation('products');
  return (
    <>
      {failure ? <Alert tone="danger">{failure}</Alert> : null}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t('actions.saving') : submitLabel}
        </Button>
      </div>
    </>
  );
}
