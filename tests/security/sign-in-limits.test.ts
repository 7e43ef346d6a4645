import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import { closeServer, listen, recordingUpstream } from '#tests/support/net.ts';
import { PASSWORD, startStack, type Stack } from '#tests/support/stack.ts';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';

/** Sign-in limits against the real BFF and sandbox, once with the in-memory counters of a single
 * instance and once with the Redis counters several instances share. Requests leave from
 * distinct loopback addresses (127.x.y.z all reach this machine), so every test has real client
 * addresses of its own and nothing needs to be faked. */

// Bursts of dozens of password checks (scrypt in the sandbox) on a shared two-core machine: more
// than the default 30 s per test when it is busy.
vi.setConfig({ testTimeout: 120_000 });

const REDIS_URL = 'redis://127.0.0.1:6379';
const SLOW_S = 1;
const run = randomUUID().slice(0, 8);
const redisPrefix = `test-signin-${run}:`;

let sandbox: Awaited<ReturnType<typeof startStandaloneSandbox>>;
let recorder: Awaited<ReturnType<typeof recordingUpstream>>;
const stacks: Record<'memory' | 'redis', Stack> = {} as never;
// The counters' windows follow the BFF's clock, in memory and in Redis alike: the test moves it
// past a Retry-After instead of waiting. One clock per stack, so that neither run moves the
// other's time.
const clocks = { memory: new MovableClock(), redis: new MovableClock() };
const waitOut = (kind: 'memory' | 'redis') => async (ms: number) => clocks[kind].advance(ms);

beforeAll(async () => {
  sandbox = await startStandaloneSandbox();
  recorder = await recordingUpstream(sandbox.url);
  // A generous upstream timeout: a burst of password checks on a busy machine must not turn into
  // 504s, which give their attempts back and blur the counts.
  const env = { UPSTREAM_URL: recorder.url, TRUST_PROXY: '1', UPSTREAM_TIMEOUT: '120' };
  // The defaults but for a short slow-down, so that waiting it out stays quick.
  const limits = { slowMs: SLOW_S * 1000 };
  stacks.memory = await startStack(env, { loginLimits: limits, clock: clocks.memory });
  stacks.redis = await startStack(
    { ...env, REDIS_URL },
    { loginLimits: { ...limits, keyPrefix: redisPrefix }, clock: clocks.redis },
  );
});
afterAll(async () => {
  await stacks.memory?.stop();
  await stacks.redis?.stop();
  await recorder?.close();
  await sandbox?.close();
});

interface Answer {
  status: number;
  retryAfter: number | null;
  body: { error?: string; message?: string };
}

/** A JSON POST with X-CSRF from the loopback address `from`. */
function post(
  base: string,
  path: string,
  json: unknown,
  from: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = new URL(path, base);
  const payload = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          'x-csrf': '1',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          const ra = res.headers['retry-after'];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: ra === undefined ? null : Number(ra),
            body: text ? JSON.parse(text) : {},
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const signIn = (base: string, username: string, password: string, from: string) =>
  post(base, '/bff/login', { username, password }, from);

const upstreamCalls = (path: string, since: number) =>
  recorder.seen.slice(since).filter((c) => c.method === 'POST' && c.path === path).length;
const LOGIN = '/authservice/v1/login';
const SAML = '/authservice/v1/login/saml';

/** Fires `n` requests at once; a spent budget lets one more through per SLOW_S while they run. */
async function burst(n: number, send: (i: number) => Promise<Answer>) {
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  const slots = Math.ceil((Date.now() - started) / (SLOW_S * 1000));
  return { answers, slots };
}
const count = (answers: Answer[], status: number) =>
  answers.filter((a) => a.status === status).length;

function expectRateLimited(a: Answer, maxWait: number) {
  expect(a.body).toEqual({ error: 'rate_limited', message: expect.any(String) });
  expect(a.retryAfter).toBeGreaterThanOrEqual(1);
  expect(a.retryAfter).toBeLessThanOrEqual(maxWait);
}

/** Retries, honouring Retry-After, until the answer is no 429; gives up after `tries`. */
async function patiently(
  tries: number,
  wait: (ms: number) => Promise<void>,
  attempt: () => Promise<Answer>,
) {
  const waits: number[] = [];
  for (let i = 0; i < tries; i++) {
    const a = await attempt();
    if (a.status !== 429) return { answer: a, waits };
    waits.push(a.retryAfter ?? NaN);
    await wait((a.retryAfter ?? 1) * 1000);
  }
  throw new Error(`still 429 after ${tries} tries (waits ${waits.join(', ')})`);
}

describe.each(['memory', 'redis'] as const)('sign-in limits, %s counters', (kind) => {
  // Each store's tests use their own third octet, so the two runs never share an address.
  const net = kind === 'memory' ? '127.0.1' : '127.0.2';
  const base = () => stacks[kind].url;

  it('counts before it checks: 30 parallel wrong passwords reach the upstream 5 times', async () => {
    const from = `${net}.1`;
    const before = recorder.seen.length;
    const known = await burst(30, () => signIn(base(), 'manager@demo.test', 'Wrong1234!', from));
    expect(upstreamCalls(LOGIN, before)).toBe(5);
    expect(count(known.answers, 400)).toBe(5);
    expect(count(known.answers, 429)).toBe(25);
    for (const a of known.answers.filter((x) => x.status === 429)) expectRateLimited(a, 60);

    // An unknown user is counted the same way and answered the same.
    const mid = recorder.seen.length;
    const unknown = await burst(30, () =>
      signIn(base(), `nobody-${run}@demo.test`, 'Wrong1234!', from),
    );
    expect(upstreamCalls(LOGIN, mid)).toBe(5);
    expect(unknown.answers.map((a) => [a.status, a.body.error]).sort()).toEqual(
      known.answers.map((a) => [a.status, a.body.error]).sort(),
    );
  });

  it('after 60 failures from an address, the right password from it gets in after seconds', async () => {
    const from = `${net}.2`;
    const before = recorder.seen.length;
    const wrong = (i: number) => signIn(base(), `spray-${run}-${i}@demo.test`, 'Wrong1234!', from);
    // 50 at full speed, in parallel; then the address is slowed down, not shut.
    const { answers } = await burst(50, wrong);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 400));
    for (let i = 50; i < 60; i++) {
      const { answer, waits } = await patiently(3, waitOut(kind), () => wrong(i));
      expect(answer.status).toBe(400);
      expect(waits.every((w) => w >= 1 && w <= SLOW_S)).toBe(true);
    }
    expect(upstreamCalls(LOGIN, before)).toBe(60);
    const { answer, waits } = await patiently(3, waitOut(kind), () =>
      signIn(base(), 'admin@demo.test', PASSWORD, from),
    );
    expect(answer.status).toBe(200);
    expect(waits.every((w) => w >= 1 && w <= SLOW_S)).toBe(true);
  });

  it('slows an account guessed from 25 addresses, and its owner still gets in', async () => {
    const before = recorder.seen.length;
    const { answers, slots } = await burst(25, (i) =>
      signIn(base(), 'viewer@demo.test', 'Wrong1234!', `${net}.${100 + i}`),
    );
    // 20 at full speed for the account over all addresses, then one per SLOW_S.
    expect(count(answers, 400)).toBeGreaterThanOrEqual(20);
    expect(count(answers, 400)).toBeLessThanOrEqual(20 + slots);
    expect(upstreamCalls(LOGIN, before)).toBe(count(answers, 400));
    for (const a of answers.filter((x) => x.status === 429)) expectRateLimited(a, SLOW_S);
    const owner = await patiently(3, waitOut(kind), () =>
      signIn(base(), 'viewer@demo.test', PASSWORD, `${net}.200`),
    );
    expect(owner.answer.status).toBe(200);
  });

  it('with TRUST_PROXY=1, a client rotating X-Forwarded-For behind a proxy stays limited', async () => {
    // Like nginx's $proxy_add_x_forwarded_for: the proxy appends the address it sees.
    const target = new URL(base());
    const proxy = createServer((req, res) => {
      const xff = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean);
      const up = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'x-forwarded-for': xff.join(', ') },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    const proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
    const from = `${net}.3`;
    const rotated = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` });
    try {
      // Single sign-on codes spend the same address budget (and cost the sandbox no password hash).
      const before = recorder.seen.length;
      const { answers, slots } = await burst(55, (i) =>
        post(
          proxyUrl,
          '/bff/login/saml',
          { tenantSlug: 'demo', code: `guess-${i}` },
          from,
          rotated(i),
        ),
      );
      expect(count(answers, 401)).toBeGreaterThanOrEqual(50);
      expect(count(answers, 401)).toBeLessThanOrEqual(50 + slots);
      expect(upstreamCalls(SAML, before)).toBe(count(answers, 401));
      for (const a of answers.filter((x) => x.status === 429)) expectRateLimited(a, SLOW_S);

      const password = await post(
        proxyUrl,
        '/bff/login',
        { username: `rotate-${run}@demo.test`, password: 'Wrong1234!' },
        from,
        rotated(200),
      );
      expectRateLimited(password, SLOW_S);
      // Another client behind the same proxy has a budget of its own.
      const other = await signIn(proxyUrl, 'admin@demo.test', PASSWORD, `${net}.4`);
      expect(other.status).toBe(200);
    } finally {
      await closeServer(proxy);
    }
  });
});

describe('Redis counters', () => {
  it('leave no key without an expiry', async () => {
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    try {
      const keys: string[] = [];
      for await (const batch of client.scanIterator({ MATCH: `bff:rl*:${redisPrefix}*` }))
        keys.push(...batch);
      expect(keys.length).toBeGreaterThan(0);
      // -2: a key that expired meanwhile; -1 would be a key that never goes.
      for (const k of keys) expect(await client.pTTL(k), k).not.toBe(-1);
      await client.del(keys);
    } finally {
      client.destroy();
    }
  });
});

describe('TRUST_PROXY warnings', () => {
  /** The warnings about TRUST_PROXY that a production server with `trustProxy` logs, at start and
   * while `during` runs against it. */
  async function warnings(
    trustProxy: string,
    during: (url: string) => Promise<unknown> = async () => {},
  ) {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const stack = await startStack(
      {
        NODE_ENV: 'production',
        SESSION_SECRET: 'a-production-secret-of-at-least-32-characters',
        UPSTREAM_URL: recorder.url,
        TRUST_PROXY: trustProxy,
      },
      { log: pino({ level: 'warn' }, sink) },
    );
    try {
      await during(stack.url);
    } finally {
      await stack.stop();
    }
    return lines.filter((l) => l.includes('TRUST_PROXY'));
  }
  const throughAProxy = (url: string) =>
    post(url, '/bff/login', { username: `proxied-${run}@demo.test`, password: 'x' }, '127.0.9.1', {
      'x-forwarded-for': '198.51.100.7',
    });

  it('warns at start when it is `true`, not when it is a hop count', async () => {
    expect(await warnings('true')).toHaveLength(1);
    expect(await warnings('1', throughAProxy)).toEqual([]);
  });

  it('warns once when sign-ins come through a proxy while it is `false`', async () => {
    const logged = await warnings('false', async (url) => {
      await throughAProxy(url);
      await throughAProxy(url);
    });
    expect(logged).toHaveLength(1);
  });
});
