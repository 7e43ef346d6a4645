import { beforeAll, describe, expect, it } from 'vitest';
import { api, expireToken, latestMail, linkParam, login } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';
import { validateForm } from '#client/ui/form/custom-schema.ts';
import { addressSchema, personSchema } from '#client/features/registration/registration-forms.ts';

const kit = withSandbox({ admin: 'admin@demo.test' });
const { admin } = kit.sessions;
let base: string;

const T = '/tenantservice/v1';
const A = '/authservice/v1';
const NEW_PASSWORD = 'Fresh1234';
const ADDRESS = {
  street: 'Ringstraße',
  houseNumber: '7',
  zipCode: '04109',
  city: 'Leipzig',
  country: 'Deutschland',
};

/** The address step's labels, as the wizard passes them translated. */
const ADDRESS_LABELS = {
  street: 'Street',
  houseNumber: 'No.',
  zipCode: 'Postcode',
  city: 'City',
  country: 'Country',
};

beforeAll(() => {
  base = kit.base;
});

async function invite(email: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api(base, `${T}/users/invites/batch`, {
    body: { emails: [email], roleCodes: ['show-only'], ...extra },
    token: admin.accessToken,
  });
  expect(res.body.results[0]).toMatchObject({ ok: true });
  return linkParam((await latestMail(base, email))?.link, 'token');
}

function registration(token: string, extra: Record<string, unknown> = {}) {
  return {
    firstName: 'Rita',
    lastName: 'Register',
    password: NEW_PASSWORD,
    ...ADDRESS,
    isEulaAccepted: true,
    customFields: { registrationNumber: 'HRB 123' },
    invitationToken: token,
    ...extra,
  };
}

async function orgInvitation(email: string, offerSso = false): Promise<string> {
  const res = await api(base, `${T}/invitations/organizations`, {
    body: {
      name: `Org of ${email}`,
      slug: 'org-reg',
      email,
      ...ADDRESS,
      roleCodes: ['customer-care'],
      customFields: { registrationNumber: 'HRB 9' },
      offerSso,
    },
    token: admin.accessToken,
  });
  expect(res.status).toBe(201);
  return linkParam((await latestMail(base, email))?.link, 'token');
}

describe('user registration by invitation', () => {
  it('verifies an invitation and answers 403 for unknown or missing tokens', async () => {
    const orgs = await api(base, `${T}/organizations`, { token: admin.accessToken });
    const token = await invite('rita@example.test', { organizationId: orgs.body.items[0].id });
    const res = await api(base, `${A}/verify-invite?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.body.invite).toMatchObject({
      email: 'rita@example.test',
      organization: { id: orgs.body.items[0].id, name: orgs.body.items[0].name },
      roles: [expect.objectContaining({ code: 'show-only' })],
      customSchema: { entity: 'organization', fields: expect.any(Array) },
    });
    for (const query of ['', '?token=', `?token=${'x'.repeat(43)}`, `?token=${token}x`]) {
      const bad = await api(base, `${A}/verify-invite${query}`);
      expect(bad.status, query).toBe(403);
      expect(bad.body.error).toBe('invalid_token');
    }
  });

  it('registers once: the user signs in with the invite’s roles and organisation', async () => {
    const token = await invite('rita2@example.test');
    // Bad input answers 400 and does not use the token up.
    for (const extra of [
      { password: 'short1A' },
      { password: 'alllowercase1' },
      { password: 'NoDigitsHere' },
      { isEulaAccepted: false },
      { firstName: '' },
      { street: undefined },
      { customFields: {} },
    ]) {
      const res = await api(base, `${A}/create-user`, { body: registration(token, extra) });
      expect(res.status, JSON.stringify(extra)).toBe(400);
    }
    const ok = await api(base, `${A}/create-user`, { body: registration(token) });
    expect(ok.status).toBe(201);
    const session = await login(base, 'rita2@example.test', NEW_PASSWORD);
    const me = await api(
      base,
      `${T}/users?filter=${encodeURIComponent('email=rita2@example.test')}&expand=roles`,
      { token: session.accessToken },
    );
    expect(me.body.items[0]).toMatchObject({ status: 'active', firstName: 'Rita' });
    expect(me.body.items[0].roles.map((r: { code: string }) => r.code)).toEqual(['show-only']);

    // Replay of the same link.
    const replay = await api(base, `${A}/create-user`, {
      body: registration(token, { password: 'Other1234' }),
    });
    expect(replay.status).toBe(403);
    expect((await api(base, `${A}/verify-invite?token=${token}`)).status).toBe(403);
    await expect(login(base, 'rita2@example.test', 'Other1234')).rejects.toThrow();
  });

  it('activates a seeded invited user of the same e-mail', async () => {
    const email = 'henrik.dietrich7@demo.test';
    const before = await api(base, `${T}/users?filter=${encodeURIComponent(`email=${email}`)}`, {
      token: admin.accessToken,
    });
    expect(before.body.items[0].status).toBe('invited');
    const token = await invite(email);
    expect((await api(base, `${A}/create-user`, { body: registration(token) })).status).toBe(201);
    await login(base, email, NEW_PASSWORD);
  });

  it('refuses an over-long first name at the wizard step and in the call, both naming the field', async () => {
    const long = 'R'.repeat(310);
    // The step of the wizard: the field has its message before anything is sent.
    const step = validateForm(
      personSchema({
        email: 'E-mail',
        firstName: 'First name',
        lastName: 'Last name',
        newPassword: 'Password',
        confirmPassword: 'Repeat password',
      }),
      {
        email: 'long@example.test',
        firstName: long,
        lastName: 'Register',
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
        isEulaAccepted: true,
      },
    );
    expect(step.errors).toEqual({ firstName: ['messages.string_max?max=100'] });
    const address = validateForm(addressSchema(ADDRESS_LABELS), {
      ...ADDRESS,
      city: 'C'.repeat(101),
    });
    expect(address.errors).toEqual({ city: ['messages.string_max?max=100'] });

    // The sandbox, by the same rules: the field is named, the invitation stays usable.
    const token = await invite('long@example.test');
    const refused = await api(base, `${A}/create-user`, {
      body: registration(token, { firstName: long }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([{ path: 'firstName', code: 'max_length' }]);
    const longCity = await api(base, `${A}/create-user`, {
      body: registration(token, { city: 'C'.repeat(101) }),
    });
    expect(longCity.body.issues).toEqual([{ path: 'city', code: 'max_length' }]);
    const done = await api(base, `${A}/create-user`, {
      body: registration(token, { firstName: 'R'.repeat(100) }),
    });
    expect(done.status).toBe(201);
  });

  it('judges a password as the wizard step does: one rule (common/password-rules.ts)', async () => {
    const schema = personSchema({
      email: 'E-mail',
      firstName: 'First name',
      lastName: 'Last name',
      newPassword: 'Password',
      confirmPassword: 'Repeat password',
    });
    const stepAccepts = (password: string) =>
      validateForm(schema, {
        email: 'pw@example.test',
        firstName: 'Rita',
        lastName: 'Register',
        newPassword: password,
        confirmPassword: password,
        isEulaAccepted: true,
      }).success;
    const token = await invite('pw@example.test');
    // Refused by both, and the invitation stays usable.
    for (const password of [`Ab1${'x'.repeat(198)}`, 'Abcd\tefg1', 'abcdefg1', 'Äbcdefgh']) {
      expect(stepAccepts(password), password).toBe(false);
      const res = await api(base, `${A}/create-user`, { body: registration(token, { password }) });
      expect(res.status, password).toBe(400);
    }
    // A German upper-case letter counts for both: the step's yes is the call's yes.
    expect(stepAccepts('Äbcdefg1')).toBe(true);
    const ok = await api(base, `${A}/create-user`, {
      body: registration(token, { password: 'Äbcdefg1' }),
    });
    expect(ok.status).toBe(201);
    await login(base, 'pw@example.test', 'Äbcdefg1');
  });

  it('refuses an expired invitation with 403', async () => {
    const token = await invite('late@example.test');
    await expireToken(kit.db(), 'invites', token);
    expect((await api(base, `${A}/verify-invite?token=${token}`)).status).toBe(403);
    expect((await api(base, `${A}/create-user`, { body: registration(token) })).status).toBe(403);
  });
});

describe('organisation registration by invitation', () => {
  it('verifies the invitation with custom schema and SSO address', async () => {
    const token = await orgInvitation('sso@org.test', true);
    const res = await api(base, `${A}/verify-org-invitation?invitationToken=${token}`);
    expect(res.status).toBe(200);
    expect(res.body.invitation).toMatchObject({
      email: 'sso@org.test',
      name: 'Org of sso@org.test',
      street: 'Ringstraße',
      customFields: { registrationNumber: 'HRB 9' },
      roles: [expect.objectContaining({ code: 'customer-care' })],
      customSchema: { entity: 'organization' },
      samlIdpLoginUrl: '/sandbox-idp/login?tenantSlug=demo',
    });
    const plain = await orgInvitation('plain@org.test');
    const noSso = await api(base, `${A}/verify-org-invitation?invitationToken=${plain}`);
    expect(noSso.body.invitation.samlIdpLoginUrl).toBeNull();
    expect((await api(base, `${A}/verify-org-invitation?invitationToken=nope`)).status).toBe(403);
    expect((await api(base, `${A}/verify-org-invitation`)).status).toBe(403);
  });

  it('creates the organisation and its contact person once', async () => {
    const token = await orgInvitation('contact@org.test');
    const bad = await api(base, `${A}/create-org-and-user`, {
      body: registration(token, { isEulaAccepted: 'yes' }),
    });
    expect(bad.status).toBe(400);
    const res = await api(base, `${A}/create-org-and-user`, { body: registration(token) });
    expect(res.status).toBe(201);
    expect(res.body.organization).toMatchObject({
      name: 'Org of contact@org.test',
      email: 'contact@org.test',
      city: 'Leipzig',
      customFields: { registrationNumber: 'HRB 123' },
    });
    const session = await login(base, 'contact@org.test', NEW_PASSWORD);
    const me = await api(
      base,
      `${T}/users?filter=${encodeURIComponent('email=contact@org.test')}&expand=organizations`,
      { token: admin.accessToken },
    );
    expect(me.body.items[0].organization).toMatchObject({ id: res.body.organization.id });
    expect((await api(base, `${T}/users`, { token: session.accessToken })).status).toBe(403);
    const replay = await api(base, `${A}/create-org-and-user`, { body: registration(token) });
    expect(replay.status).toBe(403);
    const listed = await api(base, `${T}/invitations/organizations`, { token: admin.accessToken });
    expect(listed.body.items.map((i: { email: string }) => i.email)).not.toContain(
      'contact@org.test',
    );
  });

  it('checks the postcode against its country at the wizard step and in both calls', async () => {
    // The wizard's address step: the same rule as the sandbox (common/postcodes.ts).
    const step = validateForm(addressSchema(ADDRESS_LABELS), { ...ADDRESS, zipCode: 'ABCDE' });
    expect(step.errors).toEqual({ zipCode: ['messages.invalid_zip'] });
    expect(validateForm(addressSchema(ADDRESS_LABELS), ADDRESS).success).toBe(true);

    const wrong = [
      { zipCode: 'ABCDE', country: 'Deutschland' },
      { zipCode: '04109', country: 'Polska' },
      { zipCode: '041', country: 'DE' },
    ];
    const orgToken = await orgInvitation('postcode@org.test');
    const userToken = await invite('postcode@example.test');
    for (const [path, token] of [
      ['create-org-and-user', orgToken],
      ['create-user', userToken],
    ] as const) {
      for (const address of wrong) {
        const refused = await api(base, `${A}/${path}`, { body: registration(token, address) });
        expect(refused.status, `${path} ${JSON.stringify(address)}`).toBe(400);
        expect(refused.body.issues).toEqual([{ path: 'zipCode', code: 'invalid_zip' }]);
      }
      // The invitation stays usable: a Polish postcode in Poland, a free one elsewhere.
      const done = await api(base, `${A}/${path}`, {
        body: registration(token, { zipCode: '00-950', country: 'Polen' }),
      });
      expect(done.status, JSON.stringify(done.body)).toBe(201);
    }
    const free = await api(base, `${A}/create-user`, {
      body: registration(await invite('postcode-uk@example.test'), {
        zipCode: 'SW1A 1AA',
        country: 'United Kingdom',
      }),
    });
    expect(free.status).toBe(201);
  });

  it('refuses at invitation time a contact address that already has an account', async () => {
    const refused = await api(base, `${T}/invitations/organizations`, {
      body: {
        name: 'Org of a known contact',
        slug: 'org-known',
        email: 'ADMIN@demo.test',
        ...ADDRESS,
        roleCodes: ['customer-care'],
        customFields: {},
      },
      token: admin.accessToken,
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'already_registered',
      issues: [{ path: 'email', code: 'already_registered' }],
    });
    await orgInvitation('fresh-contact@org.test');
    const listed = await api(base, `${T}/invitations/organizations`, { token: admin.accessToken });
    // Nothing was kept of the refused one.
    expect(listed.body.items.map((i: { name: string }) => i.name)).not.toContain(
      'Org of a known contact',
    );
    // A re-invitation to such an address is refused the same way.
    const open = listed.body.items.find(
      (i: { email: string }) => i.email === 'fresh-contact@org.test',
    );
    const resent = await api(base, `${T}/invitations/organizations/${open.id}`, {
      method: 'PATCH',
      body: { email: 'admin@demo.test' },
      token: admin.accessToken,
    });
    expect(resent.status).toBe(409);
    expect(resent.body.issues).toEqual([{ path: 'email', code: 'already_registered' }]);
  });

  it('refuses an expired organisation invitation with 403', async () => {
    const token = await orgInvitation('late@org.test');
    await expireToken(kit.db(), 'organization_invitations', token);
    expect((await api(base, `${A}/verify-org-invitation?invitationToken=${token}`)).status).toBe(
      403,
    );
    expect(
      (await api(base, `${A}/create-org-and-user`, { body: registration(token) })).status,
    ).toBe(403);
  });
});

describe('forgot and reset password', () => {
  const EMAIL = 'leon.iwanowski11@demo.test';

  it('answers the same for known, unknown, disabled and malformed addresses', async () => {
    const answers = [];
    for (const email of [EMAIL, 'nobody@example.test', 'eva.fuchs4@demo.test', 'not-an-email']) {
      const res = await api(base, `${A}/forgot-password`, { body: { email } });
      answers.push({ status: res.status, body: res.body, type: res.headers.get('content-type') });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.status).toBe(204);
    const mail = await latestMail(base, EMAIL);
    // Absolute: a mail client opens it (the sandbox's default public address here).
    expect(mail?.link).toMatch(
      /^http:\/\/localhost:3000\/account\/resetpassword\?resetToken=[A-Za-z0-9_-]{43}$/,
    );
    expect(await latestMail(base, 'nobody@example.test')).toBeUndefined();
    expect(await latestMail(base, 'eva.fuchs4@demo.test')).toBeUndefined();
    const bad = await api(base, `${A}/forgot-password`, { body: { email: 42 } });
    expect(bad.status).toBe(400);
  });

  it('resets once, ends every session and refuses replay', async () => {
    const session = await login(base, EMAIL);
    const second = await login(base, EMAIL);
    await api(base, `${A}/forgot-password`, { body: { email: EMAIL } });
    const older = linkParam((await latestMail(base, EMAIL))?.link, 'resetToken');
    await api(base, `${A}/forgot-password`, { body: { email: EMAIL } });
    const token = linkParam((await latestMail(base, EMAIL))?.link, 'resetToken');
    expect(token).not.toBe(older);

    const verify = await api(base, `${A}/verify-reset-password?resetToken=${token}`);
    expect(verify.status).toBe(200);
    expect((await api(base, `${A}/verify-reset-password?resetToken=bogus`)).status).toBe(403);
    expect((await api(base, `${A}/verify-reset-password`)).status).toBe(403);

    const weak = await api(base, `${A}/reset-password`, {
      body: { resetToken: token, newPassword: 'weak' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('invalid_password');
    expect((await api(base, `${A}/reset-password`, { body: { resetToken: token } })).status).toBe(
      400,
    );

    const ok = await api(base, `${A}/reset-password`, {
      body: { resetToken: token, newPassword: NEW_PASSWORD },
    });
    expect(ok.status).toBe(204);
    for (const s of [session, second]) {
      expect((await api(base, `${T}/roles`, { token: s.accessToken })).status).toBe(401);
      const refresh = await api(base, `${A}/refresh-token`, {
        body: { username: EMAIL },
        cookie: s.cookie,
      });
      expect(refresh.status).toBe(401);
    }
    await expect(login(base, EMAIL)).rejects.toThrow();
    const fresh = await login(base, EMAIL, NEW_PASSWORD);
    expect((await api(base, `${T}/general`, { token: fresh.accessToken })).status).toBe(200);

    const replay = await api(base, `${A}/reset-password`, {
      body: { resetToken: token, newPassword: 'Another123' },
    });
    expect(replay.status).toBe(403);
    const olderLink = await api(base, `${A}/reset-password`, {
      body: { resetToken: older, newPassword: 'Another123' },
    });
    expect(olderLink.status).toBe(403);
    await login(base, EMAIL, NEW_PASSWORD);
  });

  it('lets exactly one of several parallel uses of a link through', async () => {
    await api(base, `${A}/forgot-password`, { body: { email: 'manager@demo.test' } });
    const reset = linkParam((await latestMail(base, 'manager@demo.test'))?.link, 'resetToken');
    const resets = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api(base, `${A}/reset-password`, {
          body: { resetToken: reset, newPassword: `Parallel${i}23` },
        }),
      ),
    );
    expect(resets.map((r) => r.status).sort()).toEqual([204, 403, 403, 403, 403]);

    const token = await invite('parallel@example.test');
    const creates = await Promise.all(
      Array.from({ length: 5 }, () => api(base, `${A}/create-user`, { body: registration(token) })),
    );
    expect(creates.map((r) => r.status).sort()).toEqual([201, 403, 403, 403, 403]);
  });

  it('refuses an expired reset link with 403', async () => {
    await api(base, `${A}/forgot-password`, { body: { email: 'care@demo.test' } });
    const token = linkParam((await latestMail(base, 'care@demo.test'))?.link, 'resetToken');
    await expireToken(kit.db(), 'password_reset_tokens', token);
    expect((await api(base, `${A}/verify-reset-password?resetToken=${token}`)).status).toBe(403);
    const res = await api(base, `${A}/reset-password`, {
      body: { resetToken: token, newPassword: NEW_PASSWORD },
    });
    expect(res.status).toBe(403);
    await login(base, 'care@demo.test');
  });
});

describe('outbox', () => {
  it('lists mails newest first without authentication, filtered by recipient', async () => {
    await api(base, `${A}/forgot-password`, { body: { email: 'viewer@demo.test' } });
    await api(base, `${A}/forgot-password`, { body: { email: 'viewer@demo.test' } });
    const res = await api(base, `/sandbox/outbox?to=VIEWER@demo.test`);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(2);
    const [newer, older] = res.body.items;
    expect(newer.id).toBeGreaterThan(older.id);
    expect(newer).toMatchObject({
      to: 'viewer@demo.test',
      subject: 'Passwort zurücksetzen',
      text: expect.stringContaining(newer.link),
      createdAt: expect.any(String),
    });
    const all = await api(base, '/sandbox/outbox');
    expect(all.body.items.length).toBeGreaterThan(2);
    const bad = await api(base, '/sandbox/outbox?to=a&to=b');
    expect(bad.status).toBe(400);
  });
});
