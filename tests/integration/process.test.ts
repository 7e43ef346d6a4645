import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The production entry point as `npm start` runs it, in a child process. */
function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
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
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /running at (http:\/\/localhost:\d+)/.exec(p.output());
          if (m) {
            clearInterval(timer);
            resolve(m[1]!);
          }
        }, 100);
        void p.exited.then(() => reject(new Error(`exited early: ${p.output()}`)));
      });
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
