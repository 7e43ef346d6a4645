import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { WebSocket } from 'ws';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import {
  api,
  createTestDatabase,
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
    expect(users.body.items).toHaveLength(18);
  });
});
