import { emailCheck } from './email-address.ts';
import * as v from 'valibot';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { isPostcode } from './postcodes.ts';

/**
 * The customer account's editable fields (upstream contract, "Partner and customer"), checked by
 * the sandbox's accountservice and by the customer form with the same rules. Messages are keys of
 * the `customers` namespace (`form.errors.*`), so that the client can translate what the server
 * refused; the sandbox sends them as its message text.
 */

export const ACCOUNT_TITLES = ['', 'Dr.', 'Dr. med.', 'Prof.'] as const;
export const ACCOUNT_GENDERS = ['male', 'female', 'unspecified'] as const;
export const ACCOUNT_TYPES = ['person', 'org'] as const;

/** Phone numbers without a country prefix are read as German: the demo tenants are German. */
export const DEFAULT_PHONE_COUNTRY = 'DE';

export { DEFAULT_ADDRESS_COUNTRY, POSTCODE_FORMATS, isPostcode } from './postcodes.ts';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, 'too_long'));
const required = (max: number) => v.pipe(text(max), v.nonEmpty('required'));

/** Normalises a phone number to E.164, or fails; an empty string means "no phone". */
export function normalizePhone(raw: string): string | null {
  const trimmed = raw.trim();
  if (trimmed === '') return '';
  const parsed = parsePhoneNumberFromString(trimmed, DEFAULT_PHONE_COUNTRY);
  return parsed?.isValid() ? parsed.number : null;
}

function isPastDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  return date.getTime() <= Date.now() && date.getUTCFullYear() >= 1900;
}

export const AccountFields = v.pipe(
  v.object({
    type: v.picklist(ACCOUNT_TYPES, 'invalid_type'),
    title: v.optional(v.picklist(ACCOUNT_TITLES, 'invalid_title'), ''),
    firstName: v.optional(text(100), ''),
    lastName: v.optional(text(100), ''),
    companyName: v.optional(v.nullable(text(200)), null),
    email: v.pipe(v.string(), v.trim(), v.nonEmpty('required'), emailCheck('invalid_email')),
    gender: v.optional(v.picklist(ACCOUNT_GENDERS, 'invalid_gender'), 'unspecified'),
    street: required(200),
    houseNumber: required(20),
    zipCode: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty('required'),
      v.check((zip) => isPostcode(zip), 'invalid_zip'),
    ),
    city: required(100),
    birthDate: v.optional(
      v.nullable(
        v.union(
          [v.literal(''), v.pipe(v.string(), v.check(isPastDate, 'invalid_birth_date'))],
          'invalid_birth_date',
        ),
      ),
      null,
    ),
    phone: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.check((p) => normalizePhone(p) !== null, 'invalid_phone'),
          v.transform((p) => normalizePhone(p) || null),
        ),
      ),
      null,
    ),
    brokerCode: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^ptn_[a-z0-9]+$/))), null),
  }),
  // A person needs a name, an organisation a company name; the other kind's fields are optional.
  // partialCheck: these run even when another field is invalid, so that all errors show at once.
  v.forward(
    v.partialCheck(
      [['type'], ['firstName']],
      (a) => a.type !== 'person' || a.firstName !== '',
      'required',
    ),
    ['firstName'],
  ),
  v.forward(
    v.partialCheck(
      [['type'], ['lastName']],
      (a) => a.type !== 'person' || a.lastName !== '',
      'required',
    ),
    ['lastName'],
  ),
  v.forward(
    v.partialCheck(
      [['type'], ['companyName']],
      (a) => a.type !== 'org' || (a.companyName ?? '') !== '',
      'required',
    ),
    ['companyName'],
  ),
);
export type AccountInput = v.InferInput<typeof AccountFields>;
export type AccountValues = v.InferOutput<typeof AccountFields>;
