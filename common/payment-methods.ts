import * as v from 'valibot';
import { isValidBIC } from 'ibantools';
import { Iban, normalizeIban } from './leads.ts';

/**
 * The paymentservice's payment methods, policy payment methods and bank accounts (issue 18,
 * docs/contracts.md "Payment methods and bank accounts"): the request bodies, checked by the
 * sandbox and by the client's forms with the same rules. Messages are codes (`invalid_bic`),
 * which the sandbox sends as `{path, code}` issues and the forms show as
 * `payment_methods:errors.{code}`.
 */

export const PAYMENT_METHOD_KINDS = ['sepa', 'invoice', 'card'] as const;
export type PaymentMethodKind = (typeof PAYMENT_METHOD_KINDS)[number];

/** The card stand-in's brands: a label for the customer, nothing a payment could be made with. */
export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'other'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** A BIC without spaces, upper case. */
export const normalizeBic = (raw: string): string => raw.replace(/\s+/g, '').toUpperCase();

/** ISO 9362 by ibantools: 8 or 11 characters, bank code, country, location (and branch). */
export const isValidBic = (raw: string): boolean => isValidBIC(normalizeBic(raw));

/** The country of a BIC (its 5th and 6th characters) must be the IBAN's. */
export const bicMatchesIban = (bic: string, iban: string): boolean =>
  normalizeBic(bic).slice(4, 6) === normalizeIban(iban).slice(0, 2);

/**
 * An IBAN as the answers show it: the country and the last four characters, the rest hidden,
 * in groups of four (`DE•• •••• •••• •••• ••30 00`). Enough to tell a customer's accounts apart
 * and to read the last digits back on the phone; the full number stays in the service.
 */
export function maskIban(raw: string): string {
  const iban = normalizeIban(raw);
  if (iban.length <= 6) return iban;
  const masked = iban.slice(0, 2) + '•'.repeat(iban.length - 6) + iban.slice(-4);
  return masked.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The Luhn check of a card number's digits. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** 13 to 19 digits, single spaces or dashes between them allowed: how a card number is typed. */
const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;

/** Does a text hold a full card number (a primary account number): 13–19 digits passing Luhn? */
export function holdsCardNumber(text: string): boolean {
  for (const match of text.matchAll(DIGIT_RUN)) {
    const digits = match[0].replace(/[ -]/g, '');
    // Part of a longer run of digits (an account number): not a card number on its own.
    const before = text[match.index - 1];
    const after = text[match.index + match[0].length];
    if ((before && /\d/.test(before)) || (after && /\d/.test(after))) continue;
    if (passesLuhn(digits)) return true;
  }
  return false;
}

/**
 * The dotted path of the first string in a body that holds a full card number, or null. The
 * card stand-in keeps brand, last four digits and expiry only: a full number is refused wherever
 * it is typed (a holder name, a reference), so that it is never stored (PCI DSS scope). IBANs are
 * skipped: they have their own check, and a long account number is no card number.
 */
export function cardNumberPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return holdsCardNumber(value) ? path || 'body' : null;
  if (typeof value === 'number') return holdsCardNumber(String(value)) ? path || 'body' : null;
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'iban') continue;
      const found = cardNumberPath(inner, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}

const trimmed = (max: number) =>
  v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'too_long'));

/** A BIC as a body carries it: normalised, then checked. */
export const Bic = v.pipe(
  v.string('invalid_bic'),
  v.transform(normalizeBic),
  v.check(isValidBic, 'invalid_bic'),
);

/** A customer account's code (`acc_…`). */
const AccountCode = v.pipe(
  v.string('required'),
  v.regex(/^acc_[A-Za-z0-9]{1,64}$/, 'invalid_account'),
);

/** A day as `YYYY-MM-DD`. */
const Day = v.pipe(v.string('invalid_date'), v.isoDate('invalid_date'));

/**
 * A SEPA mandate reference: up to 35 characters of the SEPA character set. Left out, the service
 * gives one (`MNDT-…`).
 */
export const MANDATE_REFERENCE = /^[A-Za-z0-9+?/:().,' -]{1,35}$/;

/** BIC optional: a German IBAN's bank is known from its bank code (the service's BLZ table). */
const BicOrNull = v.optional(v.nullable(v.union([v.literal(''), Bic], 'invalid_bic')), null);

export const PaymentMethodCreateBody = v.intersect([
  v.object({ accountCode: AccountCode }),
  v.variant(
    'type',
    [
      v.object({
        type: v.literal('sepa'),
        sepa: v.object({
          iban: Iban,
          bic: BicOrNull,
          holderName: trimmed(200),
          mandateReference: v.optional(
            v.nullable(
              v.pipe(
                v.string('invalid_mandate_reference'),
                v.trim(),
                v.regex(MANDATE_REFERENCE, 'invalid_mandate_reference'),
              ),
            ),
            null,
          ),
          mandateSignedAt: Day,
        }),
      }),
      v.object({ type: v.literal('invoice') }),
      v.object({
        type: v.literal('card'),
        card: v.object({
          brand: v.picklist(CARD_BRANDS, 'invalid_card_brand'),
          last4: v.pipe(v.string('invalid_last4'), v.regex(/^\d{4}$/, 'invalid_last4')),
          expiryMonth: v.pipe(
            v.number('invalid_expiry'),
            v.integer('invalid_expiry'),
            v.minValue(1, 'invalid_expiry'),
            v.maxValue(12, 'invalid_expiry'),
          ),
          expiryYear: v.pipe(
            v.number('invalid_expiry'),
            v.integer('invalid_expiry'),
            v.minValue(2000, 'invalid_expiry'),
            v.maxValue(2100, 'invalid_expiry'),
          ),
          holderName: v.optional(v.nullable(trimmed(200)), null),
        }),
      }),
    ],
    'invalid_payment_method',
  ),
]);
export type PaymentMethodCreateInput = v.InferInput<typeof PaymentMethodCreateBody>;

/** Is a card's expiry (month, year) before the month of `today` (`YYYY-MM-DD`)? */
export const cardExpired = (month: number, year: number, today: string): boolean =>
  year * 12 + month < Number(today.slice(0, 4)) * 12 + Number(today.slice(5, 7));

export const PolicyPaymentMethodCreateBody = v.object({
  policyCode: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(100, 'too_long')),
  paymentMethodCode: v.pipe(
    v.string('required'),
    v.regex(/^pm_[A-Za-z0-9]{1,64}$/, 'invalid_payment_method'),
  ),
});
export type PolicyPaymentMethodCreateInput = v.InferInput<typeof PolicyPaymentMethodCreateBody>;

export const BankAccountCreateBody = v.object({
  accountCode: AccountCode,
  iban: Iban,
  bic: BicOrNull,
  holderName: trimmed(200),
});
export type BankAccountCreateInput = v.InferInput<typeof BankAccountCreateBody>;
