import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reversePayment, type Payment } from '#client/api/payments-client.ts';
import { Button } from '#client/ui/button.tsx';
import { TextareaInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { idempotencyKey } from '#common/idempotency-key.ts';
import { refusalOf } from '#machines/failure-code.ts';
import { isDefiniteRefusal } from '#machines/payment-booking.machine.ts';
import { refusalKeyOf } from './refusal-key.ts';

/** The longest reason the payment service keeps (docs/contracts.md, "Payment reversal"). */
const REASON_MAX = 500;

/** The refusals the dialog names; any other reads as "the service refused". */
const KNOWN = [
  'payment_already_reversed',
  'idempotency_key_reused',
  'validation_error',
  'forbidden',
  'not_found',
] as const;
const refusalKey = (error: unknown) => refusalKeyOf(KNOWN, refusalOf(error));

/**
 * "Reverse" on a booked payment: a confirm dialog asking why (SubmitDialog, so the flow is the
 * confirm dialog's statechart: open, busy, back to open with the refusal and the typed reason).
 * One Idempotency-Key per opening, kept across retries after a lost answer (the service answers
 * the first reversal again), and replaced after a definite refusal, since nothing happened then.
 */
export function ReversePaymentAction({
  accountIndex,
  payment,
  invoiceNumber,
  amountText,
  onChanged,
}: {
  accountIndex: number;
  payment: Pick<Payment, 'code'>;
  invoiceNumber: string;
  /** The payment's amount on this invoice, formatted. */
  amountText: string;
  /** The payment was reversed (or may have been): the page reads the invoice and payments again. */
  onChanged: () => void;
}) {
  const { t } = useTranslation('finance');
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string[] | undefined>();
  const key = useRef('');

  const start = () => {
    key.current = idempotencyKey();
    setReason('');
    setReasonError(undefined);
    setOpen(true);
  };
  const submit = () => {
    const text = reason.trim();
    if (!text) {
      setReasonError([message('messages.fieldRequired', { field: t('reversal.reason') })]);
      return false;
    }
    setReasonError(undefined);
    return (async () => {
      try {
        await reversePayment(accountIndex, key.current, payment.code, text);
      } catch (error) {
        if (isDefiniteRefusal(error)) key.current = idempotencyKey();
        if (refusalKey(error) === 'payment_already_reversed') onChanged();
        throw error;
      }
      setOpen(false);
      toast({ message: t('reversal.done', { amount: amountText }), tone: 'success' });
      onChanged();
    })();
  };

  return (
    <>
      <Button
        variant="secondary"
        onClick={start}
        aria-label={t('reversal.open_label', { amount: amountText })}
      >
        {t('reversal.open')}
      </Button>
      {open ? (
        <SubmitDialog
          title={t('reversal.title')}
          submitLabel={t('reversal.submit')}
          busyLabel={t('reversal.submitting')}
          cancelLabel={t('reversal.cancel')}
          tone="danger"
          submit={submit}
          failureMessage={(error) => t(`reversal.errors.${refusalKey(error)}`)}
          onCancel={() => setOpen(false)}
        >
          <p className="text-sm text-slate-700">
            {t('reversal.intro', { amount: amountText, number: invoiceNumber })}
          </p>
          <TextareaInput
            label={t('reversal.reason')}
            value={reason}
            onChange={setReason}
            required
            rows={3}
            maxLength={REASON_MAX}
            errors={reasonError}
          />
        </SubmitDialog>
      ) : null}
    </>
  );
}
