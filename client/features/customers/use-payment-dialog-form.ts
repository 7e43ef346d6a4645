import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { paymentQueries } from '#client/api/payments-queries.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { useSaveOutcome } from '#client/entities/record/use-save-outcome.ts';
import { serverPaymentErrors } from '#client/entities/payment/payment-method-form.ts';

/** What a dialog adding to a customer's payment data is given: the customer, and what closes it. */
export interface PaymentDialogProps {
  accountIndex: number;
  accountCode: string;
  onDone: () => void;
}

/**
 * The form of a dialog that adds something to a customer's payment data (a payment method, a bank
 * account): values as typed, checked by the service's rules before sending, refusals at their
 * fields (the first one focused, so a keyboard user hears what to fix), everything typed kept on
 * a failure, and the customer's payment data reloaded once saved.
 */
export function usePaymentDialogForm<D extends object, I, R>({
  accountIndex,
  initial,
  check,
  create,
  texts,
  onDone,
}: {
  accountIndex: number;
  initial: () => D;
  check: (draft: D) => { ok: true; input: I } | { ok: false; errors: FieldErrors };
  create: (input: I) => Promise<R>;
  texts: { saved: () => string; failed: () => string };
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<D>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const outcome = useSaveOutcome<R>({
    fieldErrors: serverPaymentErrors,
    failure: texts.failed,
    onSaved: () => {
      void queryClient.invalidateQueries({ queryKey: paymentQueries.all(accountIndex) });
      onDone();
    },
    savedMessage: texts.saved,
  });
  const save = useMutation({
    mutationFn: create,
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
    const checked = check(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('[role="dialog"] [aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setErrors({});
    save.mutate(checked.input);
  };

  /** What a field takes: its label, name (the service's path), value, errors and change. */
  const bind = (field: keyof D & string, label: string, path: string = field) => ({
    label,
    name: path,
    value: String(values[field]),
    errors: errors[path],
    disabled: busy,
    onChange: (value: string) => setValues((current) => ({ ...current, [field]: value })),
  });

  return { values, busy, failure, dismissFailure: () => setFailure(null), submit, bind };
}
