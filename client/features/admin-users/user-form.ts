import * as v from 'valibot';
import { ApiError } from '#client/api/fetch-json.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { message } from '#client/ui/form/messages.ts';
import { UserCreateBody } from '#common/contracts/tenant.ts';

/** The fields of a user the user page edits and the create dialog asks for. */
export const USER_FIELDS = ['firstName', 'lastName', 'email'] as const;
export type UserField = (typeof USER_FIELDS)[number];
export type UserValues = Record<UserField, string>;

/** The field's label key in `admin_users` (locale keys are snake_case). */
export const userFieldLabelKey = (field: UserField) =>
  `user_page.fields.${field === 'firstName' ? 'first_name' : field === 'lastName' ? 'last_name' : 'email'}` as const;

/** The service's own codes at a field, as the shared field messages (translated where shown). */
function messageOf(code: string, label: string): string {
  if (code === 'required') return message('messages.fieldRequired', { field: label });
  if (code === 'too_long') return message('messages.string_max', { max: 100 });
  if (code === 'email_taken') return 'admin_users:user_page.errors.email_taken';
  return message('messages.invalidEmail');
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
    if (field && !errors[field]) errors[field] = [messageOf(issue.message, label(field))];
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
      errors[issue.path] = [messageOf(issue.code, label(issue.path as UserField))];
    }
  }
  return Object.keys(errors).length ? errors : null;
}
