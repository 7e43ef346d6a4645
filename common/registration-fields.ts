import * as v from 'valibot';

/*
 * The text fields of the registration wizards and of the bodies the sandbox takes from them, with
 * one set of rules: when the wizard knew none of the server's limits, a 310-character first name
 * passed step 1 and failed at the end with "try again". The same limits give the inputs their
 * `maxlength`, and the organisation forms of the administration use them too.
 */

export const REGISTRATION_FIELD_MAX = {
  name: 200,
  firstName: 100,
  lastName: 100,
  street: 200,
  houseNumber: 20,
  zipCode: 20,
  city: 100,
  country: 100,
} as const;

export type RegistrationTextField = keyof typeof REGISTRATION_FIELD_MAX;

/**
 * What a refusal says. The sandbox passes none, so that its issues carry valibot's codes
 * (`non_empty`, `max_length`) as every other body does; a form passes its translatable messages.
 */
export interface FieldMessages {
  required: string;
  tooLong: (max: number) => string;
}

/** A required text of at most the field's length, trimmed. */
export function registrationText(field: RegistrationTextField, messages?: FieldMessages) {
  const max = REGISTRATION_FIELD_MAX[field];
  return v.pipe(
    v.string(messages?.required),
    v.trim(),
    v.nonEmpty(messages?.required),
    v.maxLength(max, messages?.tooLong(max)),
  );
}

export const PERSON_TEXT_FIELDS = ['firstName', 'lastName'] as const;
export const ADDRESS_TEXT_FIELDS = ['street', 'houseNumber', 'zipCode', 'city', 'country'] as const;

type Rules<F extends RegistrationTextField> = { [K in F]: ReturnType<typeof registrationText> };

function rules<F extends RegistrationTextField>(
  fields: readonly F[],
  messages?: (field: F) => FieldMessages,
): Rules<F> {
  return Object.fromEntries(
    fields.map((field) => [field, registrationText(field, messages?.(field))]),
  ) as Rules<F>;
}

/** First and last name of the person who registers (the wizards' user data step). */
export const personTextRules = (messages?: (field: 'firstName' | 'lastName') => FieldMessages) =>
  rules(PERSON_TEXT_FIELDS, messages);

/** The postal address of an organisation (the wizards' organisation step, the admin forms). */
export const addressTextRules = (
  messages?: (field: (typeof ADDRESS_TEXT_FIELDS)[number]) => FieldMessages,
) => rules(ADDRESS_TEXT_FIELDS, messages);

/**
 * Spec, section 5: an invitation is expired when the current time is after its expiry (one
 * without an expiry never is), in the administration's list and in the wizard alike.
 */
export function isExpired(expiresAt: string | null | undefined, now = Date.now()): boolean {
  if (!expiresAt) return false;
  const time = Date.parse(expiresAt);
  return Number.isFinite(time) && now > time;
}
