import * as v from 'valibot';
import {
  BankAccountCreateBody,
  PaymentMethodCreateBody,
  cardNumberPath,
  type BankAccountCreateInput,
  type PaymentMethodCreateInput,
} from '#common/payment-methods.ts';
import { fieldIssues } from '#client/api/error-text.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';

/**
 * The add-payment-method form apart from React, so that it is unit-tested: values as typed, the
 * body sent, and errors by the service's paths (`sepa.iban`) as `payment_methods:errors.{code}`.
 */

export interface PaymentMethodDraft {
  type: string;
  iban: string;
  bic: string;
  holderName: string;
  mandateReference: string;
  mandateSignedAt: string;
  brand: string;
  last4: string;
  expiryMonth: string;
  expiryYear: string;
}

export const emptyPaymentMethodDraft = (today: string): PaymentMethodDraft => ({
  type: 'sepa',
  iban: '',
  bic: '',
  holderName: '',
  mandateReference: '',
  mandateSignedAt: today,
  brand: '',
  last4: '',
  expiryMonth: '',
  expiryYear: '',
});

const KNOWN = new Set([
  'required',
  'too_long',
  'invalid_iban',
  'invalid_bic',
  'bic_country_mismatch',
  'invalid_date',
  'date_in_future',
  'invalid_mandate_reference',
  'mandate_reference_taken',
  'invalid_card_brand',
  'invalid_last4',
  'invalid_expiry',
  'card_expired',
  'card_number_refused',
  'invalid_payment_method',
]);

export const paymentErrorKey = (code: string) =>
  `payment_methods:errors.${KNOWN.has(code) ? code : 'invalid'}`;

/** The body for the draft's kind: only the fields of that kind. */
export function draftBody(accountCode: string, d: PaymentMethodDraft): unknown {
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  if (d.type === 'sepa') {
    return {
      accountCode,
      type: 'sepa',
      sepa: {
        iban: d.iban,
        bic: d.bic.trim() || null,
        holderName: d.holderName,
        mandateReference: d.mandateReference.trim() || null,
        mandateSignedAt: d.mandateSignedAt,
      },
    };
  }
  if (d.type === 'card') {
    return {
      accountCode,
      type: 'card',
      card: {
        brand: d.brand,
        last4: d.last4.trim(),
        expiryMonth: number(d.expiryMonth),
        expiryYear: number(d.expiryYear),
        holderName: d.holderName.trim() || null,
      },
    };
  }
  return { accountCode, type: d.type };
}

/** The form's check, the service's rules: the body to send, or the errors by path. */
export function checkPaymentMethod(
  accountCode: string,
  draft: PaymentMethodDraft,
  today: string,
): { ok: true; input: PaymentMethodCreateInput } | { ok: false; errors: FieldErrors } {
  const body = draftBody(accountCode, draft);
  const pan = cardNumberPath(body);
  if (pan) return { ok: false, errors: { [pan]: [paymentErrorKey('card_number_refused')] } };
  const parsed = v.safeParse(PaymentMethodCreateBody, body);
  if (!parsed.success) return { ok: false, errors: errorsByPath(parsed.issues, 'type') };
  const input = parsed.output;
  if (input.type === 'sepa' && input.sepa.mandateSignedAt > today) {
    return { ok: false, errors: { 'sepa.mandateSignedAt': [paymentErrorKey('date_in_future')] } };
  }
  return { ok: true, input: body as PaymentMethodCreateInput };
}

/** The first refusal of each field, by the service's path (its codes are the schema's messages). */
function errorsByPath(issues: readonly v.BaseIssue<unknown>[], fallback: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? fallback;
    errors[path] ??= [paymentErrorKey(issue.message)];
  }
  return errors;
}

export interface BankAccountDraft {
  iban: string;
  bic: string;
  holderName: string;
}

/**
 * A customer's bank account on its own (issue 18: the spec's create-bank-account), checked by the
 * service's rules (IBAN checksum, BIC shape and country): the body to send, or the errors by path.
 */
export function checkBankAccount(
  accountCode: string,
  draft: BankAccountDraft,
): { ok: true; input: BankAccountCreateInput } | { ok: false; errors: FieldErrors } {
  const body = {
    accountCode,
    iban: draft.iban,
    bic: draft.bic.trim() || null,
    holderName: draft.holderName,
  };
  const parsed = v.safeParse(BankAccountCreateBody, body);
  if (!parsed.success) return { ok: false, errors: errorsByPath(parsed.issues, 'iban') };
  return { ok: true, input: body };
}

/** A refusal of the service at the form's fields (400 issues and the 409 on a mandate), or null. */
export function serverPaymentErrors(error: unknown): FieldErrors | null {
  const issues = fieldIssues(error);
  const errors: FieldErrors = {};
  for (const { path, code } of issues) errors[path] ??= [paymentErrorKey(code)];
  const conflict = (
    error as { code?: string; body?: { issues?: { path: string; code: string }[] } }
  )?.body?.issues;
  if ((error as { code?: string })?.code === 'mandate_reference_taken' && conflict) {
    for (const { path, code } of conflict) errors[path] ??= [paymentErrorKey(code)];
  }
  return Object.keys(errors).length ? errors : null;
}
