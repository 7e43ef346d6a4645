import * as v from 'valibot';
import { message } from '#client/ui/form/messages.ts';
import { maxLengthRule, requiredString } from '#client/ui/form/rules.ts';

/** The service's rules for a role (server/sandbox/user-admin-routes.ts, `RoleBody`). */
export const ROLE_CODE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const ROLE_LABEL_MAX = 100;
export const ROLE_DESCRIPTION_MAX = 500;

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
