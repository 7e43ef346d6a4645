// Helpers for the sandbox's integration tests: real HTTP against a real sandbox, no mocks.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { startSandbox, type RunningSandbox, type SandboxOptions } from './sandbox.ts';
import type { Queryable } from './db.ts';
import { sha256 } from './crypto.ts';

export const PASSWORD = 'Demo1234!';
export const silentLogger = pino({ level: 'silent' });

export async function makeTempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-test-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function startTestSandbox(
  dataDir: string,
  extra: Partial<SandboxOptions> = {},
): Promise<RunningSandbox> {
  return startSandbox({ dataDir, accessTokenTtlSeconds: 3600, logger: silentLogger, ...extra });
}

export interface ApiResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests poke at shapes
  headers: Headers;
  /** `name=value` of the refresh cookie the response set, if any. */
  cookie: string | null;
}

export interface ApiOptions {
  method?: string;
  body?: unknown;
  rawBody?: string;
  token?: string;
  cookie?: string | null;
  headers?: Record<string, string>;
}

export async function api(
  base: string,
  route: string,
  opts: ApiOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined || opts.rawBody !== undefined)
    headers['content-type'] ??= 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(base + route, {
    method: opts.method ?? (opts.body !== undefined || opts.rawBody !== undefined ? 'POST' : 'GET'),
    headers,
    body: opts.rawBody ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
    redirect: 'manual',
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json')) body = JSON.parse(text);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('refreshToken='));
  return {
    status: res.status,
    body,
    headers: res.headers,
    cookie: setCookie?.split(';')[0] ?? null,
  };
}

export interface Session {
  accessToken: string;
  permissions: string;
  cookie: string;
}

export async function login(base: string, username: string, password = PASSWORD): Promise<Session> {
  const res = await api(base, '/authservice/v1/login', { body: { username, password } });
  if (res.status !== 200 || !res.body.accessToken || !res.cookie) {
    throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return {
    accessToken: res.body.accessToken,
    permissions: res.body.permissions,
    cookie: res.cookie,
  };
}

/** A throwaway PostgreSQL database per test file, dropped afterwards. */
export async function createTestDatabase(
  adminUrl = process.env.SANDBOX_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sandbox_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  link: string | null;
  createdAt: string;
}

/** The newest e-mail the sandbox "sent" to an address, as e2e tests read it. */
export async function latestMail(base: string, to: string): Promise<OutboxMail | undefined> {
  const res = await api(base, `/sandbox/outbox?to=${encodeURIComponent(to)}`);
  if (res.status !== 200) throw new Error(`outbox answered ${res.status}`);
  return (res.body.items as OutboxMail[])[0];
}

/** Reads one query parameter of a relative link from an e-mail. */
export function linkParam(link: string | null | undefined, name: string): string {
  const value = new URL(link ?? '', 'http://sandbox.test').searchParams.get(name);
  if (!value) throw new Error(`link ${link} has no ${name}`);
  return value;
}

/** Makes a token look expired, as if its lifetime had passed, without waiting for it. */
export async function expireToken(
  db: Queryable,
  table: 'invites' | 'organization_invitations' | 'password_reset_tokens',
  token: string,
): Promise<void> {
  const rows = await db.query(
    `UPDATE ${table} SET expires_at = now() - interval '1 minute' WHERE token_hash = $1
     RETURNING id`,
    [sha256(token)],
  );
  if (rows.length !== 1) throw new Error(`no ${table} row for that token`);
}
