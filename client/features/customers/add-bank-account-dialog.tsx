import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createBankAccount, type BankAccount } from '#client/api/payments-client.ts';
import { paymentQueries } from '#client/api/payments-queries.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import {
  checkBankAccount,
  serverPaymentErrors,
  type BankAccountDraft,
} from '#client/entities/payment/payment-method-form.ts';

/**
 * Adds a bank account to a customer without a direct-debit mandate (a refund account, one that
 * pays by transfer): IBAN, BIC and holder, checked by the service's rules before sending. A
 * refusal shows at its field and what was typed stays.
 */
export function AddBankAccountDialog({
  accountIndex,
  accountCode,
  onDone,
}: {
  accountIndex: number;
  accountCode: string;
  onDone: () => void;
}) {
  const { t } = useTranslation('payment_methods');
  const queryClient = useQueryClient();
  const [values, setValues] = useState<BankAccountDraft>({ iban: '', bic: '', holderName: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const outcome = useSaveOutcome<BankAccount>({
    fieldErrors: serverPaymentErrors,
    failure: () => t('bank_add.failed'),
    onSaved: () => {
      void queryClient.invalidateQueries({ queryKey: paymentQueries.all(accountIndex) });
      onDone();
    },
    savedMessage: () => t('bank_add.saved'),
  });
  const save = useMutation({
    mutationFn: (input: Parameters<typeof createBankAccount>[1]) =>
      createBankAccount(accountIndex, input).then((r) => r.bankAccount),
    onSuccess: outcome.onSaved,
    onError: (error) => {
      const refused = outcome.refusal(error);
      if ('errors' in refused) setErrors(refused.errors);
      else setFailure(refused.failure);
    },
  });
  const busy = save.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const checked = checkBankAccount(accountCode, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      // The first field at fault takes the focus, so a keyboard user hears what to fix.
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('[role="dialog"] [aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setErrors({});
    save.mutate(checked.input);
  };

  const bind = (field: keyof BankAccountDraft, label: string) => ({
    label,
    name: field,
    value: values[field],
    errors: errors[field],
    disabled: busy,
    onChange: (value: string) => setValues((current) => ({ ...current, [field]: value })),
  });

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
        <FormDialogFooter
          failure={failure}
          onDismissFailure={() => setFailure(null)}
          busy={busy}
          cancelLabel={t('add.cancel')}
          submitLabel={t('add.submit')}
          busyLabel={t('add.saving')}
          onCancel={onDone}
        />
      </form>
    </FormDialog>
  );
}
