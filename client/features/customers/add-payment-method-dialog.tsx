import { useTranslation } from 'react-i18next';
import {
  CARD_BRANDS,
  PAYMENT_METHOD_KINDS,
  type PaymentMethodCreateInput,
} from '#common/payment-methods.ts';
import { createPaymentMethod } from '#client/api/payments-client.ts';
import { DateInput, SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import {
  checkPaymentMethod,
  emptyPaymentMethodDraft,
  type PaymentMethodDraft,
} from '#client/entities/payment/payment-method-form.ts';
import { PaymentDialogFooter } from './payment-dialog-footer.tsx';
import { usePaymentDialogForm, type PaymentDialogProps } from './use-payment-dialog-form.ts';

/** Today in the browser, as `YYYY-MM-DD`: the default day a mandate was signed. */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Adds a payment method to a customer: SEPA direct debit (IBAN, BIC, holder, mandate), invoice,
 * or the card stand-in (brand, last four digits, expiry; never a full card number). The form
 * checks the service's rules first; a refusal shows at its field and what was typed stays.
 */
export function AddPaymentMethodDialog({ accountIndex, accountCode, onDone }: PaymentDialogProps) {
  const { t } = useTranslation('payment_methods');
  const form = usePaymentDialogForm({
    accountIndex,
    initial: () => emptyPaymentMethodDraft(today()),
    check: (draft: PaymentMethodDraft) => checkPaymentMethod(accountCode, draft, today()),
    create: (input: PaymentMethodCreateInput) =>
      createPaymentMethod(accountIndex, input).then((r) => r.paymentMethod),
    texts: { saved: () => t('add.saved'), failed: () => t('add.failed') },
    onDone,
  });
  const { values, busy, submit, bind } = form;

  return (
    <FormDialog title={t('add.title')} busy={busy} onDismiss={onDone}>
      <form noValidate className="flex flex-col gap-4" onSubmit={submit}>
        <SelectInput
          {...bind('type', t('add.type'), 'type')}
          required
          options={PAYMENT_METHOD_KINDS.map((kind) => ({ value: kind, label: t(`kinds.${kind}`) }))}
        />
        {values.type === 'sepa' ? (
          <>
            <TextInput
              {...bind('iban', t('add.iban'), 'sepa.iban')}
              required
              autoComplete="off"
              maxLength={42}
            />
            <TextInput
              {...bind('bic', t('add.bic'), 'sepa.bic')}
              hint={t('add.bic_hint')}
              autoComplete="off"
              maxLength={14}
            />
            <TextInput
              {...bind('holderName', t('add.holder_name'), 'sepa.holderName')}
              required
              maxLength={200}
            />
            <TextInput
              {...bind('mandateReference', t('add.mandate_reference'), 'sepa.mandateReference')}
              hint={t('add.mandate_reference_hint')}
              maxLength={35}
            />
            <DateInput
              {...bind('mandateSignedAt', t('add.mandate_signed_at'), 'sepa.mandateSignedAt')}
              required
            />
          </>
        ) : null}
        {values.type === 'card' ? (
          <>
            <SelectInput
              {...bind('brand', t('add.brand'), 'card.brand')}
              required
              options={CARD_BRANDS.map((brand) => ({ value: brand, label: t(`brands.${brand}`) }))}
            />
            <TextInput
              {...bind('last4', t('add.last4'), 'card.last4')}
              hint={t('add.last4_hint')}
              required
              autoComplete="off"
              maxLength={4}
            />
            <div className="grid grid-cols-2 gap-3">
              <TextInput
                {...bind('expiryMonth', t('add.expiry_month'), 'card.expiryMonth')}
                required
                maxLength={2}
              />
              <TextInput
                {...bind('expiryYear', t('add.expiry_year'), 'card.expiryYear')}
                required
                maxLength={4}
              />
            </div>
            <TextInput
              {...bind('holderName', t('add.card_holder'), 'card.holderName')}
              maxLength={200}
            />
          </>
        ) : null}
        <PaymentDialogFooter form={form} onCancel={onDone} />
      </form>
    </FormDialog>
  );
}
