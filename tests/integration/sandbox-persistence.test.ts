import { afterAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { MovableClock } from '#common/clock.ts';
import { api, login, makeTempDir, startTestSandbox } from '#server/sandbox/testing.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('PGlite persistence', () => {
  it('keeps data, signing key and sessions across a restart on the same data dir', async () => {
    const tmp = await makeTempDir();
    cleanups.push(tmp.remove);

    const first = await startTestSandbox(tmp.dir);
    const admin = await login(first.url, 'admin@demo.test');
    const put = await api(first.url, '/tenantservice/v1/branding', {
      method: 'PUT',
      // The seeded branding's first version: this data directory is new.
      body: {
        name: 'Nach dem Neustart',
        address: null,
        logo: null,
        main_color: '#abcdef',
        version: 1,
      },
      token: admin.accessToken,
    });
    expect(put.status).toBe(200);
    const before = await api(first.url, '/tenantservice/v1/users', { token: admin.accessToken });
    await first.close();

    const second = await startTestSandbox(tmp.dir);
    cleanups.push(() => second.close());
    // The access token from before the restart still verifies: the signing key was stored.
    const branding = await api(second.url, '/tenantservice/v1/branding', {
      token: admin.accessToken,
    });
    expect(branding.status).toBe(200);
    expect(branding.body.branding).toMatchObject({
      name: 'Nach dem Neustart',
      main_color: '#abcdef',
    });
    const refreshed = await api(second.url, '/authservice/v1/refresh-token', {
      body: { username: 'admin@demo.test' },
      cookie: admin.cookie,
    });
    expect(refreshed.status).toBe(200);
    // Not seeded twice.
    const after = await api(second.url, '/tenantservice/v1/users', { token: admin.accessToken });
    expect(after.body.items.map((u: { code: string }) => u.code)).toEqual(
      before.body.items.map((u: { code: string }) => u.code),
    );
    // Two sandbox starts, the first with the whole demo seed: more than one test's usual time.
  }, 120_000);

  it('starts empty with seed: false', async () => {
    const tmp = await makeTempDir();
    cleanups.push(tmp.remove);
    const sandbox = await startTestSandbox(tmp.dir, { seed: false });
    cleanups.push(() => sandbox.close());
    const res = await api(sandbox.url, '/authservice/v1/login', {
      body: { username: 'admin@demo.test', password: 'Demo1234!' },
    });
    expect(res.status).toBe(401);
    expect((await api(sandbox.url, '/authservice/v1/saml-login-link?tenantSlug=demo')).status).toBe(
      404,
    );
  });

  // Its own clock, so it seeds its own world in the test: a seed's time on a busy box.
  it('honours the access and refresh token lifetimes', async () => {
    const tmp = await makeTempDir();
    cleanups.push(tmp.remove);
    const clock = new MovableClock();
    const sandbox = await startTestSandbox(tmp.dir, { accessTokenTtlSeconds: 3, clock });
    cleanups.push(() => sandbox.close());
    const session = await login(sandbox.url, 'viewer@demo.test');
    const { iat, exp } = decodeJwt(session.accessToken);
    expect((exp ?? 0) - (iat ?? 0)).toBe(3);
    // The sandbox's clock moved to the last second of the token's life, then to its exp.
    clock.advanceTo((exp ?? 0) * 1000 - 1000);
    expect(
      (await api(sandbox.url, '/tenantservice/v1/general', { token: session.accessToken })).status,
    ).toBe(200);
    clock.advanceTo((exp ?? 0) * 1000);
    expect(
      (await api(sandbox.url, '/tenantservice/v1/general', { token: session.accessToken })).status,
    ).toBe(401);

    // The refresh token lives 30 days on the same clock: a day before, it still renews the
    // session (and rotates); 30 days after that renewal, the new one is refused.
    const refresh = (cookie: string | null) =>
      api(sandbox.url, '/authservice/v1/refresh-token', {
        body: { username: 'viewer@demo.test' },
        cookie,
      });
    clock.advance(29 * 86_400_000);
    const renewed = await refresh(session.cookie);
    expect(renewed.status).toBe(200);
    clock.advance(30 * 86_400_000);
    expect((await refresh(renewed.cookie)).status).toBe(401);
  }, 120_000);
});
