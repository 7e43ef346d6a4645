import * as v from 'valibot';
import { message } from '#client/ui/form/messages.ts';
import { maxLengthRule, requiredString } from '#client/ui/form/rules.ts';

import { fieldIssues } from '#client/api/error-text.ts';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { messageOfCode } from '#client/ui/form/messages.ts';
// The service's rules for a role (`RoleBody` of the shared contract): one set of limits.
import {
  ROLE_CODE_MAX,
  ROLE_CODE_PATTERN,
  ROLE_DESCRIPTION_MAX,
  ROLE_LABEL_MAX,
} from '#common/contracts/tenant.ts';

export interface RoleFormValues {
  code: string;
  label: string;
  description: string;
}

/**
 * The text fields of the role editor. The code is asked for only when creating: the service
 * refuses to change it (400 `code_read_only`). Messages are the `ui` namespace's encoded keys.
 */
export function roleFormSchema(labels: { code: string; label: string }, isNew: boolean) {
  return v.object({
    code: isNew
      ? v.pipe(
          requiredString(labels.code),
          v.regex(ROLE_CODE_PATTERN, message('messages.invalid_value')),
        )
      : v.nullish(v.string()),
    label: v.pipe(requiredString(labels.label), maxLengthRule(ROLE_LABEL_MAX)),
    description: v.nullish(v.pipe(v.string(), maxLengthRule(ROLE_DESCRIPTION_MAX))),
  });
}

/** Each text field's limit, for the message of a refusal that carries only its code. */
const ROLE_FIELD_MAX: Record<keyof RoleFormValues, number> = {
  code: ROLE_CODE_MAX,
  label: ROLE_LABEL_MAX,
  description: ROLE_DESCRIPTION_MAX,
};

/**
 * A 400 of the service at the role's text fields, as the form's messages (encoded `ui` keys, said
 * by the issue's code and the field's limit), or null when the refusal names none of them. The
 * service's own words are never shown.
 */
export function roleFieldErrors(error: unknown): FieldErrors | null {
  const errors: FieldErrors = {};
  for (const { path, code } of fieldIssues(error)) {
    if (!Object.hasOwn(ROLE_FIELD_MAX, path)) continue;
    const max = ROLE_FIELD_MAX[path as keyof RoleFormValues];
    (errors[path] ??= []).push(messageOfCode(code, max));
  }
  return Object.keys(errors).length ? errors : null;
}

const KNOWN_ERRORS = [
  'escalation',
  'role_code_taken',
  'role_in_use',
  'last_administrator',
  'not_found',
] as const;
export type RoleErrorCode = (typeof KNOWN_ERRORS)[number] | 'invalid' | 'generic';

/** The translated message for a failed role call: the service's code, 400s as invalid input. */
export function roleErrorCode(error: unknown): RoleErrorCode {
  if (typeof error !== 'object' || error === null) return 'generic';
  const { status, code } = error as { status?: unknown; code?: unknown };
  const known = KNOWN_ERRORS.find((k) => k === code);
  if (known) return known;
  if (status === 404) return 'not_found';
  if (status === 400) return 'invalid';
  return 'generic';
}
