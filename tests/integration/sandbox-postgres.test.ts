import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { WebSocket } from 'ws';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import {
  api,
  createTestDatabase,
  latestMail,
  linkParam,
  login,
  makeTempDir,
  startTestSandbox,
} from '#server/sandbox/testing.ts';

// The same core flows as the PGlite files, on a real PostgreSQL server (DATABASE_URL-style).
let database: { url: string; drop(): Promise<void> };
let tmp: { dir: string; remove(): Promise<void> };
let sandbox: RunningSandbox;

beforeAll(async () => {
  database = await createTestDatabase();
  tmp = await makeTempDir();
  sandbox = await startTestSandbox(tmp.dir, { databaseUrl: database.url });
});

afterAll(async () => {
  await sandbox?.close();
  await database?.drop();
  await tmp?.remove();
});

describe('sandbox on PostgreSQL', () => {
  it('signs in, refreshes with rotation and rejects the old cookie', async () => {
    const session = await login(sandbox.url, 'care@demo.test');
    expect(decodeJwt(session.accessToken).tenant_slug).toBe('demo');
    const next = await api(sandbox.url, '/authservice/v1/refresh-token', {
      body: { username: 'care@demo.test' },
      cookie: session.cookie,
    });
    expect(next.status).toBe(200);
    const replay = await api(sandbox.url, '/authservice/v1/refresh-token', {
      body: { username: 'care@demo.test' },
      cookie: session.cookie,
    });
    expect(replay.status).toBe(401);
    const wrong = await api(sandbox.url, '/authservice/v1/login', {
      body: { username: 'care@demo.test', password: 'Wrong1234' },
    });
    expect(wrong.status).toBe(401);
  });

  it('lists users with paging, filter and roles, isolated per tenant', async () => {
    const admin = await login(sandbox.url, 'admin@demo.test');
    const nord = await login(sandbox.url, 'admin@nordlicht.test');
    const page = await api(sandbox.url, '/tenantservice/v1/users?pageSize=10&expand=roles', {
      token: admin.accessToken,
    });
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(10);
    expect(page.body.nextPageToken).toBe('2');
    expect(page.body.items[0].roles[0].code).toBe('admin');
    const nordUser = (
      await api(sandbox.url, '/tenantservice/v1/users', { token: nord.accessToken })
    ).body.items[0];
    expect(
      (
        await api(sandbox.url, `/tenantservice/v1/users/${nordUser.id}`, {
          token: admin.accessToken,
        })
      ).status,
    ).toBe(404);
    const forbidden = await api(sandbox.url, '/tenantservice/v1/users', {
      token: (await login(sandbox.url, 'care@demo.test')).accessToken,
    });
    expect(forbidden.status).toBe(403);
  });

  it('switches workspaces and refuses the disabled one', async () => {
    const session = await login(sandbox.url, 'admin@demo.test');
    const ok = await api(sandbox.url, '/authservice/v1/workspaces/switch', {
      body: { username: 'admin@demo.test', targetWorkspace: 'demo-sandbox' },
      token: session.accessToken,
      cookie: session.cookie,
    });
    expect(decodeJwt(ok.body.accessToken).tenant_slug).toBe('demo-sandbox');
    const disabled = await api(sandbox.url, '/authservice/v1/workspaces/switch', {
      body: { username: 'admin@demo.test', targetWorkspace: 'demo-archive' },
      token: session.accessToken,
    });
    expect(disabled.status).toBe(403);
  });

  it('runs the SAML code exchange once', async () => {
    const pageHtml = (await api(sandbox.url, '/sandbox-idp/login?tenantSlug=demo')).body as string;
    const user = /value="(usr_[0-9a-f]+)"/.exec(pageHtml)?.[1] ?? '';
    const redirect = await fetch(`${sandbox.url}/sandbox-idp/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tenantSlug: 'demo', user }).toString(),
      redirect: 'manual',
    });
    const code = new URL(redirect.headers.get('location') ?? '', 'http://x').searchParams.get(
      'code',
    );
    const body = { tenantSlug: 'demo', code };
    expect((await api(sandbox.url, '/authservice/v1/login/saml', { body })).status).toBe(200);
    expect((await api(sandbox.url, '/authservice/v1/login/saml', { body })).status).toBe(401);
  });

  it('says hello on the websocket', async () => {
    const session = await login(sandbox.url, 'viewer@demo.test');
    const socket = new WebSocket(
      `${sandbox.url.replace('http', 'ws')}/notificationservice/v1/ws?authToken=${session.accessToken}`,
    );
    const frame = await new Promise<string>((resolve) =>
      socket.once('message', (d) => resolve(String(d))),
    );
    expect(JSON.parse(frame)).toEqual({ type: 'hello', tenantSlug: 'demo' });
    socket.close();
  });

  it('registers through an invitation and resets a password, ending old sessions', async () => {
    const admin = await login(sandbox.url, 'admin@demo.test');
    const invited = await api(sandbox.url, '/tenantservice/v1/users/invites/batch', {
      body: { emails: ['pg.user@example.test'], roleCodes: ['show-only'] },
      token: admin.accessToken,
    });
    expect(invited.body.results[0].ok).toBe(true);
    const inviteMail = await latestMail(sandbox.url, 'pg.user@example.test');
    const registration = {
      firstName: 'Pia',
      lastName: 'Postgres',
      password: 'Pg1234567',
      street: 'Weg',
      houseNumber: '1',
      zipCode: '12345',
      city: 'Berlin',
      country: 'Deutschland',
      isEulaAccepted: true,
      customFields: { registrationNumber: 'HRB 1' },
      invitationToken: linkParam(inviteMail?.link, 'token'),
    };
    const created = await api(sandbox.url, '/authservice/v1/create-user', { body: registration });
    expect(created.status).toBe(201);
    const replay = await api(sandbox.url, '/authservice/v1/create-user', { body: registration });
    expect(replay.status).toBe(403);

    const session = await login(sandbox.url, 'pg.user@example.test', 'Pg1234567');
    await api(sandbox.url, '/authservice/v1/forgot-password', {
      body: { email: 'pg.user@example.test' },
    });
    const resetMail = await latestMail(sandbox.url, 'pg.user@example.test');
    const reset = await api(sandbox.url, '/authservice/v1/reset-password', {
      body: { resetToken: linkParam(resetMail?.link, 'resetToken'), newPassword: 'Pg7654321' },
    });
    expect(reset.status).toBe(204);
    const old = await api(sandbox.url, '/tenantservice/v1/users', { token: session.accessToken });
    expect(old.status).toBe(401);
    const fresh = await login(sandbox.url, 'pg.user@example.test', 'Pg7654321');
    const users = await api(sandbox.url, '/tenantservice/v1/users', { token: fresh.accessToken });
    expect(users.status).toBe(200);
  });

  it('keeps data across a restart and does not seed twice', async () => {
    const admin = await login(sandbox.url, 'admin@demo.test');
    const write = await api(sandbox.url, '/tenantservice/v1/settings/tenant', {
      body: { key: 'dashboardAlert', value: 'persisted' },
      token: admin.accessToken,
    });
    expect(write.status).toBe(200);
    await sandbox.close();
    sandbox = await startTestSandbox(tmp.dir, { databaseUrl: database.url });
    const read = await api(sandbox.url, '/tenantservice/v1/settings/tenant?keys=dashboardAlert', {
      token: admin.accessToken,
    });
    expect(read.body.values[0].value).toBe('persisted');
    const users = await api(sandbox.url, '/tenantservice/v1/users?pageSize=50', {
      token: admin.accessToken,
    });
    // 62 demo users (18 from the first seed, 44 from the administration seed) and the one who
    // registered above, none twice.
    expect(users.body.items).toHaveLength(50);
    const rest = await api(sandbox.url, '/tenantservice/v1/users?pageSize=50&pageToken=2', {
      token: admin.accessToken,
    });
    expect(rest.body.items).toHaveLength(13);
    expect(rest.body.nextPageToken).toBeNull();
  });
});
