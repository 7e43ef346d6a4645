import { refusal } from '#client/api/error-text.ts';
import { message, messageOfCode } from '#client/ui/form/messages.ts';

/**
 * Why the registration call was refused, as the wizard's last step shows it. A refusal that names
 * fields or a known code (an address that already has an account, a taken organisation name, the
 * service's validation issues) is said per field in the user's language, so that the user knows
 * what to change; anything else (no answer, 5xx) is the generic "try again" of the spec.
 */

/** A text: a key of the `registration` namespace, or an encoded `ui` message (messages.ts). */
export type RefusalText = { key: `refused.${RefusedCode}` } | { message: string };

/** One field the service named: its form name (`firstName`, `customFields.vat`) and why. */
export interface FieldRefusal {
  field: string;
  text: RefusalText;
}

/** Codes the wizard explains in its own words; other issue codes use the form kit's message. */
const REFUSED_CODES = [
  'already_registered',
  'organization_name_taken',
  'organization_name_invited',
] as const;
export type RefusedCode = (typeof REFUSED_CODES)[number];

const isRefusedCode = (code: string): code is RefusedCode =>
  (REFUSED_CODES as readonly string[]).includes(code);

/** The field a code is about when the answer names none. */
const FIELD_OF_CODE: Record<string, string> = {
  already_registered: 'email',
  organization_name_taken: 'name',
  organization_name_invited: 'name',
  invalid_password: 'newPassword',
};

/** The body's names for what the form calls otherwise. */
const FORM_NAME: Record<string, string> = { password: 'newPassword' };

function textOf(code: string): RefusalText {
  if (isRefusedCode(code)) return { key: `refused.${code}` };
  if (code === 'invalid_password') return { message: message('messages.password_rules') };
  return { message: messageOfCode(code) };
}

/** The fields a refusal names; empty when it names none (then the generic save error shows). */
export function refusedFields(error: unknown): FieldRefusal[] {
  const refused = refusal(error);
  if (!refused) return [];
  const { code, issues } = refused;
  if (issues.length > 0) {
    // An issue of the whole body (path '') is put at the field its code is about, if any.
    const fieldOf = (path: string, issueCode: string): string =>
      path === '' ? (FIELD_OF_CODE[issueCode] ?? '') : (FORM_NAME[path] ?? path);
    return issues.map((issue) => ({
      field: fieldOf(issue.path, issue.code),
      text: textOf(issue.code),
    }));
  }
  const field = FIELD_OF_CODE[code];
  return field ? [{ field, text: textOf(code) }] : [];
}
