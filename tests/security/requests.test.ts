import { createServer, request, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import { closeServer, listen, recordingUpstream } from '#tests/support/net.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';

let sandbox: Awaited<ReturnType<typeof startStandaloneSandbox>>;
let recorder: Awaited<ReturnType<typeof recordingUpstream>>;
let stack: Stack;
// The sandbox's and the BFF's time of day: moved, not waited for.
const clock = new MovableClock();

beforeAll(async () => {
  // Tokens of 16 s: 6.5 s after sign-in they are inside the 10 s refresh margin, and a refreshed
  // one stays outside it for 6 s (so a second refresh would be a real duplicate, not a new need,
  // even on a loaded machine).
  sandbox = await startStandaloneSandbox(16, clock);
  recorder = await recordingUpstream(sandbox.url);
  stack = await startStack(
    { UPSTREAM_URL: recorder.url },
    {
      guestLimit: { max: 5, windowMs: 60_000 },
      clock,
    },
  );
});
afterAll(async () => {
  await stack?.stop();
  await recorder?.close();
  await sandbox?.close();
});

const upstreamCalls = (since: number) => recorder.seen.slice(since);
const intoRefreshMargin = () => clock.advance(6_500);

describe('response headers', () => {
  it('sends a strict CSP and the hardening headers on pages and API answers', async () => {
    for (const path of [
      '/',
      '/login',
      '/bff/session',
      '/api/0/tenantservice/v1/general',
      '/healthz',
    ]) {
      const res = await fetch(stack.url + path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("base-uri 'none'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain('unsafe-inline');
      // An upstream answer is JSON, never a page: its policy allows nothing at all.
      if (path.startsWith('/api/')) expect(csp, path).toMatch(/^default-src 'none'(;|$)/);
      else {
        expect(csp, path).toContain("object-src 'none'");
        expect(csp, path).toMatch(/script-src 'self'(;|$)/);
      }
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('same-origin');
      expect(res.headers.get('x-powered-by'), path).toBeNull();
    }
    for (const path of ['/bff/session', '/api/0/tenantservice/v1/general', '/bff/config']) {
      expect((await fetch(stack.url + path)).headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('allows no other origin (no CORS headers)', async () => {
    const res = await fetch(stack.url + '/bff/session', {
      headers: { origin: 'https://evil.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CSRF', () => {
  it('refuses state changes without X-CSRF and never calls the upstream', async () => {
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    const before = recorder.seen.length;
    const login = await a.json('/bff/login', {
      json: { username: 'admin@demo.test', password: 'Demo1234!' },
      csrf: false,
    });
    expect(login.status).toBe(403);
    expect(login.body.error).toBe('csrf');
    const put = await a.json('/api/0/tenantservice/v1/general', {
      method: 'PUT',
      json: { language: 'en' },
      csrf: false,
    });
    expect(put.status).toBe(403);
    const logout = await a.fetch('/bff/accounts/0/logout', { method: 'POST', csrf: false });
    expect(logout.status).toBe(403);
    expect(upstreamCalls(before)).toEqual([]);
    expect((await a.json('/bff/session')).body.accounts).toHaveLength(1);
  });
});

describe('proxy allowlist', () => {
  it('answers 404 for anything outside the allowlist and sends nothing upstream', async () => {
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    const before = recorder.seen.length;
    const paths = [
      '/api/0/authservice/v1/workspaces',
      '/api/0/evilservice/v1/x',
      '/api/0/tenantservice/../authservice/v1/workspaces',
      '/api/0/tenantservice/v1/%2e%2e/%2e%2e/authservice/v1/workspaces',
      '/api/0/tenantservice/v1/%252e%252e/%252e%252e/authservice/v1/workspaces',
      '/api/0/tenantservice/v1/..%2f..%2fauthservice/v1/workspaces',
      '/api/0/tenantservice/v1/..%5c..%5cauthservice',
      '/api/0//evil.example/x',
      '/api/0/http://evil.example/x',
      '/api/x/tenantservice/v1/general',
      '/api/guest/tenantservice/v1/users',
      '/api/guest/authservice/v1/workspaces',
    ];
    for (const p of paths) {
      const r = await a.fetch(p);
      expect(r.status, p).toBe(404);
    }
    const wrongMethod = await a.fetch('/api/guest/authservice/v1/saml-login-link?tenantSlug=demo', {
      method: 'POST',
    });
    expect(wrongMethod.status).toBe(404);
    expect(upstreamCalls(before)).toEqual([]);
  });

  it('keeps encoded slashes and dots (%2F, %252F, %2e%2e) inside the service they name', async () => {
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    // Sent byte for byte: fetch would resolve %2e%2e segments before they leave.
    const rawGet = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const { hostname, port } = new URL(stack.url);
        request({ hostname, port, path, headers: { cookie: a.cookie } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    const climbing = [
      '/api/0/tenantservice%2F..%2Fauthservice/v1/workspaces',
      '/api/0/tenantservice%252F..%252Fauthservice/v1/workspaces',
      '/api/0/tenantservice%2fv1/users',
      '/api/0/%2e%2e/authservice/v1/workspaces',
      '/api/0/tenantservice/%2e%2e/authservice/v1/workspaces',
      '/api/0/tenantservice/v1/%2e%2e%2f%2e%2e%2fauthservice/v1/workspaces',
      '/api/0/tenantservice/v1%2F..%2F..%2Fauthservice%2Fv1%2Fworkspaces',
      '/api/0/tenantservice/v1/users%2F..%2F..%2F..%2Fauthservice%2Fv1%2Fworkspaces',
      '/api/0/tenantservice/v1/users/%252F..%252F..%252F..%252Fauthservice%252Fv1',
      '/api/0/tenantservice/v1/users/..%252F..%252F..%252Fauthservice',
      '/api/0/tenantservice/v1/users/%252e%252e/%252e%252e/%252e%252e/authservice',
      '/api/guest/authservice%2Fv1%2Fsaml-login-link?tenantSlug=demo',
      '/api/guest/authservice/v1/saml-login-link%2F..%2F..%2Fworkspaces',
    ];
    const before = recorder.seen.length;
    for (const p of climbing) expect(await rawGet(p), p).toBe(404);
    expect(upstreamCalls(before)).toEqual([]);

    // An encoded slash that climbs nowhere may reach the service it names, and only that one.
    const within = ['/api/0/tenantservice/v1/users/a%2Fb', '/api/0/tenantservice/v1/users%2Fx'];
    for (const p of within) expect(await rawGet(p), p).toBeLessThan(500);
    for (const call of upstreamCalls(before)) {
      let path = call.path;
      for (let i = 0; i < 3; i++) path = decodeURIComponent(path);
      expect(path, call.path).toMatch(/^\/tenantservice\//);
      expect(path, call.path).not.toMatch(/(^|\/)\.\.?(\/|$)/);
    }
  });

  it('does not let a Host header steer the proxy', async () => {
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    const before = recorder.seen.length;
    const r = await a.fetch('/api/0/tenantservice/v1/general', {
      headers: { host: 'evil.example' },
    });
    expect(r.status).toBe(200);
    expect(upstreamCalls(before).at(-1)?.headers.host).toBe(new URL(recorder.url).host);
  });

  it('drops the client Cookie, Authorization and forwarding headers and adds the bearer', async () => {
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    const before = recorder.seen.length;
    const r = await a.fetch('/api/0/tenantservice/v1/general', {
      headers: {
        authorization: 'Bearer forged',
        'x-forwarded-for': '6.6.6.6',
        'x-forwarded-host': 'evil.example',
        forwarded: 'for=6.6.6.6',
      },
    });
    expect(r.status).toBe(200);
    const call = upstreamCalls(before).find((c) => c.path === '/tenantservice/v1/general')!;
    expect(call.headers.authorization).toMatch(/^Bearer eyJ/);
    expect(call.headers.cookie).toBeUndefined();
    expect(call.headers['x-forwarded-for']).toBeUndefined();
    expect(call.headers['x-forwarded-host']).toBeUndefined();
    expect(call.headers.forwarded).toBeUndefined();
    expect(call.headers['x-csrf']).toBeUndefined();
  });
});

describe('token refresh', () => {
  it('refreshes exactly once for 50 parallel calls near expiry', async () => {
    const a = new Agent(stack.url);
    await a.login('viewer@demo.test');
    intoRefreshMargin();
    const before = recorder.seen.length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        a.fetch('/api/0/tenantservice/v1/general').then((r) => r.status),
      ),
    );
    expect(answers.every((s) => s === 200)).toBe(true);
    const refreshes = upstreamCalls(before).filter(
      (c) => c.path === '/authservice/v1/refresh-token',
    );
    expect(refreshes).toHaveLength(1);
    // The refresh cookie goes to the auth service and nowhere else.
    expect(refreshes[0]!.headers.cookie).toMatch(/=/);
  });

  it('ends the account when the upstream refuses the refresh (user disabled)', async () => {
    const admin = new Agent(stack.url);
    await admin.login('admin@demo.test');
    const victim = new Agent(stack.url);
    const me = (await victim.login('care@demo.test')).body.account;
    expect((await victim.fetch('/api/0/tenantservice/v1/general')).status).toBe(200);

    const users = await admin.json(
      `/api/0/tenantservice/v1/users?filter=${encodeURIComponent('email=care@demo.test')}`,
    );
    const id = users.body.items[0].id;
    expect(
      (await admin.fetch(`/api/0/tenantservice/v1/users/${id}/disable`, { method: 'POST' })).status,
    ).toBe(200);

    // The upstream refuses the still-unexpired token at once; the BFF then refreshes, the refresh
    // is refused too, and the account is gone.
    expect((await victim.json('/api/0/tenantservice/v1/general')).status).toBe(401);
    const after = await victim.json('/api/0/tenantservice/v1/general');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: 'session_expired', accountIndex: 0 });
    expect((await victim.json('/bff/session')).body.accounts).toEqual([]);
    expect(me.userName).toBe('care@demo.test');
    await admin.fetch(`/api/0/tenantservice/v1/users/${id}/enable`, { method: 'POST' });
  });
});

describe('guest calls', () => {
  it('passes only allowlisted guest calls, without a bearer, and rate-limits them per address', async () => {
    const before = recorder.seen.length;
    const a = new Agent(stack.url);
    await a.login('admin@demo.test');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await a.fetch('/api/guest/authservice/v1/saml-login-link?tenantSlug=demo')).status,
      );
    }
    const sent = upstreamCalls(before).filter((c) =>
      c.path.startsWith('/authservice/v1/saml-login-link'),
    );
    expect(sent.length).toBeGreaterThan(0);
    // A guest call carries no account's token, even from a signed-in browser.
    expect(
      sent.every((c) => c.headers.authorization === undefined && c.headers.cookie === undefined),
    ).toBe(true);
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(sent).toHaveLength(5);
  });
});

describe('upstream answers', () => {
  // A fake upstream: the real sandbox never fails like this, a production service might.
  let answer: (res: ServerResponse) => void = (res) => res.end();
  const fake = createServer((req, res) => {
    req.resume();
    answer(res);
  });
  let bff: Stack;
  beforeAll(async () => {
    const port = await listen(fake);
    bff = await startStack({ UPSTREAM_URL: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await bff?.stop();
    await closeServer(fake);
  });
  // A guest call needs no sign-in, so the fake need not play the auth service.
  const call = () =>
    fetch(bff.url + '/api/guest/authservice/v1/saml-login-link?tenantSlug=demo', {
      redirect: 'manual',
    });

  it('passes only allowlisted headers and same-origin redirects', async () => {
    answer = (res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        etag: '"v1"',
        'x-request-id': 'req-1',
        server: 'Apache/2.4.1 (Unix)',
        'x-powered-by': 'PHP/5.1',
        'set-cookie': 'internal=1; Path=/',
        'x-internal-debug': 'db=10.0.0.5',
        'content-security-policy': 'default-src *',
        location: 'http://10.0.0.5:8080/internal',
      });
      res.end('{"link":"x"}');
    };
    const r = await call();
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ link: 'x' });
    expect(r.headers.get('etag')).toBe('"v1"');
    expect(r.headers.get('x-request-id')).toBe('req-1');
    for (const h of ['server', 'x-powered-by', 'set-cookie', 'x-internal-debug', 'location'])
      expect(r.headers.get(h), h).toBeNull();
    expect(r.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect(r.headers.get('cache-control')).toBe('no-store');

    for (const [location, passed] of [
      ['/login?next=1', true],
      ['//evil.example/x', false],
      ['/\\evil.example/x', false],
      ['https://evil.example/x', false],
    ] as const) {
      answer = (res) => res.writeHead(302, { location }).end();
      const redirect = await call();
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location'), location).toBe(passed ? location : null);
    }
  });

  it('answers an upstream 5xx in the JSON error shape, never its HTML or stack', async () => {
    answer = (res) => {
      res.writeHead(500, { 'content-type': 'text/html', server: 'nginx', 'x-debug': '1' });
      res.end(
        '<html><body><pre>TypeError: x is undefined\n    at /srv/app/handler.js:12:5</pre></body></html>',
      );
    };
    const html = await call();
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toMatch(/^application\/json/);
    expect(html.headers.get('server')).toBeNull();
    expect(html.headers.get('x-debug')).toBeNull();
    const body = await html.text();
    expect(JSON.parse(body)).toEqual({
      error: 'upstream_error',
      message: expect.any(String),
    });
    expect(body).not.toMatch(/<html|handler\.js|TypeError/);

    // The upstream's own error shape passes with its status, without anything else it carried.
    answer = (res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' });
      res.end(JSON.stringify({ error: 'maintenance', message: 'Back soon.', stack: 'at db.js:1' }));
    };
    const own = await call();
    expect(own.status).toBe(503);
    expect(own.headers.get('retry-after')).toBe('30');
    expect(await own.json()).toEqual({ error: 'maintenance', message: 'Back soon.' });

    // JSON that is not the error shape is no better than HTML.
    answer = (res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ trace: ['at db.js:1'] }));
    };
    const other = await call();
    expect(other.status).toBe(502);
    expect((await other.json()).error).toBe('upstream_error');
    expect((await fetch(bff.url + '/healthz')).status).toBe(200);
  });
});

describe('bad input', () => {
  it('answers malformed JSON with 400, a wrong type with 415, an oversized body with 413', async () => {
    const a = new Agent(stack.url);
    const malformed = await a.json('/bff/login', {
      method: 'POST',
      body: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('malformed_json');
    const form = await a.json('/bff/login', {
      method: 'POST',
      body: 'username=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const big = await a.json('/bff/login', {
      json: { username: 'a', password: 'x'.repeat(40_000) },
    });
    expect(big.status).toBe(413);
    const shape = await a.json('/bff/login', { json: { username: 42 } });
    expect(shape.status).toBe(400);
    expect(shape.body.error).toBe('bad_request');
    expect((await fetch(stack.url + '/healthz')).status).toBe(200);
  });

  it('answers CR/LF in a header and an oversized header with a 400 and keeps running', async () => {
    const port = Number(new URL(stack.url).port);
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        let out = '';
        const s = connect(port, '127.0.0.1', () => s.write(text));
        s.on('data', (d) => (out += d));
        s.on('close', () => resolve(out));
        s.on('error', () => resolve(out));
      });
    const crlf = await raw('GET /bff/session HTTP/1.1\r\nHost: x\r\nX-Evil: a\rb\r\n\r\n');
    expect(crlf).toMatch(/^HTTP\/1\.1 400/);
    const huge = await raw(
      `GET /bff/session HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1\.1 400/);
    expect((await fetch(stack.url + '/healthz')).status).toBe(200);
  });
});

describe('production mode behind a TLS proxy', () => {
  // A production stack seeds its own world (its settings are not the template's): in a hook, whose
  // time limit allows for a seed on a busy box, not in the test's 30 s.
  let prod: Stack;
  beforeAll(async () => {
    prod = await startStack({
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-production-secret-of-at-least-32-characters',
      TRUST_PROXY: '1',
    });
  });
  afterAll(() => prod?.stop());

  it('uses a Secure __Host- cookie, HSTS, and serves no inline script', async () => {
    const a = new Agent(prod.url);
    const login = await a.fetch('/bff/login', {
      json: { username: 'admin@demo.test', password: 'Demo1234!' },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/^__Host-bff\.sid=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/Domain=/i);

    const page = await fetch(prod.url + '/login');
    expect(page.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const html = await page.text();
    // Every <script> of the page comes from a file of this origin; none is inline.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((s) => /\bsrc="\/assets\//.test(s))).toBe(true);
    expect(html).not.toMatch(/<script\b[^>]*>\s*[^<\s]/);
  });
});
