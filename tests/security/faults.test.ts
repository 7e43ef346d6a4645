import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MovableClock } from '#common/clock.ts';
import { holdingUpstream, within } from '#tests/support/hold.ts';
import { cuttableRelay } from '#tests/support/net.ts';
import { Agent, startStack, watchedLog, type Stack } from '#tests/support/stack.ts';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';

const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

describe('upstream faults', () => {
  let sandbox: Awaited<ReturnType<typeof startStandaloneSandbox>>;
  let relay: Awaited<ReturnType<typeof cuttableRelay>>;
  let stack: Stack;
  beforeAll(async () => {
    sandbox = await startStandaloneSandbox();
    relay = await cuttableRelay(sandbox.port);
    stack = await startStack({
      UPSTREAM_URL: `http://127.0.0.1:${relay.port}`,
      UPSTREAM_TIMEOUT: '1',
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await relay?.close();
    await sandbox?.close();
  });

  it('answers 502 at once when the upstream is down, 504 when slow, 502 on garbage, then recovers', async () => {
    const a = new Agent(stack.url);
    expect((await a.login('admin@demo.test')).status).toBe(200);

    relay.cut();
    let t = Date.now();
    const down = await a.json('/api/0/tenantservice/v1/general');
    expect(down.status).toBe(502);
    expect(down.body.error).toBe('upstream_unavailable');
    expect(Date.now() - t).toBeLessThan(1000);
    const loginDown = await new Agent(stack.url).login('viewer@demo.test');
    expect(loginDown.status).toBe(502);

    relay.stall();
    t = Date.now();
    const slow = await a.json('/api/0/tenantservice/v1/general');
    expect(slow.status).toBe(504);
    expect(slow.body.error).toBe('upstream_timeout');
    expect(Date.now() - t).toBeLessThan(3000);
    expect((await new Agent(stack.url).login('viewer@demo.test')).status).toBe(504);

    relay.garbage();
    const garbage = await a.json('/api/0/tenantservice/v1/general');
    expect(garbage.status).toBe(502);

    relay.restore();
    expect((await a.json('/api/0/tenantservice/v1/general')).status).toBe(200);
    expect((await fetch(stack.url + '/healthz')).status).toBe(200);
  });

  it('reports readiness from the store and the upstream', async () => {
    relay.restore();
    expect((await fetch(stack.url + '/readyz')).status).toBe(200);
    relay.cut();
    const r = await fetch(stack.url + '/readyz');
    expect(r.status).toBe(503);
    expect(await r.json()).toMatchObject({ store: true, upstream: false });
    relay.restore();
  });
});

describe('session persistence', () => {
  it('keeps sessions across a BFF restart with the embedded store', async () => {
    const first = await startStack({ SANDBOX_PORT: '0' });
    const a = new Agent(first.url);
    await a.login('admin@demo.test');
    await first.stop(false);
    const second = await startStack({}, { dataDir: first.dataDir });
    try {
      const b = new Agent(second.url);
      b.cookie = a.cookie;
      expect((await b.json('/bff/session')).body.accounts).toHaveLength(1);
      expect((await b.json('/api/0/tenantservice/v1/general')).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('keeps sessions in Redis across a restart, and answers 503 while Redis is away', async () => {
    const relay = await cuttableRelay(6379);
    const redisUrl = `redis://127.0.0.1:${relay.port}`;
    const first = await startStack({ REDIS_URL: redisUrl });
    try {
      const a = new Agent(first.url);
      await a.login('admin@demo.test');
      await first.stop(false);
      const watched = watchedLog();
      const second = await startStack(
        { REDIS_URL: redisUrl },
        { dataDir: first.dataDir, log: watched.log },
      );
      try {
        const b = new Agent(second.url);
        b.cookie = a.cookie;
        expect((await b.json('/bff/session')).body.accounts).toHaveLength(1);
        expect((await b.json('/api/0/tenantservice/v1/general')).status).toBe(200);

        relay.cut();
        const t = Date.now();
        const s = await b.json('/bff/session');
        expect(s.status).toBe(503);
        expect(s.body.error).toBe('session_store_unavailable');
        expect((await b.json('/api/0/tenantservice/v1/general')).status).toBe(503);
        expect(Date.now() - t).toBeLessThan(2000);

        // The client reconnects on its own schedule: wait for the instance to say it is back.
        const back = watched.next('redis session store connected again');
        relay.restore();
        await within(30_000, 'Redis connected again', back);
        expect((await fetch(second.url + '/readyz')).status).toBe(200);
        expect((await b.json('/bff/session')).body.accounts).toHaveLength(1);
      } finally {
        await second.stop();
      }
    } finally {
      await relay.close();
    }
    // Starts two stacks in its body (each a sandbox seed): a busy box needs more than 30 s.
  }, 120_000);

  it('loses no session when Redis goes away while refreshes run: 503 meanwhile, signed in after', async () => {
    // 12 s tokens are due 2 s after each refresh (10 s margin), so refreshes run during the
    // outage and right after it.
    const clock = new MovableClock();
    const sandbox = await startStandaloneSandbox(12, clock);
    const upstream = await holdingUpstream(sandbox.url, (path) => path.includes('/refresh-token'));
    const relay = await cuttableRelay(6379);
    const watched = watchedLog();
    const s = await startStack(
      {
        UPSTREAM_URL: upstream.url,
        REDIS_URL: `redis://127.0.0.1:${relay.port}`,
        SESSION_ABSOLUTE_TIMEOUT: '600',
      },
      {
        loginLimits: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
        clock,
        log: watched.log,
      },
    );
    const api = '/api/0/tenantservice/v1/general';
    try {
      const users = ['admin@demo.test', 'manager@demo.test', 'care@demo.test', 'viewer@demo.test'];
      const agents = [...users, ...users].map(() => new Agent(s.url));
      for (const [i, a] of agents.entries())
        expect((await a.login(users[i % 4]!)).status).toBe(200);
      const expiry = Math.max(
        ...(await Promise.all(agents.map(async (a) => (await a.json('/bff/session')).body))).map(
          (b: { accounts: { expiresAt: number }[] }) => b.accounts[0]!.expiresAt,
        ),
      );
      clock.advanceTo(expiry - 9_500);

      // Each call refreshes; the upstream rotates every refresh token, and then Redis goes away
      // before the BFF can store the new ones.
      upstream.hold();
      const during = agents.map((a) => a.json(api));
      await upstream.whenHeld(agents.length);
      relay.cut();
      upstream.release();
      expect((await Promise.all(during)).map((r) => r.status)).toEqual(agents.map(() => 503));
      for (const a of agents) {
        const session = await a.json('/bff/session');
        expect(session.status).toBe(503);
        expect(session.body.error).toBe('session_store_unavailable');
        expect((await a.json(api)).body.error).toBe('session_store_unavailable');
      }

      const back = watched.next('redis session store connected again');
      relay.restore();
      await within(30_000, 'Redis connected again', back);
      expect((await fetch(s.url + '/readyz')).status).toBe(200);
      // Activity right after the outage and through further refreshes keeps every session: each
      // round after the first finds every token due again (12 s tokens, 10 s margin).
      const statuses: number[] = [];
      for (let round = 0; round < 4; round++) {
        statuses.push(...(await Promise.all(agents.map(async (a) => (await a.json(api)).status))));
        clock.advance(3_000);
      }
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      for (const a of agents) expect((await a.json('/bff/session')).body.accounts).toHaveLength(1);
    } finally {
      await s.stop();
      await relay.close();
      await upstream.close();
      await sandbox.close();
    }
  }, 180_000);

  it('keeps an active session under an idle limit of seconds, and ends the idle one', async () => {
    const clock = new MovableClock();
    const s = await startStack({ SESSION_IDLE_TIMEOUT: '4' }, { clock });
    try {
      const active = new Agent(s.url);
      const idle = new Agent(s.url);
      expect((await active.login('admin@demo.test')).status).toBe(200);
      expect((await idle.login('viewer@demo.test')).status).toBe(200);
      // Steady activity, through the proxy and the session API in turn, a call every 300 ms for
      // three idle limits.
      for (let i = 0; i < 40; i++) {
        const r = await active.json(i % 2 ? '/api/0/tenantservice/v1/general' : '/bff/session');
        expect(r.status).toBe(200);
        if (i % 2 === 0) expect(r.body.accounts).toHaveLength(1);
        clock.advance(300);
      }
      expect((await idle.json('/api/0/tenantservice/v1/general')).status).toBe(401);
      expect((await idle.json('/bff/session')).body.accounts).toEqual([]);
      expect((await active.json('/api/0/tenantservice/v1/general')).status).toBe(200);
    } finally {
      await s.stop();
    }
  }, 120_000);

  // Its own clock, so it seeds its own world in the test: a seed's time on a busy box.
  it('ends a session after the idle timeout and keeps the way back to sign-in', async () => {
    const clock = new MovableClock();
    const s = await startStack({ SESSION_IDLE_TIMEOUT: '1' }, { clock });
    try {
      const a = new Agent(s.url);
      await a.login('admin@demo.test');
      clock.advance(1300);
      const api = await a.json('/api/0/tenantservice/v1/general');
      expect(api.status).toBe(401);
      expect(api.body).toMatchObject({ error: 'session_expired', accountIndex: 0 });
      expect((await a.json('/bff/session')).body.accounts).toEqual([]);
    } finally {
      await s.stop();
    }
  }, 120_000);
});

describe('websocket and logs', () => {
  // Its own clock, so it seeds its own world in the test: a seed's time on a busy box.
  it('bridges the notification socket for a signed-in page of this origin only, and logs no token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = pino({ level: 'debug' }, sink);
    const clock = new MovableClock();
    const s = await startStack({ SANDBOX_ACCESS_TOKEN_TTL: '12' }, { log, clock });
    try {
      const a = new Agent(s.url);
      await a.login('admin@demo.test');
      const wsUrl = s.url.replace('http', 'ws') + '/ws?account=0';
      const origin = s.url.replace('127.0.0.1', '127.0.0.1');

      const frames: string[] = [];
      const ws = new WebSocket(wsUrl, { headers: { cookie: a.cookie, origin } });
      await new Promise<void>((resolve, reject) => {
        ws.on('message', (d) => {
          frames.push(String(d));
          resolve();
        });
        ws.on('error', reject);
      });
      expect(JSON.parse(frames[0]!).type).toBe('hello');
      expect(frames.join('')).not.toMatch(JWT);
      ws.close(1000);

      const status = (headers: Record<string, string>) =>
        new Promise<number>((resolve) => {
          const w = new WebSocket(wsUrl, { headers });
          w.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          w.on('open', () => {
            w.close();
            resolve(101);
          });
          w.on('error', () => resolve(-1));
        });
      expect(await status({ cookie: a.cookie, origin: 'https://evil.example' })).toBe(403);
      expect(await status({ origin })).toBe(401);
      expect(await status({ cookie: a.cookie })).toBe(403);

      // A refresh happens (12 s tokens, 10 s margin) so its path is in the logs too.
      clock.advance(2_500);
      expect((await a.json('/api/0/tenantservice/v1/general')).status).toBe(200);
      await a.login('nobody@demo.test', 'wrong');
      const all = lines.join('');
      expect(all.length).toBeGreaterThan(0);
      expect(all).not.toMatch(JWT);
      expect(all).not.toContain('Demo1234!');
    } finally {
      await s.stop();
    }
  }, 120_000);
});
