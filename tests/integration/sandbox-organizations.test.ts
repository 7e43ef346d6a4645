import { beforeAll, describe, expect, it } from 'vitest';
import { api, latestMail, linkParam, login } from '#server/sandbox/testing.ts';
import { ORG_ADDRESS } from '#tests/support/organization-address.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox({
  admin: 'admin@demo.test',
  viewer: 'viewer@demo.test',
  noui: 'noui@demo.test',
  nord: 'admin@nordlicht.test',
});
const { admin, viewer, noui, nord } = kit.sessions;
let base: string;

const T = '/tenantservice/v1';
const A = '/authservice/v1';
const ADDRESS = ORG_ADDRESS;

beforeAll(() => {
  base = kit.base;
});

describe('authentication and permissions', () => {
  it.each([
    ['GET', '/organizations'],
    ['GET', '/organizations/1'],
    ['POST', '/organizations'],
    ['PUT', '/organizations/1'],
    ['GET', '/invitations/organizations'],
    ['POST', '/invitations/organizations'],
    ['PATCH', '/invitations/organizations/1'],
    ['DELETE', '/invitations/organizations/1'],
    ['GET', '/custom-schemas'],
    ['GET', '/settings/user?keys=a'],
    ['POST', '/settings/user'],
  ])('%s %s answers 401 without a token', async (method, route) => {
    const res = await api(base, T + route, { method, body: method === 'GET' ? undefined : {} });
    expect(res.status).toBe(401);
  });

  it.each([
    ['GET', '/organizations', undefined],
    ['GET', '/organizations/1', undefined],
    ['POST', '/organizations', { name: 'x', ...ADDRESS }],
    ['PUT', '/organizations/1', ADDRESS],
    ['GET', '/invitations/organizations', undefined],
    ['POST', '/invitations/organizations', { name: 'x', slug: 'x', email: 'x@example.test' }],
    ['PATCH', '/invitations/organizations/1', { email: 'x@example.test' }],
    ['DELETE', '/invitations/organizations/1', undefined],
    ['GET', '/custom-schemas', undefined],
  ])('%s %s answers 403 without the permission', async (method, route, body) => {
    const res = await api(base, T + route, { method, body, token: noui.accessToken });
    expect(res.status).toBe(403);
  });

  it('refuses organisations to a read-only user without organizations.view', async () => {
    expect((await api(base, `${T}/organizations`, { token: viewer.accessToken })).status).toBe(403);
  });
});

describe('organisations', () => {
  it('lists, searches and reads the seeded organisations', async () => {
    const list = await api(base, `${T}/organizations?order=name:ASC`, { token: admin.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThanOrEqual(4);
    expect(list.body.items[0]).toMatchObject({
      id: expect.any(Number),
      code: expect.stringMatching(/^org_/),
      name: expect.any(String),
      street: expect.any(String),
      houseNumber: expect.any(String),
      zipCode: expect.any(String),
      city: expect.any(String),
      country: expect.any(String),
      customFields: expect.any(Object),
    });
    const search = await api(base, `${T}/organizations?search=hamburg`, {
      token: admin.accessToken,
    });
    expect(search.body.items.map((o: { name: string }) => o.name)).toEqual(['Agentur Nord']);
    const child = search.body.items[0];
    const detail = await api(base, `${T}/organizations/${child.id}?expand=parent,users`, {
      token: admin.accessToken,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.organization.parent).toMatchObject({ name: 'Demo Versicherung Zentrale' });
    expect(detail.body.organization.users.length).toBeGreaterThan(0);
    const bad = await api(base, `${T}/organizations/${child.id}?expand=secrets`, {
      token: admin.accessToken,
    });
    expect(bad.status).toBe(400);
    const foreign = await api(base, `${T}/organizations/${child.id}`, { token: nord.accessToken });
    expect(foreign.status).toBe(404);
    expect((await api(base, `${T}/organizations`, { token: nord.accessToken })).body.items).toEqual(
      [],
    );
  });

  it('creates and updates an organisation; the name is read-only', async () => {
    const created = await api(base, `${T}/organizations`, {
      body: {
        name: 'Agentur Mitte',
        email: 'mitte@demo.test',
        ...ADDRESS,
        customFields: { registrationNumber: 'HRB 777', stray: 'dropped' },
      },
      token: admin.accessToken,
    });
    expect(created.status).toBe(201);
    expect(created.body.organization).toMatchObject({
      name: 'Agentur Mitte',
      customFields: { registrationNumber: 'HRB 777' },
    });
    expect(created.body.organization.customFields.stray).toBeUndefined();
    const id = created.body.organization.id;
    const dup = await api(base, `${T}/organizations`, {
      body: { name: 'agentur mitte', ...ADDRESS, customFields: { registrationNumber: 'HRB 1' } },
      token: admin.accessToken,
    });
    expect(dup.status).toBe(409);

    const updated = await api(base, `${T}/organizations/${id}`, {
      method: 'PUT',
      body: {
        name: 'Agentur Mitte',
        ...ADDRESS,
        city: 'Halle',
        customFields: { registrationNumber: 'HRB 778' },
      },
      token: admin.accessToken,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.organization).toMatchObject({ name: 'Agentur Mitte', city: 'Halle' });
    const renamed = await api(base, `${T}/organizations/${id}`, {
      method: 'PUT',
      body: { name: 'Other', ...ADDRESS, customFields: { registrationNumber: 'HRB 778' } },
      token: admin.accessToken,
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.error).toBe('name_read_only');
    // Fields left out keep their values; the address alone is enough.
    const addressOnly = await api(base, `${T}/organizations/${id}`, {
      method: 'PUT',
      body: { ...ADDRESS, zipCode: '06108' },
      token: admin.accessToken,
    });
    expect(addressOnly.status).toBe(200);
    expect(addressOnly.body.organization).toMatchObject({
      name: 'Agentur Mitte',
      email: 'mitte@demo.test',
      zipCode: '06108',
      customFields: { registrationNumber: 'HRB 778' },
    });
    const noAddress = await api(base, `${T}/organizations/${id}`, {
      method: 'PUT',
      body: { email: 'x@demo.test' },
      token: admin.accessToken,
    });
    expect(noAddress.status).toBe(400);
    const self = await api(base, `${T}/organizations/${id}`, {
      method: 'PUT',
      body: { ...ADDRESS, parentId: id },
      token: admin.accessToken,
    });
    expect(self.status).toBe(400);
    const foreign = await api(base, `${T}/organizations/${id}`, {
      method: 'PUT',
      body: { ...ADDRESS, customFields: { registrationNumber: 'HRB 778' } },
      token: nord.accessToken,
    });
    expect(foreign.status).toBe(404);
  });

  it('rejects missing address fields and bad custom fields with 400', async () => {
    const { street: _street, ...noStreet } = ADDRESS;
    for (const body of [
      { name: 'A', ...noStreet, customFields: { registrationNumber: 'HRB 1' } },
      { name: 'B', ...ADDRESS, city: '  ', customFields: { registrationNumber: 'HRB 1' } },
      { name: 'C', ...ADDRESS },
      { name: 'D', ...ADDRESS, customFields: { registrationNumber: 'HRB 1', employees: 'many' } },
      { name: 'E', ...ADDRESS, customFields: { registrationNumber: 'x' } },
      { name: 'F', ...ADDRESS, email: 'nope', customFields: { registrationNumber: 'HRB 1' } },
      { name: 'G', ...ADDRESS, parentId: 999999, customFields: { registrationNumber: 'HRB 1' } },
    ]) {
      const res = await api(base, `${T}/organizations`, { body, token: admin.accessToken });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('postcodes against the country (issue 15 point 5)', () => {
  const create = (name: string, address: Record<string, string>) =>
    api(base, `${T}/organizations`, {
      body: { name, ...ADDRESS, ...address, customFields: { registrationNumber: 'HRB 9' } },
      token: admin.accessToken,
    });

  it('refuses a postcode of the wrong format for DE, PL, AT and CH, in the one error shape', async () => {
    for (const address of [
      { zipCode: 'ABCDE', country: 'Deutschland' },
      { zipCode: '1234', country: 'DE' },
      { zipCode: '00950', country: 'Polska' },
      { zipCode: '00-95', country: 'PL' },
      { zipCode: '10100', country: 'Österreich' },
      { zipCode: '800', country: 'Schweiz' },
    ]) {
      const res = await create(`Postcode wrong ${address.zipCode}`, address);
      expect(res.status, JSON.stringify(address)).toBe(400);
      expect(res.body).toEqual({
        error: 'validation_error',
        message: expect.stringContaining('zipCode'),
        issues: [{ path: 'zipCode', code: 'invalid_zip' }],
      });
    }
  });

  it('takes the right formats, and any postcode of another country', async () => {
    let n = 0;
    for (const address of [
      { zipCode: '04109', country: 'germany' },
      { zipCode: '00-950', country: 'Polen' },
      { zipCode: '1010', country: 'AT' },
      { zipCode: '8001', country: 'Switzerland' },
      { zipCode: 'SW1A 1AA', country: 'United Kingdom' },
    ]) {
      const res = await create(`Postcode right ${Date.now()} ${n++}`, address);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.organization).toMatchObject(address);
    }
  });

  it('checks an edit and an invitation’s proposed address the same way', async () => {
    const created = await create(`Postcode edit ${Date.now()}`, {});
    const id = created.body.organization.id;
    const edit = await api(base, `${T}/organizations/${id}`, {
      method: 'PUT',
      body: { ...ADDRESS, country: 'Polska', zipCode: '04109' },
      token: admin.accessToken,
    });
    expect(edit.status).toBe(400);
    expect(edit.body.issues).toEqual([{ path: 'zipCode', code: 'invalid_zip' }]);
    const read = await api(base, `${T}/organizations/${id}`, { token: admin.accessToken });
    expect(read.body.organization).toMatchObject({ zipCode: '04109', country: 'Deutschland' });

    const invitation = await api(base, `${T}/invitations/organizations`, {
      body: {
        name: `Postcode invite ${Date.now()}`,
        slug: `postcode-invite-${Date.now()}`,
        email: `pc-${Date.now()}@invite.test`,
        zipCode: '123',
        country: 'Deutschland',
        roleCodes: ['show-only'],
      },
      token: admin.accessToken,
    });
    expect(invitation.status).toBe(400);
    expect(invitation.body.issues).toEqual([{ path: 'zipCode', code: 'invalid_zip' }]);
  });
});

describe('organisation invitations', () => {
  it('lists the seeded invitations with roles', async () => {
    const res = await api(base, `${T}/invitations/organizations?expand=roles`, {
      token: admin.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThanOrEqual(2);
    expect(res.body.items[0]).toMatchObject({
      email: expect.any(String),
      name: expect.any(String),
      slug: expect.any(String),
      expiresAt: expect.any(String),
      roles: [expect.objectContaining({ code: 'customer-care' })],
    });
    expect(
      (await api(base, `${T}/invitations/organizations`, { token: nord.accessToken })).body.items,
    ).toEqual([]);
  });

  it('creates, re-invites (old link dead) and deletes an invitation', async () => {
    const created = await api(base, `${T}/invitations/organizations`, {
      body: {
        name: 'Makler Neu GmbH',
        slug: 'makler-neu',
        email: 'first@makler-neu.test',
        ...ADDRESS,
        roleCodes: ['show-only'],
        customFields: { registrationNumber: 'HRB 4242' },
      },
      token: admin.accessToken,
    });
    expect(created.status).toBe(201);
    expect(created.body.invitation).toMatchObject({
      name: 'Makler Neu GmbH',
      roles: [expect.objectContaining({ code: 'show-only' })],
    });
    const id = created.body.invitation.id;
    const firstMail = await latestMail(base, 'first@makler-neu.test');
    expect(firstMail?.link).toMatch(
      /^http:\/\/localhost:3000\/organization\/registration\?token=[A-Za-z0-9_-]{43}$/,
    );
    const oldToken = linkParam(firstMail?.link, 'token');
    expect((await api(base, `${A}/verify-org-invitation?invitationToken=${oldToken}`)).status).toBe(
      200,
    );

    const foreign = await api(base, `${T}/invitations/organizations/${id}`, {
      method: 'PATCH',
      body: { email: 'x@example.test' },
      token: nord.accessToken,
    });
    expect(foreign.status).toBe(404);
    const badPatch = await api(base, `${T}/invitations/organizations/${id}`, {
      method: 'PATCH',
      body: { email: 'not-mail' },
      token: admin.accessToken,
    });
    expect(badPatch.status).toBe(400);
    const reinvite = await api(base, `${T}/invitations/organizations/${id}`, {
      method: 'PATCH',
      body: { email: 'second@makler-neu.test' },
      token: admin.accessToken,
    });
    expect(reinvite.status).toBe(200);
    expect(reinvite.body.invitation.email).toBe('second@makler-neu.test');
    const newToken = linkParam((await latestMail(base, 'second@makler-neu.test'))?.link, 'token');
    expect(newToken).not.toBe(oldToken);
    expect((await api(base, `${A}/verify-org-invitation?invitationToken=${oldToken}`)).status).toBe(
      403,
    );
    expect((await api(base, `${A}/verify-org-invitation?invitationToken=${newToken}`)).status).toBe(
      200,
    );

    const foreignDelete = await api(base, `${T}/invitations/organizations/${id}`, {
      method: 'DELETE',
      token: nord.accessToken,
    });
    expect(foreignDelete.status).toBe(404);
    const del = await api(base, `${T}/invitations/organizations/${id}`, {
      method: 'DELETE',
      token: admin.accessToken,
    });
    expect(del.status).toBe(204);
    expect((await api(base, `${A}/verify-org-invitation?invitationToken=${newToken}`)).status).toBe(
      403,
    );
  });

  it('rejects bad invitation bodies with 400', async () => {
    const ok = { name: 'X GmbH', slug: 'x-gmbh', email: 'x@x-gmbh.test' };
    for (const body of [
      {},
      { ...ok, slug: 'Not A Slug' },
      { ...ok, email: 'nope' },
      { ...ok, roleCodes: ['nope'] },
      { ...ok, expiresAt: '2000-01-01T00:00:00Z' },
      { ...ok, expiresAt: 'tomorrow' },
      { ...ok, parentOrganizationId: 999999 },
    ]) {
      const res = await api(base, `${T}/invitations/organizations`, {
        body,
        token: admin.accessToken,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('checks proposed custom values against the schema, without requiring them', async () => {
    const ok = { name: 'Z GmbH', slug: 'z-gmbh', email: 'z@z-gmbh.test' };
    const without = await api(base, `${T}/invitations/organizations`, {
      body: ok,
      token: admin.accessToken,
    });
    expect(without.status).toBe(201);
    expect(without.body.invitation.customFields).toEqual({});

    // An open invitation holds its name: the second one has a name of its own.
    const kept = await api(base, `${T}/invitations/organizations`, {
      body: { ...ok, name: 'Z2 GmbH', customFields: { employees: 12, unknownKey: 'dropped' } },
      token: admin.accessToken,
    });
    expect(kept.status).toBe(201);
    expect(kept.body.invitation.customFields).toEqual({ employees: 12 });

    for (const customFields of [
      { registrationNumber: 'HR' },
      { employees: 0 },
      { employees: 'many' },
      { foundedOn: 'not a date' },
    ]) {
      const res = await api(base, `${T}/invitations/organizations`, {
        body: { ...ok, customFields },
        token: admin.accessToken,
      });
      expect(res.status, JSON.stringify(customFields)).toBe(400);
      expect(res.body.error).toBe('validation_error');
    }

    // Another tenant's schema is not this one's: Nordlicht has none, so values are dropped.
    const foreign = await api(base, `${T}/invitations/organizations`, {
      body: { ...ok, customFields: { registrationNumber: 'HR' } },
      token: nord.accessToken,
    });
    expect(foreign.status).toBe(201);
    expect(foreign.body.invitation.customFields).toEqual({});
  });

  it('refuses an invitation for a name an organisation or an open invitation has, naming the field', async () => {
    const seeded = await api(base, `${T}/organizations?limit=1`, { token: admin.accessToken });
    const existing = seeded.body.items[0].name as string;
    const body = { slug: 'dupe', email: 'dupe@dupe.test', ...ADDRESS };
    for (const name of [existing, existing.toUpperCase()]) {
      const taken = await api(base, `${T}/invitations/organizations`, {
        body: { ...body, name },
        token: admin.accessToken,
      });
      expect(taken.status, name).toBe(409);
      expect(taken.body).toMatchObject({
        error: 'organization_name_taken',
        issues: [{ path: 'name', code: 'organization_name_taken' }],
      });
    }
    expect(await latestMail(base, 'dupe@dupe.test')).toBeUndefined();

    const first = await api(base, `${T}/invitations/organizations`, {
      body: { ...body, name: 'Doppelt GmbH' },
      token: admin.accessToken,
    });
    expect(first.status).toBe(201);
    const second = await api(base, `${T}/invitations/organizations`, {
      body: { ...body, name: 'doppelt gmbh', email: 'other@dupe.test' },
      token: admin.accessToken,
    });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      error: 'organization_name_invited',
      issues: [{ path: 'name', code: 'organization_name_invited' }],
    });
    // Withdrawn, the invitation frees its name.
    const del = await api(base, `${T}/invitations/organizations/${first.body.invitation.id}`, {
      method: 'DELETE',
      token: admin.accessToken,
    });
    expect(del.status).toBe(204);
    const again = await api(base, `${T}/invitations/organizations`, {
      body: { ...body, name: 'Doppelt GmbH' },
      token: admin.accessToken,
    });
    expect(again.status).toBe(201);

    // Nor is an organisation created directly under the name of an open invitation.
    const direct = await api(base, `${T}/organizations`, {
      body: {
        name: 'DOPPELT GmbH',
        email: 'direct@dupe.test',
        ...ADDRESS,
        customFields: { registrationNumber: 'HRB 5' },
      },
      token: admin.accessToken,
    });
    expect(direct.status).toBe(409);
    expect(direct.body).toMatchObject({
      error: 'organization_name_invited',
      issues: [{ path: 'name', code: 'organization_name_invited' }],
    });
  });

  it('e-mails the invitation in the tenant’s language, with an absolute link', async () => {
    const body = { slug: 'sprache', ...ADDRESS };
    const german = await api(base, `${T}/invitations/organizations`, {
      body: { ...body, name: 'Sprache GmbH', email: 'sprache@sprache.test' },
      token: nord.accessToken,
    });
    expect(german.status).toBe(201);
    const mail = await latestMail(base, 'sprache@sprache.test');
    expect(mail?.subject).toBe('Registrieren Sie Sprache GmbH');
    expect(mail?.link).toMatch(
      /^http:\/\/localhost:3000\/organization\/registration\?token=[A-Za-z0-9_-]{43}$/,
    );
    // The workspace's template (issue 19) inside its standard layout, signed with its name.
    expect(mail?.text).toBe(
      'Sie wurden eingeladen, die Organisation Sprache GmbH zu registrieren.\n\n' +
        `${mail?.link}\n\n-- \nNordlicht Makler GmbH`,
    );

    // The same workspace speaking Polish, then English: its e-mails follow.
    const db = kit.db();
    const setLanguage = (language: string) =>
      db.query(
        `UPDATE general_settings SET language = $1
          WHERE tenant_id = (SELECT id FROM tenants WHERE slug = 'nordlicht')`,
        [language],
      );
    try {
      await setLanguage('pl');
      await api(base, `${T}/users/invites/batch`, {
        body: { emails: ['jezyk@sprache.test'] },
        token: nord.accessToken,
      });
      const polish = await latestMail(base, 'jezyk@sprache.test');
      expect(polish?.subject).toBe('Otrzymano zaproszenie');
      expect(polish?.text).toContain(`Dokończ rejestrację w ciągu 7 dni.\n\n${polish?.link}`);
      expect(polish?.link).toMatch(/^http:\/\/localhost:3000\/registration\?token=/);
      await setLanguage('en');
      await api(base, `${A}/forgot-password`, { body: { email: 'admin@nordlicht.test' } });
      const english = await latestMail(base, 'admin@nordlicht.test');
      expect(english?.subject).toBe('Reset your password');
      expect(english?.link).toMatch(
        /^http:\/\/localhost:3000\/account\/resetpassword\?resetToken=/,
      );
    } finally {
      await setLanguage('de');
    }
  });

  it('refuses invitations with roles the caller lacks', async () => {
    const role = await api(base, `${T}/roles`, {
      body: {
        code: 'org-manager',
        label: 'Organisation manager',
        permissions: ['tenant-management.organizations.*', 'tenant-management.settings.view'],
      },
      token: admin.accessToken,
    });
    const users = await api(base, `${T}/users?filter=email=klara.bauer10@demo.test`, {
      token: admin.accessToken,
    });
    await api(base, `${T}/users/${users.body.items[0].id}/assign-roles`, {
      body: { roleIds: [role.body.role.id] },
      token: admin.accessToken,
    });
    const manager = await login(base, 'klara.bauer10@demo.test');
    const res = await api(base, `${T}/invitations/organizations`, {
      body: { name: 'Y GmbH', slug: 'y', email: 'y@y.test', roleCodes: ['admin'] },
      token: manager.accessToken,
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('escalation');
    const without = await api(base, `${T}/invitations/organizations`, {
      body: { name: 'Y GmbH', slug: 'y', email: 'y@y.test', roleCodes: ['org-manager'] },
      token: manager.accessToken,
    });
    expect(without.status).toBe(201);
  });
});

describe('custom schemas', () => {
  it('lists the schemas of the tenant, filtered by entity', async () => {
    const all = await api(base, `${T}/custom-schemas`, { token: viewer.accessToken });
    expect(all.status).toBe(200);
    // The organisation schema, and the claim schema the claims seed adds (issue 5).
    expect(all.body.items).toEqual([
      expect.objectContaining({
        entity: 'organization',
        fields: expect.arrayContaining([
          expect.objectContaining({ name: 'registrationNumber', type: 'string', isRequired: true }),
        ]),
      }),
      expect.objectContaining({ entity: 'claim' }),
    ]);
    const claims = await api(base, `${T}/custom-schemas?filter=entity=claim`, {
      token: viewer.accessToken,
    });
    expect(claims.body.items.map((s: { entity: string }) => s.entity)).toEqual(['claim']);
    const accounts = await api(base, `${T}/custom-schemas?filter=entity=account`, {
      token: viewer.accessToken,
    });
    expect(accounts.body.items).toEqual([]);
    const bad = await api(base, `${T}/custom-schemas?filter=entity=spaceship`, {
      token: viewer.accessToken,
    });
    expect(bad.status).toBe(400);
    expect(
      (await api(base, `${T}/custom-schemas`, { token: nord.accessToken })).body.items,
    ).toEqual([]);
  });
});

describe('user settings', () => {
  it('stores settings per user, in the shape of the tenant settings', async () => {
    const write = await api(base, `${T}/settings/user`, {
      body: { key: 'language', value: 'pl' },
      token: viewer.accessToken,
    });
    expect(write.status).toBe(200);
    expect(write.body).toEqual({ key: 'language', value: 'pl', type: 'string' });
    const read = await api(base, `${T}/settings/user?keys=language,missing`, {
      token: viewer.accessToken,
    });
    expect(read.body.values).toEqual([
      { key: 'language', value: 'pl', type: 'string' },
      { key: 'missing', value: null, type: 'null' },
    ]);
    // Another user of the same tenant, and a user of another tenant, see their own values only.
    for (const other of [admin, nord]) {
      const theirs = await api(base, `${T}/settings/user?keys=language`, {
        token: other.accessToken,
      });
      expect(theirs.body.values).toEqual([{ key: 'language', value: null, type: 'null' }]);
    }
  });

  it('rejects bad keys and values with 400', async () => {
    expect((await api(base, `${T}/settings/user`, { token: viewer.accessToken })).status).toBe(400);
    expect(
      (
        await api(base, `${T}/settings/user?keys=${encodeURIComponent('a b')}`, {
          token: viewer.accessToken,
        })
      ).status,
    ).toBe(400);
    const bad = await api(base, `${T}/settings/user`, {
      body: { key: '', value: 1 },
      token: viewer.accessToken,
    });
    expect(bad.status).toBe(400);
  });
});
