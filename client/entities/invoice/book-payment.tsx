import { useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { currencyCode, type Invoice, textKey } from '#client/api/billing-client.ts';
import { bookPayment, PAYMENT_METHODS, type Payment } from '#client/api/payments-client.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { CheckboxInput, SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { FormDialog, FormDialogFooter } from '#client/ui/form-dialog.tsx';
import { amountText, parseAmount } from '#client/ui/money-input.ts';
import { useMoneyFormat } from '#client/ui/money.ts';
import { useToast } from '#client/ui/toast.tsx';
import { idempotencyKey } from '#common/idempotency-key.ts';
import { refusalKeyOf } from './refusal-key.ts';
import { paymentBookingMachine, type PaymentDraft } from '#machines/payment-booking.machine.ts';

/** The refusals the dialog names; any other reads as "the service refused these details". */
const KNOWN_REFUSALS = [
  'payment_exceeds_due',
  'idempotency_key_reused',
  'validation_error',
  'forbidden',
  'not_found',
] as const;

interface Values {
  amount: string;
  method: string;
  reference: string;
  allowCredit: boolean;
}

/**
 * "Book payment" on an invoice: the button and its dialog. The booking is
 * `paymentBookingMachine`, so a double click or a retry after a lost answer books once (one
 * Idempotency-Key per opening of the dialog). The amount starts as what is open; more than that
 * is refused by the service unless the rest is kept as credit.
 */
export function BookPaymentAction({
  accountIndex,
  invoice,
  onChanged,
}: {
  accountIndex: number;
  invoice: Pick<Invoice, 'code' | 'invoiceNumber' | 'openAmount' | 'currency'>;
  /** A payment was booked, or may have been: the page reads the invoice and payments again. */
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation('finance');
  const toast = useToast();
  const money = useMoneyFormat();
  const currency = currencyCode(invoice.currency);
  const actor = useActorRef(
    paymentBookingMachine.provide({
      actors: {
        book: fromPromise<unknown, { key: string; draft: PaymentDraft }>(({ input, signal }) =>
          bookPayment(accountIndex, input.key, input.draft, signal),
        ),
      },
      actions: {
        notifyBooked: (_, params) => {
          const payment = params.payment as Payment;
          toast({
            message: t('booking.booked', { amount: money(payment.amount / 100, currency) }),
            tone: 'success',
          });
          onChanged();
        },
        notifyUncertain: () => {
          toast({ message: t('booking.checked'), tone: 'warning' });
          onChanged();
        },
      },
    }),
    { input: { newKey: idempotencyKey } },
  );
  const state = useSelector(actor, (s) => s.value as string);
  const refusal = useSelector(actor, (s) => s.context.refusal);
  const fresh = (): Values => ({
    amount: amountText(Math.max(invoice.openAmount, 0), i18n.language),
    method: 'bank-transfer',
    reference: '',
    allowCredit: false,
  });
  const [values, setValues] = useState<Values>(fresh);
  const [amountError, setAmountError] = useState<string | null>(null);
  const set = <K extends keyof Values>(key: K, value: Values[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const open = () => {
    setValues(fresh());
    setAmountError(null);
    actor.send({ type: 'booking.open' });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (state === 'uncertain') return void actor.send({ type: 'booking.retry' });
    const cents = values.amount.trim() === '' ? null : parseAmount(values.amount, i18n.language);
    if (values.amount.trim() === '') return setAmountError(message('messages.fieldRequired'));
    if (cents === null) return setAmountError(message('messages.number_type'));
    if (cents <= 0)
      return setAmountError(message('messages.numberMin', { min: amountText(1, i18n.language) }));
    setAmountError(null);
    actor.send({
      type: 'booking.submit',
      draft: {
        amount: cents,
        method: values.method,
        invoiceCodes: [invoice.code],
        ...(values.reference.trim() ? { reference: values.reference.trim() } : {}),
        ...(values.allowCredit ? { allowCredit: true } : {}),
      },
    });
  };

  const busy = state === 'submitting';
  const uncertain = state === 'uncertain';
  const failure =
    refusal && state === 'editing'
      ? t(`booking.errors.${refusalKeyOf(KNOWN_REFUSALS, refusal)}`)
      : null;
  return (
    <>
      <Button onClick={open}>{t('booking.open')}</Button>
      {state === 'closed' ? null : (
        <FormDialog
          title={t('booking.title')}
          busy={busy}
          onDismiss={() => actor.send({ type: 'booking.cancel' })}
        >
          <form noValidate onSubmit={submit} className="flex flex-col gap-4">
            <p className="text-sm text-slate-700">
              {t('booking.intro', {
                number: invoice.invoiceNumber,
                open: money(invoice.openAmount / 100, currency),
              })}
            </p>
            <TextInput
              label={`${t('booking.amount')} (${currency})`}
              name="amount"
              required
              disabled={busy || uncertain}
              value={values.amount}
              errors={amountError ? [amountError] : undefined}
              onChange={(value) => set('amount', value)}
            />
            <SelectInput
              label={t('booking.method')}
              name="method"
              required
              disabled={busy || uncertain}
              value={values.method}
              options={PAYMENT_METHODS.map((m) => ({
                value: m,
                label: t(`methods.${textKey(m)}`),
              }))}
              onChange={(value) => set('method', value || 'bank-transfer')}
            />
            <TextInput
              label={t('booking.reference')}
              name="reference"
              maxLength={140}
              disabled={busy || uncertain}
              value={values.reference}
              onChange={(value) => set('reference', value)}
            />
            <CheckboxInput
              label={t('booking.allow_credit')}
              name="allowCredit"
              disabled={busy || uncertain}
              checked={values.allowCredit}
              onChange={(checked) => set('allowCredit', checked)}
            />
            {uncertain ? <Alert tone="warning">{t('booking.uncertain')}</Alert> : null}
            <FormDialogFooter
              failure={failure}
              busy={busy}
              cancelLabel={uncertain ? t('booking.close_uncertain') : t('booking.cancel')}
              submitLabel={uncertain ? t('booking.retry') : t('booking.submit')}
              busyLabel={t('booking.submitting')}
              onCancel={() => actor.send({ type: 'booking.cancel' })}
            />
          </form>
        </FormDialog>
      )}
    </>
  );
}
