import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import { holdingUpstream } from '#tests/support/hold.ts';
import { recordingUpstream } from '#tests/support/net.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';

const USERS = [
  'admin@demo.test',
  'manager@demo.test',
  'care@demo.test',
  'viewer@demo.test',
  'admin@nordlicht.test',
];
const SESSIONS = 10;
const RUN_MS = 20_000;
// 12 s tokens and the 10 s margin: every session's token is due a few seconds after each
// refresh, so the run goes through several refreshes per session.
const TOKEN_TTL_SECONDS = 12;

/** One browser session used through both instances with the same cookie, as a load balancer
 * without sticky sessions does. */
class Browser {
  readonly viaA: Agent;
  readonly viaB: Agent;
  constructor(a: Stack, b: Stack) {
    this.viaA = new Agent(a.url);
    this.viaB = new Agent(b.url);
  }
  share(from: Agent) {
    this.viaA.cookie = from.cookie;
    this.viaB.cookie = from.cookie;
  }
}

describe('two BFF instances on one Redis', () => {
  let sandbox: Awaited<ReturnType<typeof startStandaloneSandbox>>;
  let upstream: Awaited<ReturnType<typeof recordingUpstream>>;
  let a: Stack;
  let b: Stack;
  beforeAll(async () => {
    sandbox = await startStandaloneSandbox(TOKEN_TTL_SECONDS);
    upstream = await recordingUpstream(sandbox.url);
    const env = {
      UPSTREAM_URL: upstream.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      // lastSeenAt is then written every few seconds: whole-session saves race the refreshes.
      SESSION_IDLE_TIMEOUT: '20',
      // The sessions this test leaves in the shared Redis expire soon.
      SESSION_ABSOLUTE_TIMEOUT: '600',
    };
    const limits = { loginLimits: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } };
    a = await startStack(env, limits);
    b = await startStack(env, limits);
  }, 240_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await upstream?.close();
    await sandbox?.close();
  });

  it('signs out no session when calls of each are split over both instances through several refreshes', async () => {
    const browsers: Browser[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const browser = new Browser(a, b);
      const login = await (i % 2 ? browser.viaB : browser.viaA).login(USERS[i % USERS.length]!);
      expect(login.status).toBe(200);
      browser.share(i % 2 ? browser.viaB : browser.viaA);
      browsers.push(browser);
    }

    const refreshesBefore = upstream.seen.filter((r) => r.path.includes('/refresh-token')).length;
    const statuses = new Map<number, number>();
    const signedOut = new Set<number>();
    const end = Date.now() + RUN_MS;
    while (Date.now() < end) {
      await Promise.all(
        browsers.map(async (browser, i) => {
          const answers = await Promise.all([
            browser.viaA.fetch('/api/0/tenantservice/v1/general'),
            browser.viaB.fetch('/api/0/tenantservice/v1/general'),
            browser.viaA.fetch('/api/0/tenantservice/v1/general'),
            browser.viaB.fetch('/api/0/tenantservice/v1/general'),
            // /bff requests save the whole session (lastSeenAt) while the others refresh.
            browser.viaA.fetch('/bff/session'),
            browser.viaB.fetch('/bff/accounts/0/workspaces'),
          ]);
          for (const r of answers) {
            await r.arrayBuffer();
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            if (r.status === 401) signedOut.add(i);
          }
        }),
      );
    }
    const refreshes =
      upstream.seen.filter((r) => r.path.includes('/refresh-token')).length - refreshesBefore;

    const stillIn: number[] = [];
    for (const [i, browser] of browsers.entries()) {
      const viaA = await browser.viaA.json('/bff/session');
      const viaB = await browser.viaB.json('/api/0/tenantservice/v1/general');
      if (viaA.body?.accounts?.length === 1 && viaB.status === 200) stillIn.push(i);
    }
    expect({ signedOut: [...signedOut], statuses: Object.fromEntries(statuses) }).toEqual({
      signedOut: [],
      statuses: { 200: expect.any(Number) },
    });
    expect(stillIn).toHaveLength(SESSIONS);
    // Several refreshes per session happened. A token is due 1-2 s after issue (`iat` and `exp`
    // have one-second precision), so one refresh per session and second is the most that one
    // refresh per due token allows.
    expect(refreshes).toBeGreaterThanOrEqual(SESSIONS * 3);
    expect(refreshes).toBeLessThanOrEqual(SESSIONS * (RUN_MS / 1_000 + 2));
  }, 180_000);

  it('tells why an account ended on the instance that did not end it too', async () => {
    const admin = new Agent(a.url);
    expect((await admin.login('admin@demo.test')).status).toBe(200);
    const browser = new Browser(a, b);
    expect((await browser.viaA.login('viewer@demo.test')).status).toBe(200);
    browser.share(browser.viaA);
    const users = await admin.json('/api/0/tenantservice/v1/users?search=viewer%40demo.test');
    const id = (users.body.items as { id: number; email: string }[]).find(
      (u) => u.email === 'viewer@demo.test',
    )!.id;
    await admin.json('/api/0/tenantservice/v1/users/disable-batch', { json: { ids: [id] } });
    try {
      // A's forced refresh meets the refusal and ends the account; B finds it gone afterwards
      // and says why from the shared store, not a bare time-out.
      const viaA = await browser.viaA.json('/bff/accounts/0/refresh', { method: 'POST' });
      expect(viaA.status).toBe(401);
      expect(viaA.body).toMatchObject({ error: 'session_expired', reason: 'user_disabled' });
      const viaB = await browser.viaB.json('/bff/accounts/0/refresh', { method: 'POST' });
      expect(viaB.status).toBe(401);
      expect(viaB.body).toMatchObject({ error: 'session_expired', reason: 'user_disabled' });
    } finally {
      await admin.json('/api/0/tenantservice/v1/users/enable-batch', { json: { ids: [id] } });
    }
  }, 60_000);
});

describe('a second sign-in on one instance while the other refreshes the session', () => {
  it('keeps the refresh token that refresh rotated, and leaves the old session id gone', async () => {
    // One time of day for the sandbox and both instances, moved into each refresh margin.
    const clock = new MovableClock();
    const sandbox = await startStandaloneSandbox(TOKEN_TTL_SECONDS, clock);
    const upstream = await holdingUpstream(sandbox.url, (path) => path.includes('/refresh-token'));
    // Settles when an instance logs that a sign-in waits for another's refresh.
    let logWait = () => {};
    const waitLogged = new Promise<void>((resolve) => (logWait = resolve));
    const sink = new Writable({
      write(chunk, _enc, cb) {
        if (String(chunk).includes('waits for a refresh')) logWait();
        cb();
      },
    });
    const env = {
      UPSTREAM_URL: upstream.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      SESSION_ABSOLUTE_TIMEOUT: '600',
    };
    const a = await startStack(env, { clock });
    const b = await startStack(env, { log: pino({ level: 'debug' }, sink), clock });
    const api = '/api/0/tenantservice/v1/general';
    const tokenExpiry = async (agent: Agent) =>
      (
        (await agent.json('/bff/session')).body.accounts as {
          accountIndex: number;
          expiresAt: number;
        }[]
      ).find((x) => x.accountIndex === 0)!.expiresAt;
    try {
      const viaA = new Agent(a.url);
      expect((await viaA.login('admin@demo.test')).status).toBe(200);
      const viaB = new Agent(b.url);
      viaB.cookie = viaA.cookie;
      const oldCookie = viaA.cookie;
      const firstExpiry = await tokenExpiry(viaA);
      clock.advanceTo(firstExpiry - 9_500);

      // Instance A refreshes account 0; the upstream has rotated the refresh token, A has not
      // stored it yet. Meanwhile the same browser signs in a second account through B, which
      // gives the session a new id and copies the accounts over.
      upstream.hold();
      const refreshing = viaA.json(api);
      await upstream.whenHeld(1);
      const second = viaB.login('manager@demo.test');
      // B either copied at once (the race) or waits for A's refresh lock.
      await Promise.race([second, waitLogged]);
      upstream.release();
      // A's call carried the old session id, which the sign-in ended: its answer is not the
      // point here.
      await refreshing;
      expect((await second).status).toBe(200);
      viaA.cookie = viaB.cookie;
      expect(viaA.cookie).not.toBe(oldCookie);

      // The new session holds the rotated token: account 0 refreshes again with it and stays.
      const rotatedExpiry = await tokenExpiry(viaA);
      expect(rotatedExpiry).toBeGreaterThan(firstExpiry);
      clock.advanceTo(rotatedExpiry - 9_500);
      expect((await viaB.json(api)).status).toBe(200);
      expect((await viaA.json(api)).status).toBe(200);
      expect(await tokenExpiry(viaA)).toBeGreaterThan(rotatedExpiry);
      expect((await viaA.json('/bff/session')).body.accounts).toHaveLength(2);

      // The refresh wrote nothing back to life under the old id.
      const old = new Agent(b.url);
      old.cookie = oldCookie;
      expect((await old.json('/bff/session')).body.accounts).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
      await upstream.close();
      await sandbox.close();
    }
  }, 120_000);
});
