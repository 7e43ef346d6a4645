import { useTranslation } from 'react-i18next';
import type { BankAccountCreateInput } from '#common/payment-methods.ts';
import { createBankAccount } from '#client/api/payments-client.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import {
  checkBankAccount,
  type BankAccountDraft,
} from '#client/entities/payment/payment-method-form.ts';
import { PaymentDialogFooter } from './payment-dialog-footer.tsx';
import { usePaymentDialogForm, type PaymentDialogProps } from './use-payment-dialog-form.ts';

/**
 * Adds a bank account to a customer without a direct-debit mandate (a refund account, one that
 * pays by transfer): IBAN, BIC and holder, checked by the service's rules before sending. A
 * refusal shows at its field and what was typed stays.
 */
export function AddBankAccountDialog({ accountIndex, accountCode, onDone }: PaymentDialogProps) {
  const { t } = useTranslation('payment_methods');
  const form = usePaymentDialogForm({
    accountIndex,
    initial: (): BankAccountDraft => ({ iban: '', bic: '', holderName: '' }),
    check: (draft: BankAccountDraft) => checkBankAccount(accountCode, draft),
    create: (input: BankAccountCreateInput) =>
      createBankAccount(accountIndex, input).then((r) => r.bankAccount),
    texts: { saved: () => t('bank_add.saved'), failed: () => t('bank_add.failed') },
    onDone,
  });
  const { busy, submit, bind } = form;

  return (
    <FormDialog title={t('bank_add.title')} busy={busy} onDismiss={onDone}>
      <form noValidate className="flex flex-col gap-4" onSubmit={submit}>
        <TextInput {...bind('iban', t('add.iban'))} required autoComplete="off" maxLength={42} />
        <TextInput
          {...bind('bic', t('add.bic'))}
          hint={t('add.bic_hint')}
          autoComplete="off"
          maxLength={14}
        />
        <TextInput {...bind('holderName', t('add.holder_name'))} required maxLength={200} />
        <PaymentDialogFooter form={form} onCancel={onDone} />
      </form>
    </FormDialog>
  );
}
