import * as v from 'valibot';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import {
  emailRule,
  equalTo,
  notMatchPasswordMessage,
  passwordRule,
  requiredString,
} from '#client/ui/form/rules.ts';

/** The request form: a required, well-formed address (spec, section 5: invalidEmailFormat). */
export function requestErrors(email: string, label: string): FieldErrors {
  const schema = v.object({
    email: v.pipe(requiredString(label), emailRule('invalidEmailFormat')),
  });
  return validateForm(schema, { email: email.trim() }).errors;
}

export interface NewPasswordValues {
  newPassword: string;
  confirmPassword: string;
}

/**
 * The new-password form with the spec's registration rules: minimum 8 (passwordLengthError),
 * upper, lower and digit; the confirmation equal (notMatchPasswordError). The equality is checked
 * on its own so that a mismatch shows even while the password itself still breaks a rule.
 */
export function newPasswordErrors(
  values: NewPasswordValues,
  labels: { newPassword: string; confirmPassword: string },
): FieldErrors {
  const rules = validateForm(
    v.object({
      newPassword: passwordRule(labels.newPassword),
      confirmPassword: requiredString(labels.confirmPassword),
    }),
    values,
  ).errors;
  const equality = values.confirmPassword
    ? validateForm(
        v.pipe(
          v.object({ newPassword: v.string(), confirmPassword: v.string() }),
          equalTo('confirmPassword', 'newPassword', notMatchPasswordMessage),
        ),
        values,
      ).errors
    : {};
  const merged: FieldErrors = { ...rules };
  for (const [field, messages] of Object.entries(equality)) {
    merged[field] = [...(merged[field] ?? []), ...messages];
  }
  return merged;
}
