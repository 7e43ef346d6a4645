// Helpers for the sandbox's integration tests: real HTTP against a real sandbox, no mocks.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { startSandbox, type RunningSandbox, type SandboxOptions } from './sandbox.ts';
import type { Queryable } from './platform/db.ts';
import { sha256 } from './platform/crypto.ts';
import type { EvaluationContext } from '#common/expression/evaluate.ts';
import { lookupRange, type RangeBand } from '#common/named-range.ts';
import { lookupFactor, type FactorTable } from './services/insurance/product-factor-csv.ts';

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
  return startSandbox({
    dataDir,
    accessTokenTtlSeconds: 3600,
    logger: silentLogger,
    tools: true,
    // As the test machines' Chromium is found (tests/support/chromium.ts), for printed documents.
    ...(process.env.CHROMIUM_PATH ? { chromiumPath: process.env.CHROMIUM_PATH } : {}),
    ...extra,
  });
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

/** A sandbox on a PostgreSQL database of its own; closing it drops the database and its folder. */
export async function startPostgresSandbox(): Promise<RunningSandbox> {
  const database = await createTestDatabase();
  const tmp = await makeTempDir();
  const sandbox = await startTestSandbox(tmp.dir, { databaseUrl: database.url });
  return {
    ...sandbox,
    async close() {
      await sandbox.close();
      await database.drop();
      await tmp.remove();
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

/**
 * A single sign-on code from the sandbox's identity-provider page: picks the user there by e-mail
 * and reads the code from the redirect to the app's `/login/saml`.
 */
export async function idpCode(base: string, tenantSlug: string, email: string): Promise<string> {
  const page = await api(base, `/sandbox-idp/login?tenantSlug=${tenantSlug}`);
  const match = new RegExp(
    `<option value="(usr_[0-9a-f]+)">[^<]*&#60;${email.replace(/\./g, '\\.')}&#62;`,
  ).exec(page.body);
  if (!match?.[1]) throw new Error(`user ${email} not on the IdP page`);
  const res = await fetch(`${base}/sandbox-idp/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ tenantSlug, user: match[1] }).toString(),
    redirect: 'manual',
  });
  const location = new URL(res.headers.get('location') ?? '', 'http://sandbox.test');
  if (res.status !== 303 || location.pathname !== '/login/saml')
    throw new Error(`the IdP answered ${res.status} to ${location.pathname}`);
  if (location.searchParams.get('tenantSlug') !== tenantSlug)
    throw new Error(`the IdP sent ${location.search}, not tenantSlug=${tenantSlug}`);
  return location.searchParams.get('code') ?? '';
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

/**
 * The factor and range lookups of a product version as its API answers them, so that a test can
 * evaluate the version's formulas as the service does.
 */
export async function lookupsFor(
  base: string,
  token: string,
  productVersionId: number,
): Promise<Pick<EvaluationContext, 'factor' | 'range'>> {
  const I = '/insuranceservice/v1';
  const [factors, ranges] = await Promise.all([
    api(base, `${I}/product-factors/for-version?productVersionId=${productVersionId}`, { token }),
    api(base, `${I}/named-ranges?filter=productVersionId=${productVersionId}&pageSize=1000000`, {
      token,
    }),
  ]);
  if (factors.status !== 200 || ranges.status !== 200) {
    throw new Error(`lookups of version ${productVersionId}: ${factors.status}, ${ranges.status}`);
  }
  const tables = factors.body.values as Record<string, FactorTable>;
  const bands = new Map<string, RangeBand[]>(
    (ranges.body.items as { name: string; bands: RangeBand[] }[]).map((r) => [r.name, r.bands]),
  );
  return {
    factor: (table, keys) => (tables[table] ? lookupFactor(tables[table], keys) : undefined),
    range: (name, value) => {
      const found = bands.get(name);
      return found ? lookupRange(found, value) : undefined;
    },
  };
}

/**
 * A multipart upload as a browser sends it: form fields and one file named `file` (CSV unless
 * its type says otherwise), POST unless `method` says otherwise.
 */
export async function apiUpload(
  base: string,
  route: string,
  opts: {
    method?: string;
    token?: string;
    fields?: Record<string, string>;
    file?: { name: string; text: string; type?: string };
  },
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(opts.fields ?? {})) form.set(name, value);
  if (opts.file) {
    const blob = new Blob([opts.file.text], { type: opts.file.type ?? 'text/csv' });
    form.set('file', blob, opts.file.name);
  }
  const res = await fetch(base + route, {
    method: opts.method ?? 'POST',
    headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
    body: form,
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('application/json');
  return {
    status: res.status,
    body: json ? JSON.parse(text) : text,
    headers: res.headers,
    cookie: null,
  };
}

/** Gives a seeded user of the test's own sandbox one new role with exactly these permissions. */
export async function userWithPermissions(
  base: string,
  admin: Session,
  email: string,
  code: string,
  permissions: string[],
): Promise<Session> {
  const role = await api(base, '/tenantservice/v1/roles', {
    token: admin.accessToken,
    body: { code, label: code, permissions },
  });
  if (role.status !== 201) throw new Error(`role ${code}: ${role.status}`);
  const users = await api(
    base,
    `/tenantservice/v1/users?filter=${encodeURIComponent(`email=${email}`)}`,
    { token: admin.accessToken },
  );
  const assigned = await api(
    base,
    `/tenantservice/v1/users/${users.body.items[0].id}/assign-roles`,
    {
      token: admin.accessToken,
      body: { roleCodes: [code] },
    },
  );
  if (assigned.status !== 200) throw new Error(`assign ${code}: ${assigned.status}`);
  return login(base, email);
}
