import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A production entry point as `npm start` (or `npm run sandbox`) runs it, in a child process. */
function start(env: Record<string, string>, entry = 'server/index.ts') {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

/** The address the process prints once it listens. */
function runningAt(p: ReturnType<typeof start>, line: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = line.exec(p.output());
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 100);
    void p.exited.then(() => reject(new Error(`exited early: ${p.output()}`)));
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

  it('starts, prints where to sign in, serves, and drains on SIGTERM with exit 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'proc-'));
    const p = start({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
    try {
      const url = await runningAt(p, /running at (http:\/\/localhost:\d+)/);
      expect(p.output()).toContain('admin@demo.test');
      expect((await fetch(url.replace('localhost', '127.0.0.1') + '/healthz')).status).toBe(200);
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    } finally {
      p.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** `npm run sandbox`: its own service for several BFF instances. */
const SANDBOX = 'server/sandbox-main.ts';

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
