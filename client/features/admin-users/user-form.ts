import * as v from 'valibot';
import { ApiError } from '#client/api/fetch-json.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { message, messageOfCode } from '#client/ui/form/messages.ts';
import { UserCreateBody, USER_NAME_MAX } from '#common/contracts/tenant.ts';
import { issueCode } from '#common/contracts/error.ts';
import { EMAIL_ADDRESS_MAX } from '#common/email-address.ts';

/** The fields of a user the user page edits and the create dialog asks for. */
export const USER_FIELDS = ['firstName', 'lastName', 'email'] as const;
export type UserField = (typeof USER_FIELDS)[number];
export type UserValues = Record<UserField, string>;

/** The field's label key in `admin_users` (locale keys are snake_case). */
export const userFieldLabelKey = (field: UserField) =>
  `user_page.fields.${field === 'firstName' ? 'first_name' : field === 'lastName' ? 'last_name' : 'email'}` as const;

/** Each field's limit, the `maxlength` of its input and the number its refusal names. */
export const USER_FIELD_MAX: Record<UserField, number> = {
  firstName: USER_NAME_MAX,
  lastName: USER_NAME_MAX,
  email: EMAIL_ADDRESS_MAX,
};

/**
 * The codes at a field (the schema's and the service's), as the shared field messages, translated
 * where shown; a code this form does not know says "invalid", never valibot's or the service's words.
 */
export function messageOf(code: string, field: UserField, label: string): string {
  if (code === 'required' || code === 'non_empty') {
    return message('messages.fieldRequired', { field: label });
  }
  if (code === 'email_taken') return 'admin_users:user_page.errors.email_taken';
  if (field === 'email' && code !== 'too_long' && code !== 'max_length') {
    return message('messages.invalidEmail');
  }
  return messageOfCode(code, USER_FIELD_MAX[field]);
}

/**
 * Checks the values with the schema the sandbox parses the body with (common/contracts), so the
 * form refuses what the service would, naming the field.
 */
export function validateUser(
  values: UserValues,
  label: (field: UserField) => string,
): { ok: true; input: UserValues } | { ok: false; errors: FieldErrors } {
  const parsed = v.safeParse(v.pick(UserCreateBody, USER_FIELDS), values);
  if (parsed.success) return { ok: true, input: parsed.output };
  const errors: FieldErrors = {};
  for (const issue of parsed.issues) {
    const field = issue.path?.[0]?.key as UserField | undefined;
    if (field && !errors[field]) errors[field] = [messageOf(issueCode(issue), field, label(field))];
  }
  return { ok: false, errors };
}

/** A refusal of the service at a field (a taken address, its own checks), else null. */
export function userFieldErrors(error: unknown, label: (field: UserField) => string) {
  if (!(error instanceof ApiError)) return null;
  const issues = (error.body as { issues?: { path: string; code: string }[] } | undefined)?.issues;
  const errors: FieldErrors = {};
  for (const issue of issues ?? []) {
    if ((USER_FIELDS as readonly string[]).includes(issue.path)) {
      const field = issue.path as UserField;
      errors[field] = [messageOf(issue.code, field, label(field))];
    }
  }
  return Object.keys(errors).length ? errors : null;
}
