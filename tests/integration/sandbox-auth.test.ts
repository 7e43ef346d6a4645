import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { PASSWORD, api, idpCode, login } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox();
let base: string;

beforeAll(() => {
  base = kit.base;
});

describe('health', () => {
  it('answers ok on every service prefix', async () => {
    for (const route of [
      '/authservice/health',
      '/tenantservice/v1/health',
      '/notificationservice/health',
    ]) {
      const res = await api(base, route);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });

  it('answers 404 JSON for an unknown route', async () => {
    const res = await api(base, '/nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });
});

describe('POST /authservice/v1/login', () => {
  it('signs in with a token, comma-separated permissions and an HttpOnly refresh cookie', async () => {
    const res = await api(base, '/authservice/v1/login', {
      body: { username: 'care@demo.test', password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.permissions.split(',')).toContain('claim-management.claims.*');
    const setCookie = res.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(
      /refreshToken=[^;]+; HttpOnly; Path=\/authservice\/v1; SameSite=Strict/,
    );
    const claims = decodeJwt(res.body.accessToken);
    expect(claims).toMatchObject({
      email: 'care@demo.test',
      given_name: 'Clara',
      family_name: 'Care',
      tenant_slug: 'demo',
      tenant_name: 'Demo Versicherung AG',
      role: 'customer-care',
      tier: 'standard',
    });
    expect(typeof claims.sub).toBe('string');
    expect(typeof claims.tenant_id).toBe('number');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is case-insensitive on the email', async () => {
    const res = await api(base, '/authservice/v1/login', {
      body: { username: 'Admin@Demo.Test', password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toBe('*.*.*');
  });

  it('gives the same 401 for an unknown user and a wrong password, also of a disabled user', async () => {
    const admin = await login(base, 'admin@demo.test');
    const users = await api(
      base,
      '/tenantservice/v1/users?filter=email%3Dmia.schneider%40demo.test',
      {
        token: admin.accessToken,
      },
    );
    const mia = users.body.items[0];
    expect(
      (
        await api(base, `/tenantservice/v1/users/${mia.id}/disable`, {
          method: 'POST',
          token: admin.accessToken,
        })
      ).status,
    ).toBe(200);

    const answers = await Promise.all(
      [
        { username: 'ghost@demo.test', password: PASSWORD },
        { username: 'care@demo.test', password: 'Wrong1234!' },
        { username: 'mia.schneider@demo.test', password: 'Wrong1234!' },
      ].map((body) => api(base, '/authservice/v1/login', { body })),
    );
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_credentials', message: expect.any(String) });
      expect(res.cookie).toBeNull();
    }
    // Only the right password learns that the account is disabled (issue 16): no session either.
    const disabled = await api(base, '/authservice/v1/login', {
      body: { username: 'mia.schneider@demo.test', password: PASSWORD },
    });
    expect(disabled.status).toBe(403);
    expect(disabled.body).toEqual({ error: 'user_disabled', message: expect.any(String) });
    expect(disabled.cookie).toBeNull();
    await api(base, `/tenantservice/v1/users/${mia.id}/enable`, {
      method: 'POST',
      token: admin.accessToken,
    });
  });

  it('rejects bad input with 400', async () => {
    expect((await api(base, '/authservice/v1/login', { body: { username: 'x' } })).status).toBe(
      400,
    );
    expect(
      (await api(base, '/authservice/v1/login', { body: { username: 1, password: 2 } })).status,
    ).toBe(400);
    const malformed = await api(base, '/authservice/v1/login', { rawBody: '{"username":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('invalid_json');
    expect(JSON.stringify(malformed.body)).not.toMatch(/at .*\.js/);
  });

  it('issues a token to an API-only user; the UI gate is the BFF', async () => {
    const session = await login(base, 'noui@demo.test');
    expect(session.permissions).toBe('policy-management.policies.view');
  });
});

describe('refresh and logout', () => {
  it('rotates the cookie and rejects the old one', async () => {
    const session = await login(base, 'viewer@demo.test');
    const first = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'viewer@demo.test' },
      cookie: session.cookie,
    });
    expect(first.status).toBe(200);
    expect(first.body.accessToken).toBeTruthy();
    expect(first.body.permissions).toContain('tenant-management.users.view');
    expect(first.cookie).toBeTruthy();
    expect(first.cookie).not.toBe(session.cookie);

    const replay = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'viewer@demo.test' },
      cookie: session.cookie,
    });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('invalid_refresh_token');

    const second = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'viewer@demo.test' },
      cookie: first.cookie,
    });
    expect(second.status).toBe(200);
  });

  it('lets exactly one of two concurrent refreshes with the same cookie win', async () => {
    const session = await login(base, 'viewer@demo.test');
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        api(base, '/authservice/v1/refresh-token', {
          body: { username: 'viewer@demo.test' },
          cookie: session.cookie,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it('answers 401 without a cookie, with an unknown cookie or for another username', async () => {
    const session = await login(base, 'viewer@demo.test');
    for (const [cookie, username] of [
      [null, 'viewer@demo.test'],
      ['refreshToken=bogus', 'viewer@demo.test'],
      [session.cookie, 'admin@demo.test'],
    ] as const) {
      const res = await api(base, '/authservice/v1/refresh-token', { body: { username }, cookie });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_refresh_token');
    }
    expect(
      (await api(base, '/authservice/v1/refresh-token', { body: {}, cookie: session.cookie }))
        .status,
    ).toBe(400);
  });

  it('logout revokes the refresh token', async () => {
    const session = await login(base, 'viewer@demo.test');
    const out = await api(base, '/authservice/v1/logout', {
      body: { username: 'viewer@demo.test' },
      cookie: session.cookie,
    });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/refreshToken=; .*Max-Age=0/);
    const res = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'viewer@demo.test' },
      cookie: session.cookie,
    });
    expect(res.status).toBe(401);
  });

  it('stops refreshing once the user is disabled', async () => {
    const admin = await login(base, 'admin@demo.test');
    const target = await login(base, 'elias.richter@demo.test');
    const found = await api(
      base,
      '/tenantservice/v1/users?filter=email%3Delias.richter%40demo.test',
      {
        token: admin.accessToken,
      },
    );
    const id = found.body.items[0].id;
    await api(base, `/tenantservice/v1/users/${id}/disable`, {
      method: 'POST',
      token: admin.accessToken,
    });
    const res = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'elias.richter@demo.test' },
      cookie: target.cookie,
    });
    // Refused, saying why (the cookie is that user's own credential); for another username
    // the same cookie is only an invalid one.
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('user_disabled');
    const other = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'admin@demo.test' },
      cookie: target.cookie,
    });
    expect(other.status).toBe(401);
    expect(other.body.error).toBe('invalid_refresh_token');
    // The access token dies with the user too, not only at its expiry.
    expect(
      (await api(base, '/authservice/v1/workspaces', { token: target.accessToken })).status,
    ).toBe(401);
    await api(base, `/tenantservice/v1/users/${id}/enable`, {
      method: 'POST',
      token: admin.accessToken,
    });
  });
});

describe('change password', () => {
  it('forces a new password through a single-use challenge', async () => {
    const first = await api(base, '/authservice/v1/login', {
      body: { username: 'newpass@demo.test', password: PASSWORD },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ newPasswordRequired: true, challenge: expect.any(String) });
    expect(first.body.accessToken).toBeUndefined();
    expect(first.cookie).toBeNull();
    const challenge = first.body.challenge;

    const weak = await api(base, '/authservice/v1/change-password', {
      body: { username: 'newpass@demo.test', challenge, newPassword: 'alllowercase1' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('invalid_password');

    const wrongUser = await api(base, '/authservice/v1/change-password', {
      body: { username: 'care@demo.test', challenge, newPassword: 'Changed1234' },
    });
    expect(wrongUser.status).toBe(401);

    // The failed attempt above used the challenge up; a fresh login issues a new one.
    const again = await api(base, '/authservice/v1/login', {
      body: { username: 'newpass@demo.test', password: PASSWORD },
    });
    const done = await api(base, '/authservice/v1/change-password', {
      body: {
        username: 'newpass@demo.test',
        challenge: again.body.challenge,
        newPassword: 'Changed1234',
      },
    });
    expect(done.status).toBe(200);
    expect(done.body.accessToken).toBeTruthy();
    expect(done.cookie).toBeTruthy();

    const reuse = await api(base, '/authservice/v1/change-password', {
      body: {
        username: 'newpass@demo.test',
        challenge: again.body.challenge,
        newPassword: 'Other12345',
      },
    });
    expect(reuse.status).toBe(401);
    expect(reuse.body.error).toBe('invalid_challenge');

    expect(
      (
        await api(base, '/authservice/v1/login', {
          body: { username: 'newpass@demo.test', password: PASSWORD },
        })
      ).status,
    ).toBe(401);
    const session = await login(base, 'newpass@demo.test', 'Changed1234');
    expect(session.accessToken).toBeTruthy();
  });

  it('lets a signed-in user change the password with the old one', async () => {
    const session = await login(base, 'lea.fischer@demo.test');
    const body = {
      username: 'lea.fischer@demo.test',
      oldPassword: PASSWORD,
      newPassword: 'NewSecret99',
    };
    expect((await api(base, '/authservice/v1/change-password', { body })).status).toBe(401);
    expect(
      (await api(base, '/authservice/v1/change-password', { body, token: 'garbage' })).status,
    ).toBe(401);
    const wrongOld = await api(base, '/authservice/v1/change-password', {
      body: { ...body, oldPassword: 'Nope12345' },
      token: session.accessToken,
    });
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body.error).toBe('invalid_old_password');
    const weak = await api(base, '/authservice/v1/change-password', {
      body: { ...body, newPassword: 'short' },
      token: session.accessToken,
    });
    expect(weak.body.error).toBe('invalid_password');
    const other = await api(base, '/authservice/v1/change-password', {
      body: { ...body, username: 'admin@demo.test' },
      token: session.accessToken,
    });
    expect(other.status).toBe(403);
    const ok = await api(base, '/authservice/v1/change-password', {
      body,
      token: session.accessToken,
    });
    expect(ok.status).toBe(204);
    await login(base, 'lea.fischer@demo.test', 'NewSecret99');
  });
});

describe('workspaces', () => {
  it('lists the workspaces of the caller tenant group only', async () => {
    const demo = await login(base, 'admin@demo.test');
    const res = await api(base, '/authservice/v1/workspaces', { token: demo.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.workspaces).toEqual([
      {
        name: 'Demo Versicherung AG',
        slug: 'demo',
        tenantName: 'Demo Versicherung AG',
        isDefault: true,
        isDisabled: false,
      },
      {
        name: 'Demo Sandbox',
        slug: 'demo-sandbox',
        tenantName: 'Demo Versicherung AG',
        isDefault: false,
        isDisabled: false,
      },
      {
        name: 'Demo Archiv',
        slug: 'demo-archive',
        tenantName: 'Demo Versicherung AG',
        isDefault: false,
        isDisabled: true,
      },
    ]);
    const nord = await login(base, 'admin@nordlicht.test');
    const other = await api(base, '/authservice/v1/workspaces', { token: nord.accessToken });
    expect(other.body.workspaces.map((w: { slug: string }) => w.slug)).toEqual(['nordlicht']);
    expect((await api(base, '/authservice/v1/workspaces')).status).toBe(401);
  });

  it('switches to an enabled workspace of the group', async () => {
    const session = await login(base, 'manager@demo.test');
    const res = await api(base, '/authservice/v1/workspaces/switch', {
      body: { username: 'manager@demo.test', targetWorkspace: 'demo-sandbox' },
      token: session.accessToken,
      cookie: session.cookie,
    });
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.accessToken)).toMatchObject({
      tenant_slug: 'demo-sandbox',
      role: 'product-manager',
    });
    expect(res.body.permissions).toContain('policy-management.products.*');
    expect(res.cookie).toBeTruthy();
    // The refresh cookie now belongs to the new workspace; the old one is retired.
    const refreshed = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'manager@demo.test' },
      cookie: res.cookie,
    });
    expect(decodeJwt(refreshed.body.accessToken).tenant_slug).toBe('demo-sandbox');
    const old = await api(base, '/authservice/v1/refresh-token', {
      body: { username: 'manager@demo.test' },
      cookie: session.cookie,
    });
    expect(old.status).toBe(401);
    // Tokens of the two workspaces see different tenant ids.
    const tenant = await api(
      base,
      `/tenantservice/v1/tenants/${decodeJwt(res.body.accessToken).tenant_id}`,
      {
        token: res.body.accessToken,
      },
    );
    expect(tenant.body.tenant.slug).toBe('demo-sandbox');
  });

  it('refuses a disabled, a foreign or an unknown workspace with 403', async () => {
    const session = await login(base, 'admin@demo.test');
    for (const targetWorkspace of ['demo-archive', 'nordlicht', 'does-not-exist']) {
      const res = await api(base, '/authservice/v1/workspaces/switch', {
        body: { username: 'admin@demo.test', targetWorkspace },
        token: session.accessToken,
        cookie: session.cookie,
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('forbidden');
    }
  });

  it('needs a bearer and a valid body', async () => {
    const session = await login(base, 'admin@demo.test');
    const body = { username: 'admin@demo.test', targetWorkspace: 'demo-sandbox' };
    expect((await api(base, '/authservice/v1/workspaces/switch', { body })).status).toBe(401);
    expect(
      (
        await api(base, '/authservice/v1/workspaces/switch', {
          body: { username: 'admin@demo.test' },
          token: session.accessToken,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await api(base, '/authservice/v1/workspaces/switch', {
          body: { ...body, username: 'care@demo.test' },
          token: session.accessToken,
        })
      ).status,
    ).toBe(403);
  });
});

describe('SAML sign-in through the sandbox identity provider', () => {
  it('gives a relative link to the sandbox IdP, 404 for an unknown tenant, 400 without one', async () => {
    const res = await api(base, '/authservice/v1/saml-login-link?tenantSlug=demo');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: '/sandbox-idp/login?tenantSlug=demo' });
    expect((await api(base, '/authservice/v1/saml-login-link?tenantSlug=nope')).status).toBe(404);
    expect((await api(base, '/authservice/v1/saml-login-link')).status).toBe(400);
  });

  it('shows a form with the tenant active users and no inline script', async () => {
    const res = await api(base, '/sandbox-idp/login?tenantSlug=nordlicht');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.body).toContain('<select');
    expect(res.body).toContain('admin@nordlicht.test');
    expect(res.body).not.toContain('demo.test');
    expect(res.body).not.toMatch(/<script|style=/i);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await api(base, '/sandbox-idp/login?tenantSlug=nope')).status).toBe(404);
  });

  it('exchanges the code once for a session', async () => {
    const code = await idpCode(base, 'demo', 'care@demo.test');
    const res = await api(base, '/authservice/v1/login/saml', {
      body: { tenantSlug: 'demo', code },
    });
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.accessToken)).toMatchObject({
      email: 'care@demo.test',
      tenant_slug: 'demo',
    });
    expect(res.cookie).toBeTruthy();
    const again = await api(base, '/authservice/v1/login/saml', {
      body: { tenantSlug: 'demo', code },
    });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('UNAUTHORIZED');
  });

  it('refuses a code for another tenant, an unknown code and a bad body', async () => {
    const code = await idpCode(base, 'demo', 'care@demo.test');
    expect(
      (await api(base, '/authservice/v1/login/saml', { body: { tenantSlug: 'nordlicht', code } }))
        .status,
    ).toBe(401);
    expect(
      (
        await api(base, '/authservice/v1/login/saml', {
          body: { tenantSlug: 'demo', code: 'made-up' },
        })
      ).status,
    ).toBe(401);
    expect(
      (await api(base, '/authservice/v1/login/saml', { body: { tenantSlug: 'demo' } })).status,
    ).toBe(400);
  });

  it('refuses to sign in a user of another tenant through the form', async () => {
    const page = await api(base, '/sandbox-idp/login?tenantSlug=nordlicht');
    const nordUser = /value="(usr_[0-9a-f]+)"/.exec(page.body)?.[1] ?? '';
    const res = await fetch(`${base}/sandbox-idp/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tenantSlug: 'demo', user: nordUser }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
  });
});
