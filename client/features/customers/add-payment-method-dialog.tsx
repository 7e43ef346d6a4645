import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CARD_BRANDS, PAYMENT_METHOD_KINDS } from '#common/payment-methods.ts';
import { createPaymentMethod, type PaymentMethod } from '#client/api/payments-client.ts';
import { paymentQueries } from '#client/api/payments-queries.ts';
import { DateInput, SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import {
  checkPaymentMethod,
  emptyPaymentMethodDraft,
  serverPaymentErrors,
  type PaymentMethodDraft,
} from '#client/entities/payment/payment-method-form.ts';

/** Today in the browser, as `YYYY-MM-DD`: the default day a mandate was signed. */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Adds a payment method to a customer: SEPA direct debit (IBAN, BIC, holder, mandate), invoice,
 * or the card stand-in (brand, last four digits, expiry; never a full card number). The form
 * checks the service's rules first; a refusal shows at its field and what was typed stays.
 */
export function AddPaymentMethodDialog({
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
  const [values, setValues] = useState<PaymentMethodDraft>(() => emptyPaymentMethodDraft(today()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const outcome = useSaveOutcome<PaymentMethod>({
    fieldErrors: serverPaymentErrors,
    failure: () => t('add.failed'),
    onSaved: () => {
      void queryClient.invalidateQueries({ queryKey: paymentQueries.all(accountIndex) });
      onDone();
    },
    savedMessage: () => t('add.saved'),
  });
  const save = useMutation({
    mutationFn: (input: Parameters<typeof createPaymentMethod>[1]) =>
      createPaymentMethod(accountIndex, input).then((r) => r.paymentMethod),
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
    const checked = checkPaymentMethod(accountCode, values, today());
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

  /** What every field takes: its label, name (the service's path), value, errors and change. */
  const bind = (field: keyof PaymentMethodDraft, path: string, label: string) => ({
    label,
    name: path,
    value: values[field],
    errors: errors[path],
    disabled: busy,
    onChange: (value: string) => setValues((current) => ({ ...current, [field]: value })),
  });

  return (
    <FormDialog title={t('add.title')} busy={busy} onDismiss={onDone}>
      <form noValidate className="flex flex-col gap-4" onSubmit={submit}>
        <SelectInput
          {...bind('type', 'type', t('add.type'))}
          required
          options={PAYMENT_METHOD_KINDS.map((kind) => ({ value: kind, label: t(`kinds.${kind}`) }))}
        />
        {values.type === 'sepa' ? (
          <>
            <TextInput
              {...bind('iban', 'sepa.iban', t('add.iban'))}
              required
              autoComplete="off"
              maxLength={42}
            />
            <TextInput
              {...bind('bic', 'sepa.bic', t('add.bic'))}
              hint={t('add.bic_hint')}
              autoComplete="off"
              maxLength={14}
            />
            <TextInput
              {...bind('holderName', 'sepa.holderName', t('add.holder_name'))}
              required
              maxLength={200}
            />
            <TextInput
              {...bind('mandateReference', 'sepa.mandateReference', t('add.mandate_reference'))}
              hint={t('add.mandate_reference_hint')}
              maxLength={35}
            />
            <DateInput
              {...bind('mandateSignedAt', 'sepa.mandateSignedAt', t('add.mandate_signed_at'))}
              required
            />
          </>
        ) : null}
        {values.type === 'card' ? (
          <>
            <SelectInput
              {...bind('brand', 'card.brand', t('add.brand'))}
              required
              options={CARD_BRANDS.map((brand) => ({ value: brand, label: t(`brands.${brand}`) }))}
            />
            <TextInput
              {...bind('last4', 'card.last4', t('add.last4'))}
              hint={t('add.last4_hint')}
              required
              autoComplete="off"
              maxLength={4}
            />
            <div className="grid grid-cols-2 gap-3">
              <TextInput
                {...bind('expiryMonth', 'card.expiryMonth', t('add.expiry_month'))}
                required
                maxLength={2}
              />
              <TextInput
                {...bind('expiryYear', 'card.expiryYear', t('add.expiry_year'))}
                required
                maxLength={4}
              />
            </div>
            <TextInput
              {...bind('holderName', 'card.holderName', t('add.card_holder'))}
              maxLength={200}
            />
          </>
        ) : null}
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
