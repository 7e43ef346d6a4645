import { emailCheck } from '#common/email-address.ts';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblems,
  type PasswordProblem,
} from '#common/password-rules.ts';
import { postcodeFitsCountry } from '#common/postcodes.ts';
import type { CountryCode } from 'libphonenumber-js';
import * as v from 'valibot';
import { message } from './messages.ts';
import { loadedPhoneValidator, preloadPhoneParser } from './phone-parser.ts';

/**
 * Numbers without a country prefix are read as German ones: the product's tenants are German
 * insurers. Callers with other markets pass their own country.
 */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'DE';

export const requiredMessage = (label: string) =>
  message('messages.fieldRequired', { field: label });

const isBlank = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/** A required text: null, undefined and blank give `messages.fieldRequired` with the label. */
export function requiredString(label: string) {
  return v.pipe(
    v.string(requiredMessage(label)),
    v.check((value) => !isBlank(value), requiredMessage(label)),
  );
}

/**
 * `isPhoneNumber` of the spec: empty is valid, anything else must be a real phone number. Should
 * the parser not have arrived yet (`preloadPhoneParser`), the number passes here and the server,
 * which checks it too, answers with its own translated error.
 */
export function isPhoneNumber(value: string, country: CountryCode = DEFAULT_PHONE_COUNTRY) {
  if (value.trim() === '') return true;
  const validate = loadedPhoneValidator();
  return validate ? validate(value, country) : true;
}

/** The phone check of a form; building it starts loading the parser (a chunk of its own). */
export function phoneRule(country: CountryCode = DEFAULT_PHONE_COUNTRY) {
  void preloadPhoneParser();
  return v.check<string, string>(
    (value) => isPhoneNumber(value, country),
    message('messages.invalidPhoneFormat'),
  );
}

/** Dynamic fields use `messages.invalidEmail`; the registration step `invalidEmailFormat`. */
export function emailRule(variant: 'invalidEmail' | 'invalidEmailFormat' = 'invalidEmail') {
  return emailCheck(
    message(variant === 'invalidEmail' ? 'messages.invalidEmail' : 'messages.invalidEmailFormat'),
  );
}

export const minLengthRule = (min: number) =>
  v.minLength<string, number, string>(min, message('messages.string_min', { min }));
export const maxLengthRule = (max: number) =>
  v.maxLength<string, number, string>(max, message('messages.string_max', { max }));
export const numberMinRule = (min: number) =>
  v.minValue<number, number, string>(min, message('messages.numberMin', { min }));
export const numberMaxRule = (max: number) =>
  v.maxValue<number, number, string>(max, message('messages.numberMax', { max }));

/**
 * A number from a form: numbers pass, numeric strings are converted, anything else gives the
 * number type error. Empty (null) is `fieldRequired` when required, else allowed.
 */
export function numberField(
  label: string,
  {
    required = false,
    minimum,
    maximum,
  }: { required?: boolean; minimum?: number; maximum?: number } = {},
) {
  const typeError = message('messages.number_type');
  const toNumber = v.pipe(
    v.union([v.number(), v.string()], typeError),
    v.transform((value) => (typeof value === 'number' ? value : Number(value.replace(',', '.')))),
    v.check((value) => Number.isFinite(value), typeError),
    v.check(
      (value) => minimum === undefined || !Number.isFinite(value) || value >= minimum,
      message('messages.numberMin', { min: minimum ?? '' }),
    ),
    v.check(
      (value) => maximum === undefined || !Number.isFinite(value) || value <= maximum,
      message('messages.numberMax', { max: maximum ?? '' }),
    ),
  );
  if (!required) return v.nullish(toNumber);
  return v.pipe(
    v.unknown(),
    v.check((value) => !isBlank(value), requiredMessage(label)),
    v.transform((value) => value as number | string),
    toNumber,
  );
}

/** A required boolean must be true (`messages.booleanTrueRequired`), e.g. the EULA. */
export function trueRequired() {
  return v.literal(true, message('messages.booleanTrueRequired'));
}

const COMPOSITION: readonly PasswordProblem[] = ['no_upper', 'no_lower', 'no_digit'];
const breaks = (password: string, problems: readonly PasswordProblem[]) =>
  passwordProblems(password).some((problem) => problems.includes(problem));

/**
 * A new password: required and the product's one rule (common/password-rules.ts), which the
 * sandbox checks too, so that no step passes what the submit refuses.
 */
export function passwordRule(label: string) {
  return v.pipe(
    requiredString(label),
    v.check(
      (value) => !breaks(value, ['too_short']),
      message('messages.passwordLengthError', { min: PASSWORD_MIN_LENGTH }),
    ),
    v.check(
      (value) => !breaks(value, ['too_long']),
      message('messages.string_max', { max: PASSWORD_MAX_LENGTH }),
    ),
    v.check((value) => !breaks(value, COMPOSITION), message('messages.password_rules')),
    v.check(
      (value) => !breaks(value, ['control_character']),
      message('messages.password_control_character'),
    ),
  );
}

/**
 * `equalTo` of the spec for object schemas: `field` must equal `reference`; the issue is put on
 * `field`. Default message: the value is not equal to the reference value.
 */
export function equalTo<TInput extends Record<string, unknown>>(
  field: keyof TInput & string,
  reference: keyof TInput & string,
  text: string = message('messages.not_equal'),
) {
  return v.forward(
    v.check<TInput, string>((input) => input[field] === input[reference], text),
    [field] as never,
  );
}

export const notMatchPasswordMessage = message('messages.notMatchPasswordError');

/**
 * The postcode fits the country as typed (DE 5 digits, PL NN-NNN, AT and CH 4 digits, others
 * free): the rule the service checks (common/postcodes.ts), said at the postcode before sending;
 * the organisation forms and the registration wizards' address steps alike.
 */
export function postcodeChecked<T extends { zipCode: string; country: string }>(
  schema: v.GenericSchema<unknown, T>,
) {
  return v.pipe(
    schema,
    v.rawCheck(({ dataset, addIssue }) => {
      // One message at a time at the postcode: a blank or overlong one says so first.
      if (!dataset.typed || dataset.issues?.some((i) => v.getDotPath(i) === 'zipCode')) return;
      const { zipCode, country } = dataset.value;
      if (postcodeFitsCountry(zipCode, country)) return;
      addIssue({
        message: message('messages.invalid_zip'),
        path: [
          { type: 'object', origin: 'value', input: dataset.value, key: 'zipCode', value: zipCode },
        ],
      });
    }),
  );
}
