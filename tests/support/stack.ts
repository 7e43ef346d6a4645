import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import { loadConfig } from '#server/config.ts';
import { createLogger } from '#server/logger.ts';
import type { LoginLimits } from '#server/rate-limit.ts';
import { startServer, type Running } from '#server/start.ts';

export const PASSWORD = 'Demo1234!';

export interface Stack extends Running {
  dataDir: string;
  /** Stops the BFF (and the embedded sandbox); keeps the data directory unless `wipe`. */
  stop(wipe?: boolean): Promise<void>;
}

/** The real BFF and (unless UPSTREAM_URL is given) the real sandbox, on random ports and a fresh
 * data directory. Nothing is mocked. */
/** Where the integration run's seeded template data directory is (tests/support/stack-template.ts). */
export const STACK_TEMPLATE_ENV = 'TEST_STACK_TEMPLATE_DIR';
// Settings that leave the seeded world as the template has it: a stack with any other (its own
// database, a production mode, an outside upstream) seeds its own.
const COPY_SAFE = new Set([
  'PORT',
  'REDIS_URL',
  'SESSION_IDLE_TIMEOUT',
  'SANDBOX_ACCESS_TOKEN_TTL',
  'SANDBOX_PORT',
]);

export async function startStack(
  env: Record<string, string> = {},
  opts: {
    dataDir?: string;
    log?: Logger;
    loginLimits?: Partial<LoginLimits>;
    guestLimit?: { max: number; windowMs: number };
    /** The time of day of the BFF and the embedded sandbox: tests move it instead of sleeping. */
    clock?: Clock;
    /**
     * Seeds its own world instead of copying the run's template: for a test that reads what the
     * seed wrote with this instance's own address (the links of seeded e-mails).
     */
    ownSeed?: boolean;
  } = {},
): Promise<Stack> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'bff-it-')));
  const template = process.env[STACK_TEMPLATE_ENV];
  const copies =
    template &&
    !opts.dataDir &&
    !opts.clock &&
    !opts.ownSeed &&
    Object.keys(env).every((k) => COPY_SAFE.has(k));
  if (copies) await cp(template, dataDir, { recursive: true });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    APP_ENV: 'test',
    ...env,
  });
  const running = await startServer(
    config,
    opts.log ?? createLogger('silent'),
    {
      // Sign-in counters of their own: test files share one Redis and sign in as the same users.
      loginLimits: { keyPrefix: `test-${randomUUID()}:`, ...opts.loginLimits },
      ...(opts.guestLimit ? { guestLimit: opts.guestLimit } : {}),
    },
    opts.clock ? { clock: opts.clock } : {},
  );
  return {
    ...running,
    dataDir,
    async stop(wipe = true) {
      await running.close(200);
      if (wipe) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A logger for `startStack` whose lines a test can wait for: `next(text)` settles when a line
 * containing `text` is logged after the call. Ask before causing it, so that it cannot be missed.
 */
export function watchedLog(level: 'info' | 'warn' = 'info') {
  const waiting: { text: string; seen: () => void }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = chunk.toString();
      for (const w of waiting.filter((w) => line.includes(w.text))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.seen();
      }
      done();
    },
  });
  return {
    log: pino({ level }, sink),
    next(text: string): Promise<void> {
      return new Promise((seen) => waiting.push({ text, seen }));
    },
  };
}

/** A browser-like client: keeps the session cookie, sends X-CSRF on writes like the SPA does. */
export class Agent {
  cookie = '';
  constructor(readonly base: string) {}

  async fetch(path: string, init: RequestInit & { json?: unknown; csrf?: boolean } = {}) {
    const headers = new Headers(init.headers);
    const method = (init.method ?? (init.json !== undefined ? 'POST' : 'GET')).toUpperCase();
    if (this.cookie) headers.set('cookie', this.cookie);
    if (method !== 'GET' && method !== 'HEAD' && init.csrf !== false) headers.set('x-csrf', '1');
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const res = await fetch(this.base + path, {
      ...init,
      method,
      headers,
      body,
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      // An expired cookie is the server clearing it.
      this.cookie = /expires=Thu, 01 Jan 1970/i.test(c) ? '' : pair;
    }
    return res;
  }

  // Tests inspect answers loosely; each assertion states the shape it expects.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async json<T = any>(
    path: string,
    init: Parameters<Agent['fetch']>[1] = {},
  ): Promise<{ status: number; body: T; res: Response }> {
    const res = await this.fetch(path, init);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, res };
  }

  login(username: string, password = PASSWORD) {
    return this.json('/bff/login', { json: { username, password } });
  }
}
