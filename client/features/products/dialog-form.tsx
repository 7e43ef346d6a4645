import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialogFooter } from '#client/ui/form-dialog.tsx';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { useFailureMessage } from './page-parts.tsx';

/**
 * A product editor dialog (the shared machine-backed SubmitDialog with the products texts): the
 * form, the server's refusal above the buttons, and busy while the request runs. `submit` returns false when the form itself is invalid (its fields show why); a
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
  const { t } = useTranslation('products');
  const failureMessage = useFailureMessage();
  return (
    <SubmitDialog
      title={title}
      submitLabel={submitLabel}
      busyLabel={t('actions.saving')}
      cancelLabel={t('actions.cancel')}
      submit={submit}
      failureMessage={failureMessage}
      onCancel={onCancel}
      wide={wide ?? false}
    >
      {children}
    </SubmitDialog>
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
    <FormDialogFooter
      failure={failure}
      busy={busy}
      cancelLabel={t('actions.cancel')}
      submitLabel={submitLabel}
      busyLabel={t('actions.saving')}
      onCancel={onCancel}
    />
  );
}
