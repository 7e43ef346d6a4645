import { beforeAll, describe, expect, it } from 'vitest';
import { api, latestMail } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

/**
 * Issue 16: a password-reset e-mail is in the recipient's own language (the one chosen in their
 * profile), not the tenant's; who chose none gets the tenant's. The tenant is switched to English
 * here, so that neither German nor Polish can come from it.
 */
const kit = withSandbox({
  admin: 'admin@demo.test',
  german: 'care@demo.test',
  polish: 'viewer@demo.test',
});
const { admin, german, polish } = kit.sessions;

const T = '/tenantservice/v1';
const A = '/authservice/v1';

const chooseLanguage = async (token: string, language: string) => {
  const res = await api(kit.base, `${T}/settings/user`, {
    token,
    body: { key: 'language', value: language },
  });
  expect(res.status).toBe(200);
};

const forgotPassword = async (email: string) => {
  const res = await api(kit.base, `${A}/forgot-password`, { body: { email } });
  expect(res.status).toBe(204);
  return latestMail(kit.base, email);
};

beforeAll(async () => {
  await kit.db().query(
    `UPDATE general_settings SET language = 'en'
        WHERE tenant_id = (SELECT tenant_id FROM users WHERE email = 'admin@demo.test')`,
  );
  await chooseLanguage(german.accessToken, 'de');
  await chooseLanguage(polish.accessToken, 'pl');
});

describe('the password-reset e-mail', () => {
  it('is in German for a user who chose German', async () => {
    const mail = await forgotPassword('care@demo.test');
    expect(mail?.subject).toBe('Passwort zurücksetzen');
    expect(mail?.text).toContain('Jemand möchte das Passwort Ihres Kontos zurücksetzen');
    expect(mail?.text).toContain(mail?.link);
  });

  it('is in Polish for a user who chose Polish', async () => {
    const mail = await forgotPassword('viewer@demo.test');
    expect(mail?.subject).toBe('Zresetuj hasło');
    expect(mail?.text).toContain('Ktoś poprosił o zresetowanie hasła');
  });

  it("is in the tenant's language for a user who chose none", async () => {
    const mail = await forgotPassword('manager@demo.test');
    expect(mail?.subject).toBe('Reset your password');
  });

  it('follows a change of the choice, and the reset an administrator sends does too', async () => {
    await chooseLanguage(german.accessToken, 'pl');
    expect((await forgotPassword('care@demo.test'))?.subject).toBe('Zresetuj hasło');
    await chooseLanguage(german.accessToken, 'de');

    const users = await api(
      kit.base,
      `${T}/users?filter=${encodeURIComponent('email=viewer@demo.test')}`,
      { token: admin.accessToken },
    );
    const id = users.body.items?.[0]?.id;
    const sent = await api(kit.base, `${T}/users/${id}/reset-password`, {
      token: admin.accessToken,
      body: {},
    });
    expect(sent.status).toBe(204);
    const mail = await latestMail(kit.base, 'viewer@demo.test');
    expect(mail?.subject).toBe('Zresetuj hasło');
    expect(mail?.text).toContain('Administrator poprosił');
    expect(mail?.link).toMatch(/^http:\/\/localhost:\d+\/account\/resetpassword\?resetToken=/);
  });

  it('keeps an invitation, whose recipient has no account yet, in the tenant language', async () => {
    const res = await api(kit.base, `${T}/users/invites/batch`, {
      body: { emails: ['new.person@example.test'], roleCodes: ['show-only'] },
      token: admin.accessToken,
    });
    expect(res.body.results[0]).toMatchObject({ ok: true });
    expect((await latestMail(kit.base, 'new.person@example.test'))?.subject).toBe(
      'You have been invited',
    );
  });
});
