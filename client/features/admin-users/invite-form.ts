import { fieldIssues } from '#client/api/error-text.ts';
import { INVITE_EMAILS_MAX } from '#common/contracts/tenant.ts';
import { EMAIL_ADDRESS_MAX, isEmailAddress } from '#common/email-address.ts';
import { splitEmails } from './batch-summary.ts';

/**
 * The invite dialog's addresses field, checked with the service's rules (the shared e-mail rule
 * and the call's most addresses), so that what the dialog sends is what the service takes.
 */

/** The field's `maxlength`: the most addresses, each at its longest, with a separator. */
export const INVITE_TEXT_MAX = INVITE_EMAILS_MAX * (EMAIL_ADDRESS_MAX + 1);

/** What is wrong with the field: an `admin_users` key and its values, said where it is shown. */
export type InviteProblem =
  | { key: 'invite_dialog.emails_required' }
  | { key: 'invite_dialog.too_many'; values: { max: number } }
  | { key: 'invite_dialog.invalid_emails'; values: { emails: string } };

export function checkInviteEmails(
  text: string,
): { ok: true; emails: string[] } | { ok: false; problem: InviteProblem } {
  const emails = splitEmails(text);
  if (emails.length === 0) return { ok: false, problem: { key: 'invite_dialog.emails_required' } };
  if (emails.length > INVITE_EMAILS_MAX) {
    return {
      ok: false,
      problem: { key: 'invite_dialog.too_many', values: { max: INVITE_EMAILS_MAX } },
    };
  }
  const invalid = emails.filter((e) => !isEmailAddress(e));
  if (invalid.length > 0) {
    return {
      ok: false,
      problem: { key: 'invite_dialog.invalid_emails', values: { emails: invalid.join(', ') } },
    };
  }
  return { ok: true, emails };
}

/**
 * A 400 of the service naming addresses (`emails.3`), said as the dialog's own message with those
 * addresses; null for any other failure.
 */
export function refusedEmails(error: unknown, sent: readonly string[]): InviteProblem | null {
  const refused = fieldIssues(error)
    .map((issue) => /^emails\.(\d+)$/.exec(issue.path)?.[1])
    .flatMap((index) => (index === undefined ? [] : [sent[Number(index)] ?? '']))
    .filter((email) => email !== '');
  if (!refused.length) return null;
  return {
    key: 'invite_dialog.invalid_emails',
    values: { emails: [...new Set(refused)].join(', ') },
  };
}
