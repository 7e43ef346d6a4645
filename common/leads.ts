import * as v from 'valibot';
import { composeIBAN, isValidIBAN } from 'ibantools';

/**
 * The editable parts of a lead beyond its policy data (upstream contract, "Lead"): the payment
 * method, the bank account and the free custom data. Checked by the sandbox and by the lead's
 * edit form with the same rules; messages are codes (`invalid_iban`), which the sandbox sends as
 * `{field}: {code}` and the form shows as `leads:form.errors.{code}`.
 */

export const PAYMENT_METHOD_TYPES = ['sepa', 'invoice'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/** The entity type of leads in the status transition rules and in the document service. */
export const LEAD_ENTITY_TYPE = 'lead';

/**
 * The status of a lead that became a policy. A lead gets there by the policy created from it
 * (POST /policies with its leadCode), where the tenant's rules allow the move.
 */
export const LEAD_CONVERTED_STATUS = 'converted';

/** An IBAN without spaces, upper case: 'de89 3704…' -> 'DE893704…'. */
export const normalizeIban = (raw: string): string => raw.replace(/\s+/g, '').toUpperCase();

/**
 * ISO 13616 by ibantools (a maintained library): the country's length and format and the mod 97
 * check digits. The client and the sandbox call this one function, so they agree on one rule.
 */
export function isValidIban(raw: string): boolean {
  return isValidIBAN(normalizeIban(raw));
}

/**
 * The IBAN of a country's BBAN with its check digits, by ibantools (for seeds and tests); throws
 * for a BBAN the country's format does not take.
 */
export function composeIban(country: string, bban: string): string {
  const iban = composeIBAN({ countryCode: country, bban });
  if (!iban) throw new Error(`not a ${country} BBAN: ${bban}`);
  return iban;
}

/** The two check digits that make `country + digits + bban` a valid IBAN. */
export const ibanCheckDigits = (country: string, bban: string): string =>
  composeIban(country, bban).slice(2, 4);

/** An IBAN as a body carries it: normalised (no spaces, upper case), then checked. */
export const Iban = v.pipe(
  v.string('invalid_iban'),
  v.transform(normalizeIban),
  v.check(isValidIban, 'invalid_iban'),
);

export const BankAccount = v.object({ iban: Iban });

export const PaymentMethod = v.variant(
  'type',
  [
    v.object({
      type: v.literal('sepa'),
      sepa: v.object({
        iban: Iban,
        holderName: v.optional(
          v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(200, 'too_long'))),
          null,
        ),
      }),
    }),
    v.object({ type: v.literal('invoice') }),
  ],
  'invalid_payment_method',
);
export type PaymentMethodValue = v.InferOutput<typeof PaymentMethod>;

/** Free data of the tenant's own: at most 50 keys of plain values, so a lead stays small. */
/** A custom data key: a name a formula or a template could read. */
export const CUSTOM_DATA_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;
export const CUSTOM_DATA_MAX_KEYS = 50;

export const CustomData = v.pipe(
  v.record(
    v.pipe(v.string(), v.regex(CUSTOM_DATA_KEY, 'invalid_key')),
    v.nullable(
      v.union([v.pipe(v.string(), v.maxLength(2000, 'too_long')), v.number(), v.boolean()]),
      'invalid_value',
    ),
  ),
  v.check((data) => Object.keys(data).length <= CUSTOM_DATA_MAX_KEYS, 'too_many_keys'),
);
export type CustomDataValue = v.InferOutput<typeof CustomData>;

/** The parts of a lead the edit form changes, each optional; null clears it. */
export const LeadExtras = v.object({
  bankAccount: v.optional(v.nullable(BankAccount)),
  paymentMethod: v.optional(v.nullable(PaymentMethod)),
  customData: v.optional(v.nullable(CustomData)),
});
export type LeadExtrasInput = v.InferInput<typeof LeadExtras>;
