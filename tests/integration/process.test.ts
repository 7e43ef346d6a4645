import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { get, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '#scripts/build-server.ts';
import { holdingUpstream } from '#tests/support/hold.ts';
import { Agent } from '#tests/support/stack.ts';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';

/**
 * The server built ahead of time, as the container runs it: plain `node` on the bundle (no tsx),
 * into a folder of its own inside the project (the bundle finds migrations, locales and the client
 * build from the project root above it).
 */
const bundle = join('.tmp', `server-bundle-${process.pid}`);
beforeAll(() => buildServer(bundle), 60_000);
afterAll(() => rm(bundle, { recursive: true, force: true }));

/** A production entry point as `npm start` (or `npm run sandbox`) runs it, in a child process. */
function start(env: Record<string, string>, entry = 'index.js') {
  const child = spawn(process.execPath, ['--enable-source-maps', join(bundle, entry)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

/** What the process prints (its address, a shutdown step): the first group of `line`, looked for
 * in each piece of its output. */
function runningAt(p: ReturnType<typeof start>, line: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const streams = [p.child.stdout, p.child.stderr];
    // Listens after start's own listeners, so the output read here already holds the piece.
    const look = () => {
      const m = line.exec(p.output());
      if (!m) return;
      for (const s of streams) s.off('data', look);
      resolve(m[1]!);
    };
    for (const s of streams) s.on('data', look);
    look();
    void p.exited.then(() => reject(new Error(`exited early: ${p.output()}`)));
  });
}

/** The address the started BFF prints once it serves. */
const servingAt = async (p: ReturnType<typeof start>) =>
  (await runningAt(p, /running at (http:\/\/localhost:\d+)/)).replace('localhost', '127.0.0.1');

function refused(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(Number(new URL(url).port), '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('the server process', () => {
  it('refuses a bad configuration with a clear message and a non-zero exit', async () => {
    const p = start({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain('Invalid configuration');
    expect(p.output()).toContain('PORT');
    expect(p.output()).toContain('LOG_LEVEL');
  });

  it('stops with a sentence when a configured Redis is not there', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'proc-'));
    try {
      const p = start({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        REDIS_URL: 'redis://127.0.0.1:1',
      });
      expect(await p.exited).toBe(1);
      expect(p.output()).toMatch(/Redis at redis:\/\/127\.0\.0\.1:1 is unreachable/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('starts, prints where to sign in and serves', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'proc-'));
    const p = start({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
    try {
      const url = await servingAt(p);
      expect(p.output()).toContain('admin@demo.test');
      expect((await fetch(url + '/healthz')).status).toBe(200);
      // What the bundle reads from files at run time: the sandbox's SQL migrations and seed (a
      // demo user signs in), the widget script, the client build and the locales.
      expect((await new Agent(url).login('admin@demo.test')).status).toBe(200);
      expect(await (await fetch(url + '/chat-widget/1/widget.js')).text()).toContain('widget');
      expect(await (await fetch(url + '/')).text()).toContain('<div id="root">');
      expect((await fetch(url + '/locales/de/common.json')).status).toBe(200);
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    } finally {
      p.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('drains on SIGTERM: refuses new connections, finishes the request and refresh in flight, exits 0', async () => {
    // The child's clock is the system's, out of this test's reach; the sandbox's is not. Running
    // 9.5 s behind, it issues 12 s tokens that the child finds inside its 10 s refresh margin at
    // once, so that the next call refreshes without waiting for that moment.
    const sandbox = await startStandaloneSandbox(12, { now: () => Date.now() - 9_500 });
    const upstream = await holdingUpstream(sandbox.url, (path) => path.includes('/refresh-token'));
    const dataDir = await mkdtemp(join(tmpdir(), 'proc-'));
    // At info, so that the child says when it stops listening.
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      UPSTREAM_URL: upstream.url,
      LOG_LEVEL: 'info',
    };
    let p = start(env);
    try {
      const url = await servingAt(p);
      const a = new Agent(url);
      const login = await a.login('admin@demo.test');
      expect(login.status).toBe(200);

      // A proxied call whose refresh has rotated the token upstream but not yet answered.
      upstream.hold();
      const slow = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
        const req = get(`${url}/api/0/tenantservice/v1/general`, { headers: { cookie: a.cookie } });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ res, body }));
        });
        req.on('error', reject);
      });
      await upstream.whenHeld(1);

      p.child.kill('SIGTERM');
      await runningAt(p, /"msg":"(stopped listening)"/);
      expect(await refused(url)).toBe(true);
      upstream.release();
      const { res } = await slow;
      expect(res.statusCode).toBe(200);
      expect(res.headers.connection).toBe('close');
      expect(await p.exited).toBe(0);

      // The rotated refresh token reached the store before the exit: after a restart the
      // session is there and its next refresh succeeds.
      p = start(env);
      const again = new Agent(await servingAt(p));
      again.cookie = a.cookie;
      const session = await again.json('/bff/session');
      expect(session.body.accounts).toHaveLength(1);
      expect((await again.json('/api/0/tenantservice/v1/general')).status).toBe(200);
    } finally {
      p.child.kill('SIGKILL');
      await upstream.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

/** `npm run sandbox`: its own service for several BFF instances. */
const SANDBOX = 'sandbox-main.js';

describe('the standalone sandbox process', () => {
  it('refuses a bad configuration with a clear message and exit 2', async () => {
    const p = start({ SANDBOX_PORT: 'x', DATABASE_URL: 'mysql://nope' }, SANDBOX);
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain('Invalid configuration');
    expect(p.output()).toContain('SANDBOX_PORT');
    expect(p.output()).toContain('DATABASE_URL');
  });

  it('runs on PGlite under DATA_DIR, answers, and stops on SIGTERM with exit 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sbx-proc-'));
    const p = start({ SANDBOX_PORT: '0', SANDBOX_HOST: '127.0.0.1', DATA_DIR: dataDir }, SANDBOX);
    try {
      const url = await runningAt(p, /running at (http:\/\/127\.0\.0\.1:\d+)/);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      const login = await fetch(`${url}/authservice/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin@demo.test', password: 'Demo1234!' }),
      });
      expect(login.status).toBe(200);
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    } finally {
      p.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
