import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { api, login, type Session } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox({
  admin: 'admin@demo.test',
  viewer: 'viewer@demo.test',
  care: 'care@demo.test',
  noui: 'noui@demo.test',
  nord: 'admin@nordlicht.test',
});
const { admin, viewer, care, noui, nord } = kit.sessions;
let base: string;

const T = '/tenantservice/v1';

beforeAll(() => {
  base = kit.base;
});

const tenantIdOf = (s: Session): number => decodeJwt(s.accessToken).tenant_id as number;

describe('authentication on every tenant route', () => {
  it.each([
    ['GET', '/tenants/1'],
    ['GET', '/general'],
    ['PUT', '/general'],
    ['GET', '/branding'],
    ['PUT', '/branding'],
    ['GET', '/settings/tenant?keys=a'],
    ['POST', '/settings/tenant'],
    ['GET', '/users'],
    ['GET', '/users/1'],
    ['POST', '/users/1/disable'],
    ['POST', '/users/1/enable'],
    ['GET', '/roles'],
  ])('%s %s answers 401 without or with a bad token', async (method, route) => {
    const none = await api(base, T + route, { method });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('unauthorized');
    const forged = admin.accessToken.slice(0, -4) + 'AAAA';
    expect((await api(base, T + route, { method, token: forged })).status).toBe(401);
  });
});

describe('GET /tenants/{id}', () => {
  it('returns the caller tenant', async () => {
    const res = await api(base, `${T}/tenants/${tenantIdOf(admin)}`, { token: viewer.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tenant: { id: tenantIdOf(admin), name: 'Demo Versicherung AG', slug: 'demo' },
    });
  });

  it('hides other tenants behind 404 and needs tenants.view', async () => {
    expect(
      (await api(base, `${T}/tenants/${tenantIdOf(nord)}`, { token: admin.accessToken })).status,
    ).toBe(404);
    expect((await api(base, `${T}/tenants/abc`, { token: admin.accessToken })).status).toBe(404);
    const forbidden = await api(base, `${T}/tenants/${tenantIdOf(noui)}`, {
      token: noui.accessToken,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('forbidden');
  });
});

describe('general settings', () => {
  it('reads the seeded values per tenant', async () => {
    const demo = await api(base, `${T}/general`, { token: care.accessToken });
    expect(demo.status).toBe(200);
    expect(demo.body).toEqual({
      general: {
        time_zone: 'Europe/Berlin',
        language: 'de',
        currency: 'EUR',
        format_hours: 'hh:mm:ss',
        format_dates: 'DD.MM.YYYY',
        version: expect.any(Number),
        updatedAt: expect.any(String),
        updatedBy: expect.any(String),
      },
    });
    const other = await api(base, `${T}/general`, { token: nord.accessToken });
    expect(other.body.general).toMatchObject({
      time_zone: 'Europe/Berlin',
      language: 'de',
      currency: 'EUR',
    });
    expect((await api(base, `${T}/general`, { token: noui.accessToken })).status).toBe(403);
  });

  it('updates only the caller tenant, needs settings.update and a valid body', async () => {
    const fields = {
      time_zone: 'Europe/Oslo',
      language: 'en',
      currency: 'NOK',
      format_hours: 'HH:mm',
      format_dates: 'YYYY-MM-DD',
    };
    // A save is based on the version read (versioned since issue 13).
    const { version } = (await api(base, `${T}/general`, { token: nord.accessToken })).body.general;
    const body = { ...fields, version };
    const res = await api(base, `${T}/general`, { method: 'PUT', body, token: nord.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.general).toMatchObject({ ...fields, version: version + 1 });
    expect(
      (await api(base, `${T}/general`, { token: nord.accessToken })).body.general,
    ).toMatchObject(fields);
    expect(
      (await api(base, `${T}/general`, { token: admin.accessToken })).body.general.currency,
    ).toBe('EUR');

    expect(
      (await api(base, `${T}/general`, { method: 'PUT', body, token: viewer.accessToken })).status,
    ).toBe(403);
    const bad = await api(base, `${T}/general`, {
      method: 'PUT',
      body: { ...body, currency: 'euro' },
      token: nord.accessToken,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_error');
    expect(
      (
        await api(base, `${T}/general`, {
          method: 'PUT',
          body: { ...body, time_zone: 'Mars/Base' },
          token: nord.accessToken,
        })
      ).status,
    ).toBe(400);
  });
});

describe('branding', () => {
  it('reads the seeded branding', async () => {
    const res = await api(base, `${T}/branding`, { token: viewer.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.branding).toEqual({
      tenant_id: tenantIdOf(viewer),
      name: 'Demo Versicherung AG',
      address: null,
      logo: null,
      main_color: '#1dc4e9',
      version: expect.any(Number),
      updatedAt: expect.any(String),
      updatedBy: expect.any(String),
    });
    expect(
      (await api(base, `${T}/branding`, { token: nord.accessToken })).body.branding.main_color,
    ).toBe('#0b5394');
    expect((await api(base, `${T}/branding`, { token: noui.accessToken })).status).toBe(403);
  });

  it('ignores a tenant_id in the body and validates the colour', async () => {
    const { version } = (await api(base, `${T}/branding`, { token: nord.accessToken })).body
      .branding;
    const body = {
      version,
      tenant_id: tenantIdOf(admin),
      name: 'Nordlicht Neu',
      address: 'Hafenstr. 1',
      logo: null,
      main_color: '#112233',
    };
    const res = await api(base, `${T}/branding`, { method: 'PUT', body, token: nord.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.branding).toMatchObject({
      tenant_id: tenantIdOf(nord),
      name: 'Nordlicht Neu',
      main_color: '#112233',
    });
    expect(
      (await api(base, `${T}/branding`, { token: admin.accessToken })).body.branding.name,
    ).toBe('Demo Versicherung AG');
    expect(
      (
        await api(base, `${T}/branding`, {
          method: 'PUT',
          body: { ...body, main_color: 'red' },
          token: nord.accessToken,
        })
      ).status,
    ).toBe(400);
    expect(
      (await api(base, `${T}/branding`, { method: 'PUT', body, token: care.accessToken })).status,
    ).toBe(403);
  });
});

describe('tenant settings', () => {
  it('answers values in the order of the keys, null for unset keys', async () => {
    const res = await api(
      base,
      `${T}/settings/tenant?keys=brokermanagement_version,unset,chatWidget`,
      { token: viewer.accessToken },
    );
    expect(res.status).toBe(200);
    // Each with its save's version and stamp (0 and null for a key never saved).
    expect(res.body.values).toEqual([
      {
        key: 'brokermanagement_version',
        value: 'v2',
        type: 'string',
        version: expect.any(Number),
        updatedAt: expect.any(String),
        updatedBy: 'system',
      },
      { key: 'unset', value: null, type: 'null', version: 0, updatedAt: null, updatedBy: null },
      {
        key: 'chatWidget',
        value: { enabled: false, webhookUrl: '', version: '' },
        type: 'object',
        version: expect.any(Number),
        updatedAt: expect.any(String),
        updatedBy: 'system',
      },
    ]);
  });

  it('writes per tenant and validates', async () => {
    const write = await api(base, `${T}/settings/tenant`, {
      body: { key: 'dashboardAlert', value: 'Wartung heute Abend' },
      token: admin.accessToken,
    });
    expect(write.status).toBe(200);
    expect(write.body).toEqual({
      key: 'dashboardAlert',
      value: 'Wartung heute Abend',
      type: 'string',
      version: expect.any(Number),
      updatedAt: expect.any(String),
      updatedBy: expect.stringMatching(/^usr_/),
    });
    const mine = await api(base, `${T}/settings/tenant?keys=dashboardAlert`, {
      token: care.accessToken,
    });
    expect(mine.body.values[0].value).toBe('Wartung heute Abend');
    const theirs = await api(base, `${T}/settings/tenant?keys=dashboardAlert`, {
      token: nord.accessToken,
    });
    expect(theirs.body.values[0].value).toBeNull();

    expect(
      (await api(base, `${T}/settings/tenant`, { body: { value: 1 }, token: admin.accessToken }))
        .status,
    ).toBe(400);
    expect(
      (
        await api(base, `${T}/settings/tenant`, {
          body: { key: 'bad key!', value: 1 },
          token: admin.accessToken,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await api(base, `${T}/settings/tenant`, {
          body: { key: 'x', value: 1 },
          token: viewer.accessToken,
        })
      ).status,
    ).toBe(403);
    expect((await api(base, `${T}/settings/tenant`, { token: admin.accessToken })).status).toBe(
      400,
    );
    expect(
      (await api(base, `${T}/settings/tenant?keys=a`, { token: noui.accessToken })).status,
    ).toBe(403);
  });
});

describe('GET /users', () => {
  it('pages with nextPageToken until a short page', async () => {
    const first = await api(base, `${T}/users?pageSize=5`, { token: viewer.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(5);
    expect(first.body.nextPageToken).toBe('2');
    expect(first.body.items[0]).toMatchObject({
      code: expect.stringMatching(/^usr_/),
      status: 'active',
      mfaAuthentication: false,
    });
    expect(first.body.items[0].roles).toBeUndefined();
    const seen = new Set<number>();
    let token: string | null = '1';
    while (token) {
      const page: { body: { items: { id: number }[]; nextPageToken: string | null } } = await api(
        base,
        `${T}/users?pageSize=5&pageToken=${token}`,
        { token: viewer.accessToken },
      );
      for (const u of page.body.items) seen.add(u.id);
      token = page.body.nextPageToken;
    }
    // 19 users of the first seed (the finance user of issue 18 too) and 44 of the administration seed.
    expect(seen.size).toBe(63);
    const defaults = await api(base, `${T}/users`, { token: viewer.accessToken });
    expect(defaults.body.items).toHaveLength(30);
    expect(defaults.body.nextPageToken).toBe('2');
    const capped = await api(base, `${T}/users?pageSize=500`, { token: viewer.accessToken });
    expect(capped.status).toBe(200);
  });

  it('filters, searches, orders and expands roles', async () => {
    const byEmail = await api(
      base,
      `${T}/users?filter=${encodeURIComponent('email=care@demo.test')}&expand=roles`,
      { token: viewer.accessToken },
    );
    expect(byEmail.body.items).toHaveLength(1);
    expect(byEmail.body.items[0].roles).toEqual([
      expect.objectContaining({
        code: 'customer-care',
        permissions: expect.arrayContaining([
          expect.objectContaining({
            code: 'claim-management.claims.*',
            module: 'claim-management',
            entity: 'claims',
            action: '*',
          }),
        ]),
      }),
    ]);
    const code = byEmail.body.items[0].code;
    const both = await api(
      base,
      `${T}/users?filter=${encodeURIComponent(`code=${code}&status=active`)}`,
      { token: viewer.accessToken },
    );
    expect(both.body.items.map((u: { email: string }) => u.email)).toEqual(['care@demo.test']);

    const search = await api(base, `${T}/users?search=schulz`, { token: viewer.accessToken });
    expect(search.body.items.map((u: { email: string }) => u.email)).toEqual([
      'lukas.schulz@demo.test',
    ]);
    const fullName = await api(base, `${T}/users?search=${encodeURIComponent('Clara Care')}`, {
      token: viewer.accessToken,
    });
    expect(fullName.body.items).toHaveLength(1);
    const wildcard = await api(base, `${T}/users?search=%25`, { token: viewer.accessToken });
    expect(wildcard.body.items).toHaveLength(0);

    const ordered = await api(base, `${T}/users?order=lastName:DESC&pageSize=5`, {
      token: viewer.accessToken,
    });
    const lastNames = ordered.body.items.map((u: { lastName: string }) => u.lastName);
    expect(lastNames[0]).toBe('Zimmermann');
    expect(lastNames).toEqual([...lastNames].sort().reverse());
    const byEmailAsc = await api(base, `${T}/users?order=email:ASC&pageSize=1`, {
      token: viewer.accessToken,
    });
    expect(byEmailAsc.body.items[0].email).toBe('admin@demo.test');
  });

  it('never lists another tenant users', async () => {
    const res = await api(
      base,
      `${T}/users?filter=${encodeURIComponent('email=admin@nordlicht.test')}`,
      { token: admin.accessToken },
    );
    expect(res.body.items).toEqual([]);
    const theirs = await api(base, `${T}/users`, { token: nord.accessToken });
    expect(theirs.body.items.map((u: { email: string }) => u.email)).toEqual([
      'admin@nordlicht.test',
    ]);
  });

  it('rejects bad list parameters with 400 and callers without users.view with 403', async () => {
    for (const query of [
      'pageSize=0',
      'pageSize=abc',
      'pageToken=0',
      'filter=password%3Dx',
      'filter=status%3Dsleeping',
      'order=password:ASC',
      'expand=secrets',
      'filter=id%3Dabc',
    ]) {
      const res = await api(base, `${T}/users?${query}`, { token: admin.accessToken });
      expect(res.status, query).toBe(400);
    }
    expect((await api(base, `${T}/users`, { token: care.accessToken })).status).toBe(403);
  });
});

describe('GET /users/{id}', () => {
  it('returns one user with roles, by id or code', async () => {
    const list = await api(
      base,
      `${T}/users?filter=${encodeURIComponent('email=manager@demo.test')}`,
      { token: admin.accessToken },
    );
    const { id, code } = list.body.items[0];
    const res = await api(base, `${T}/users/${id}?expand=roles`, { token: viewer.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id,
      code,
      email: 'manager@demo.test',
      firstName: 'Max',
      lastName: 'Manager',
    });
    expect(res.body.user.roles.map((r: { code: string }) => r.code)).toEqual(['product-manager']);
    expect(
      (await api(base, `${T}/users/${code}`, { token: viewer.accessToken })).body.user.id,
    ).toBe(id);
    expect(
      (await api(base, `${T}/users/${id}?expand=nope`, { token: viewer.accessToken })).status,
    ).toBe(400);
    expect((await api(base, `${T}/users/${id}`, { token: care.accessToken })).status).toBe(403);
  });

  it('answers 404 for another tenant user and for unknown ids', async () => {
    const nordUser = (await api(base, `${T}/users`, { token: nord.accessToken })).body.items[0];
    expect(
      (await api(base, `${T}/users/${nordUser.id}`, { token: admin.accessToken })).status,
    ).toBe(404);
    expect(
      (await api(base, `${T}/users/${nordUser.code}`, { token: admin.accessToken })).status,
    ).toBe(404);
    expect((await api(base, `${T}/users/999999`, { token: admin.accessToken })).status).toBe(404);
  });
});

describe('POST /users/{id}/enable|disable', () => {
  it('disables and enables a user of the tenant', async () => {
    const list = await api(
      base,
      `${T}/users?filter=${encodeURIComponent('email=felix.wagner@demo.test')}`,
      { token: admin.accessToken },
    );
    const id = list.body.items[0].id;
    const felix = await login(base, 'felix.wagner@demo.test');
    const off = await api(base, `${T}/users/${id}/disable`, {
      method: 'POST',
      token: admin.accessToken,
    });
    expect(off.status).toBe(200);
    expect(off.body.user).toMatchObject({ id, status: 'disabled' });
    const refresh = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'felix.wagner@demo.test' },
      cookie: felix.cookie,
    });
    // Disabled says so (the BFF tells the user their account is disabled, issue 16 defect 6).
    expect(refresh.status).toBe(403);
    expect(refresh.body.error).toBe('user_disabled');
    const on = await api(base, `${T}/users/${id}/enable`, {
      method: 'POST',
      token: admin.accessToken,
    });
    expect(on.body.user.status).toBe('active');
    // Revoked sessions stay revoked after re-enabling: the user signs in again.
    expect(
      (
        await api(base, '/authservice/v1/refresh-token', {
          body: { username: 'felix.wagner@demo.test' },
          cookie: felix.cookie,
        })
      ).status,
    ).toBe(401);
    await login(base, 'felix.wagner@demo.test');
  });

  it('needs users.update, refuses self-disable and another tenant user', async () => {
    const list = await api(
      base,
      `${T}/users?filter=${encodeURIComponent('email=care@demo.test')}`,
      { token: admin.accessToken },
    );
    expect(
      (
        await api(base, `${T}/users/${list.body.items[0].id}/disable`, {
          method: 'POST',
          token: viewer.accessToken,
        })
      ).status,
    ).toBe(403);
    const me = await api(base, `${T}/users?filter=${encodeURIComponent('email=admin@demo.test')}`, {
      token: admin.accessToken,
    });
    const self = await api(base, `${T}/users/${me.body.items[0].id}/disable`, {
      method: 'POST',
      token: admin.accessToken,
    });
    expect(self.status).toBe(400);
    const nordUser = (await api(base, `${T}/users`, { token: nord.accessToken })).body.items[0];
    expect(
      (
        await api(base, `${T}/users/${nordUser.id}/disable`, {
          method: 'POST',
          token: admin.accessToken,
        })
      ).status,
    ).toBe(404);
    expect(
      (await api(base, `${T}/users/${nordUser.id}`, { token: nord.accessToken })).body.user.status,
    ).toBe('active');
  });
});

describe('GET /roles', () => {
  it('lists the tenant roles with permissions', async () => {
    const res = await api(base, `${T}/roles?pageSize=50`, { token: viewer.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: { code: string }) => r.code)).toEqual([
      'admin',
      'product-manager',
      'customer-care',
      'finance',
      'show-only',
      'noui',
    ]);
    expect(res.body.nextPageToken).toBeNull();
    const showOnly = res.body.items.find((r: { code: string }) => r.code === 'show-only');
    expect(showOnly.permissions.map((p: { code: string }) => p.code)).toContain('ui.eis.view');
    const nordRoles = await api(base, `${T}/roles`, { token: nord.accessToken });
    expect(nordRoles.body.items.map((r: { code: string }) => r.code)).toEqual([
      'admin',
      'show-only',
    ]);
    const paged = await api(base, `${T}/roles?pageSize=2&pageToken=3`, {
      token: viewer.accessToken,
    });
    expect(paged.body.items.map((r: { code: string }) => r.code)).toEqual(['show-only', 'noui']);
    expect(paged.body.nextPageToken).toBeNull();
  });

  it('needs identity-management.roles.view and valid parameters', async () => {
    expect((await api(base, `${T}/roles`, { token: care.accessToken })).status).toBe(403);
    expect(
      (await api(base, `${T}/roles?order=permissions:ASC`, { token: admin.accessToken })).status,
    ).toBe(400);
  });
});
