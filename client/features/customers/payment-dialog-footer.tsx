import { useTranslation } from 'react-i18next';
import { FormDialogFooter } from '#client/ui/form-dialog.tsx';
import type { usePaymentDialogForm } from './use-payment-dialog-form.ts';

/**
 * The foot of a dialog that adds to a customer's payment data (a payment method, a bank account):
 * the refusal, dismissible, then cancel and "Add", which says "Adding…" while the form is sent.
 * One place for the labels, so both dialogs name their buttons alike.
 */
export function PaymentDialogFooter({
  form,
  onCancel,
}: {
  form: Pick<ReturnType<typeof usePaymentDialogForm>, 'busy' | 'failure' | 'dismissFailure'>;
  onCancel: () => void;
}) {
  const { t } = useTranslation('payment_methods');
  return (
    <FormDialogFooter
      failure={form.failure}
      onDismissFailure={form.dismissFailure}
      busy={form.busy}
      cancelLabel={t('add.cancel')}
      submitLabel={t('add.submit')}
      busyLabel={t('add.saving')}
      onCancel={onCancel}
    />
  );
}
