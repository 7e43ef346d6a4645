import { describe, expect, it } from 'vitest';
import { ApiError } from '#client/api/fetch-json.ts';
import { INVITE_EMAILS_MAX } from '#common/contracts/tenant.ts';
import { EMAIL_ADDRESS_MAX } from '#common/email-address.ts';
import { INVITE_TEXT_MAX, checkInviteEmails, refusedEmails } from './invite-form.ts';

describe('checkInviteEmails', () => {
  it('takes addresses separated by commas, semicolons and lines', () => {
    expect(checkInviteEmails(' a@demo.test,b@demo.test;\nc@demo.test ')).toEqual({
      ok: true,
      emails: ['a@demo.test', 'b@demo.test', 'c@demo.test'],
    });
  });

  it('refuses nothing, too many, and addresses the service refuses, with translatable keys', () => {
    expect(checkInviteEmails(' ,; ')).toEqual({
      ok: false,
      problem: { key: 'invite_dialog.emails_required' },
    });
    const many = Array.from({ length: INVITE_EMAILS_MAX + 1 }, (_, i) => `u${i}@demo.test`);
    expect(checkInviteEmails(many.join('\n'))).toEqual({
      ok: false,
      problem: { key: 'invite_dialog.too_many', values: { max: INVITE_EMAILS_MAX } },
    });
    expect(checkInviteEmails(many.slice(1).join('\n')).ok).toBe(true);
    const long = `${'a'.repeat(65)}@demo.test`;
    expect(checkInviteEmails(`ok@demo.test, jürgen.müller@example.com, ${long}`)).toEqual({
      ok: false,
      problem: {
        key: 'invite_dialog.invalid_emails',
        values: { emails: `jürgen.müller@example.com, ${long}` },
      },
    });
  });

  it('lets the field hold the most addresses at their longest', () => {
    expect(INVITE_TEXT_MAX).toBe(INVITE_EMAILS_MAX * (EMAIL_ADDRESS_MAX + 1));
  });
});

describe('refusedEmails', () => {
  const sent = ['a@demo.test', 'b@demo.test', 'c@demo.test'];
  it('names the addresses a 400 points at', () => {
    const error = new ApiError(400, 'validation_error', 'emails.2: email', {
      error: 'validation_error',
      message: 'emails.2: email',
      issues: [
        { path: 'emails.2', code: 'email' },
        { path: 'emails.0', code: 'email' },
      ],
    });
    expect(refusedEmails(error, sent)).toEqual({
      key: 'invite_dialog.invalid_emails',
      values: { emails: 'c@demo.test, a@demo.test' },
    });
  });

  it('is null for refusals about anything else', () => {
    const roles = new ApiError(400, 'validation_error', '', {
      error: 'validation_error',
      message: '',
      issues: [{ path: 'roleIds.0', code: 'min_value' }],
    });
    expect(refusedEmails(roles, sent)).toBeNull();
    expect(refusedEmails(new ApiError(403, 'escalation', '', null), sent)).toBeNull();
  });
});
