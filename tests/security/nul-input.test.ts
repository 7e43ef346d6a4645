import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import { api, login, startPostgresSandbox, type Session } from '#server/sandbox/testing.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/**
 * PostgreSQL refuses a NUL character (\u0000) in text. A NUL in a search, a filter, a body field
 * or a form must be a 400 JSON error that says so, never a 500 from the sandbox or a 502 from
 * the BFF, on PGlite and on a PostgreSQL server alike; and the process goes on serving.
 */

const USERS = '/tenantservice/v1/users';
const NUL = '\u0000';

/** Each NUL-bearing request a signed-in caller can make straight to the sandbox. */
function nulRequests(base: string, session: Session) {
  const token = session.accessToken;
  return {
    search: () => api(base, `${USERS}?search=%00`, { token }),
    'search with text around it': () => api(base, `${USERS}?search=ad%00min`, { token }),
    filter: () => api(base, `${USERS}?filter=${encodeURIComponent(`email=a${NUL}@x`)}`, { token }),
    'path id': () => api(base, '/tenantservice/v1/list-views/lv%00x', { token }),
    'body field of a write': () =>
      api(base, '/tenantservice/v1/list-views', {
        token,
        body: { list: 'users', name: `Mine${NUL}`, query: 'search=a' },
      }),
    'body key of a write': () =>
      api(base, '/tenantservice/v1/list-views', {
        token,
        body: { list: 'users', name: 'Mine', query: 'search=a', [`x${NUL}`]: 1 },
      }),
    'password sign-in': () =>
      api(base, '/authservice/v1/login', {
        body: { username: `care${NUL}@demo.test`, password: 'x' },
      }),
    'identity-provider form': () =>
      fetch(`${base}/sandbox-idp/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'tenantSlug=demo%00&user=usr_1',
        redirect: 'manual',
      }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) })),
  };
}

async function expectAllRefused(base: string) {
  const session = await login(base, 'admin@demo.test');
  for (const [what, send] of Object.entries(nulRequests(base, session))) {
    const res = await send();
    expect(res.status, what).toBe(400);
    expect(res.body, what).toMatchObject({ error: 'invalid_input' });
    expect(res.body.message, what).toMatch(/NUL/);
  }
  // Still serving, and the same calls without the NUL work.
  const plain = await api(base, `${USERS}?search=admin`, { token: session.accessToken });
  expect(plain.status).toBe(200);
  expect(plain.body.items.length).toBeGreaterThan(0);
}

describe('a NUL character', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.stop());

  it('is a 400 invalid_input from the sandbox on PGlite', async () => {
    await expectAllRefused(stack.upstreamUrl);
  });

  it('is a 400 through the BFF, in a list call and in sign-in', async () => {
    const agent = new Agent(stack.url);
    for (const body of [
      { username: `admin${NUL}@demo.test`, password: 'Demo1234!' },
      { username: 'admin@demo.test', password: `Demo${NUL}1234!` },
      { username: 'admin@demo.test\u0007', password: 'Demo1234!' },
    ]) {
      const res = await agent.json('/bff/login', { json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('bad_request');
      expect(res.body.message).toMatch(/control characters/);
    }
    expect((await agent.login('admin@demo.test')).status).toBe(200);
    const search = await agent.json(`/api/0${USERS}?search=%00`);
    expect(search.status).toBe(400);
    expect(search.body.error).toBe('invalid_input');
    const write = await agent.json('/api/0/tenantservice/v1/list-views', {
      json: { list: 'users', name: `Mine${NUL}`, query: 'search=a' },
    });
    expect(write.status).toBe(400);
    expect((await agent.json(`/api/0${USERS}?search=admin`)).status).toBe(200);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });

  it('is never part of a new password, which sign-in would then refuse', async () => {
    const agent = new Agent(stack.url);
    expect((await agent.login('care@demo.test')).status).toBe(200);
    const viaBff = await agent.json('/bff/accounts/0/change-password', {
      json: { oldPassword: 'Demo1234!', newPassword: 'Fresh1234x\u0007' },
    });
    expect(viaBff.status).toBe(400);
    expect(viaBff.body.message).toMatch(/control characters/);
    // The service's own rule, for the guest reset and registration paths the BFF only forwards.
    const session = await login(stack.upstreamUrl, 'care@demo.test');
    const direct = await api(stack.upstreamUrl, '/authservice/v1/change-password', {
      token: session.accessToken,
      body: { username: 'care@demo.test', oldPassword: 'Demo1234!', newPassword: 'Fresh1234x\t' },
    });
    expect(direct.status).toBe(400);
    expect(direct.body.error).toBe('invalid_password');
    expect((await new Agent(stack.url).login('care@demo.test')).status).toBe(200);
  });
});

describe('a NUL character on a PostgreSQL server', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startPostgresSandbox();
  });
  afterAll(() => sandbox?.close());

  it('is the same 400 invalid_input', async () => {
    await expectAllRefused(sandbox.url);
  });
});
