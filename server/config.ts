import type { S3Settings } from '#server/sandbox/sandbox.ts';
import * as v from 'valibot';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = v.pipe(
  v.string(),
  v.regex(/^\d+$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(0, 'must be 0-65535'),
  v.maxValue(65535, 'must be 0-65535'),
);
const positiveSeconds = v.pipe(
  v.string(),
  v.regex(/^\d+$/, 'must be a whole number of seconds'),
  v.transform(Number),
  v.minValue(1, 'must be at least 1'),
);
const count = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be ${min}-${max}`),
    v.maxValue(max, `must be ${min}-${max}`),
  );
const url = (schemes: string[]) =>
  v.pipe(
    v.string(),
    v.url('must be a URL'),
    v.check(
      (s) => URL.canParse(s) && schemes.includes(new URL(s).protocol),
      `must start with ${schemes.map((p) => `${p}//`).join(' or ')}`,
    ),
  );

/** Environment variables, validated at start so a typo stops the process with a clear message
 * instead of surfacing later as a strange runtime error. Every value is a string in the env. */
export const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  PORT: v.optional(port, '3000'),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '0.0.0.0'),
  UPSTREAM_URL: v.optional(url(['http:', 'https:'])),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  DATABASE_URL: v.optional(url(['postgres:', 'postgresql:'])),
  REDIS_URL: v.optional(url(['redis:', 'rediss:'])),
  SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  APP_ENV: v.optional(
    v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]*$/, 'must be a lower-case name')),
    'local',
  ),
  // Normally the number of proxies in front that append to X-Forwarded-For (`1` behind one nginx):
  // the sign-in limits count per req.ip. `true` believes the address the client wrote (README).
  TRUST_PROXY: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(true|false|\d+|[\w.:/, -]+)$/, 'must be true, false, a hop count or addresses'),
    ),
    'false',
  ),
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  SANDBOX_ACCESS_TOKEN_TTL: v.optional(positiveSeconds, '3600'),
  SANDBOX_PORT: v.optional(port, '0'),
  SESSION_IDLE_TIMEOUT: v.optional(positiveSeconds, '1800'),
  SESSION_ABSOLUTE_TIMEOUT: v.optional(positiveSeconds, '43200'),
  UPSTREAM_TIMEOUT: v.optional(positiveSeconds, '30'),
  // Proxied calls with the upstream at once, and calls waiting for a slot (then 503).
  UPSTREAM_MAX_CONCURRENCY: v.optional(count(1, 10_000), '128'),
  UPSTREAM_MAX_QUEUE: v.optional(count(0, 100_000), '256'),
  // The same for the sandbox's object store (own connection pool), and its upload bodies.
  STORAGE_MAX_CONCURRENCY: v.optional(count(1, 10_000), '16'),
  STORAGE_MAX_QUEUE: v.optional(count(0, 100_000), '16'),
  STORAGE_BODY_TIMEOUT: v.optional(positiveSeconds, '55'),
  STORAGE_MIN_RATE: v.optional(count(0, 1_000_000_000), '1024'),
  // Document bytes in an S3-compatible store instead of the sandbox's own (all four or none).
  S3_ENDPOINT: v.optional(url(['http:', 'https:'])),
  S3_BUCKET: v.optional(
    v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')),
  ),
  S3_ACCESS_KEY_ID: v.optional(v.pipe(v.string(), v.minLength(1))),
  S3_SECRET_ACCESS_KEY: v.optional(v.pipe(v.string(), v.minLength(1))),
  S3_REGION: v.optional(
    v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/, 'must be a region name')),
    'eu-central-1',
  ),
  // The embedded sandbox's tester tools: password-free sign-in (/sandbox-idp) and the e-mail
  // outbox (/sandbox/outbox, /sandbox/mail). Default: on, but off when NODE_ENV=production.
  SANDBOX_TOOLS: v.optional(v.picklist(['on', 'off'], 'must be on or off')),
  // Where the real upstream's signed document addresses point (UPSTREAM_URL mode).
  STORAGE_ORIGIN: v.optional(url(['http:', 'https:'])),
  // The back office's address as people open it: the sandbox's e-mail links start with it.
  // Default: http://localhost:<the port the BFF is bound to>.
  PUBLIC_BASE_URL: v.optional(url(['http:', 'https:'])),
  // The Chromium the sandbox prints documents to PDF with. Default: Debian's, /usr/bin/chromium.
  CHROMIUM_PATH: v.optional(v.pipe(v.string(), v.minLength(1))),
});

export interface Config {
  production: boolean;
  port: number;
  host: string;
  upstreamUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  sessionSecret: string | undefined;
  appEnv: string;
  trustProxy: boolean | number | string;
  logLevel: (typeof LOG_LEVELS)[number];
  sandboxAccessTokenTtl: number;
  sandboxPort: number;
  /** Whether the sandbox serves its tester tools (identity-provider page, e-mail outbox). */
  sandboxTools: boolean;
  sessionIdleTimeoutMs: number;
  sessionAbsoluteTimeoutMs: number;
  upstreamTimeoutMs: number;
  /** Calls with the upstream at once / waiting for a slot, per pool. */
  upstreamLimits: { concurrency: number; queue: number };
  storageLimits: { concurrency: number; queue: number };
  /** Upload bodies through /storage: whole within the deadline, never slower than the rate. */
  storageBody: { deadlineMs: number; minBytesPerSecond: number };
  s3: S3Settings | null;
  /** The origin signed document addresses may point at; null: this origin's /storage/. */
  storageOrigin: string | null;
  /** The back office's public address (links in the sandbox's e-mails); null: this instance's
   * own address on localhost, known once it listens (PORT=0 picks a free port). */
  publicBaseUrl: string | null;
  /** The embedded sandbox's Chromium for PDFs; null: the sandbox's default. */
  chromiumPath: string | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Validates the variables a schema names; throws ConfigError listing every problem. */
export function parseEnv<S extends v.ObjectSchema<v.ObjectEntries, undefined>>(
  schema: S,
  env: Record<string, string | undefined>,
): v.InferOutput<S> {
  // Empty strings count as unset: `FOO= npm start` should mean the default, not an error.
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, value]) => k in schema.entries && value !== ''),
  );
  const result = v.safeParse(schema, present);
  if (!result.success) {
    throw new ConfigError(
      result.issues.map(
        (i) => `${v.getDotPath(i) ?? '?'} ${i.message} (got ${JSON.stringify(i.input)})`,
      ),
    );
  }
  return result.output;
}

type S3Env = Partial<
  Record<'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY', string>
> & { S3_REGION: string };

/** The S3 store's settings: all four variables or none (half a configuration is a mistake). */
export function s3SettingsOf(e: S3Env): S3Settings | null {
  const given = [e.S3_ENDPOINT, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY];
  if (given.some(Boolean) && !given.every(Boolean)) {
    throw new ConfigError([
      'S3 storage needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together',
    ]);
  }
  return e.S3_ENDPOINT
    ? {
        endpoint: e.S3_ENDPOINT,
        bucket: e.S3_BUCKET!,
        accessKeyId: e.S3_ACCESS_KEY_ID!,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
        region: e.S3_REGION,
      }
    : null;
}

/** Reads the configuration from an env-like record; throws ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const e = parseEnv(EnvSchema, env);
  const production = e.NODE_ENV === 'production';
  if (production && !e.SESSION_SECRET) {
    throw new ConfigError(['SESSION_SECRET is required when NODE_ENV=production']);
  }
  const s3 = s3SettingsOf(e);
  const tp = e.TRUST_PROXY;
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    upstreamUrl: e.UPSTREAM_URL?.replace(/\/+$/, ''),
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    sessionSecret: e.SESSION_SECRET,
    appEnv: e.APP_ENV,
    trustProxy: tp === 'true' ? true : tp === 'false' ? false : /^\d+$/.test(tp) ? Number(tp) : tp,
    logLevel: e.LOG_LEVEL,
    sandboxAccessTokenTtl: e.SANDBOX_ACCESS_TOKEN_TTL,
    sandboxPort: e.SANDBOX_PORT,
    // Anyone who reaches these signs in as anyone or reads reset links: never on by accident.
    sandboxTools: e.SANDBOX_TOOLS ? e.SANDBOX_TOOLS === 'on' : !production,
    sessionIdleTimeoutMs: e.SESSION_IDLE_TIMEOUT * 1000,
    sessionAbsoluteTimeoutMs: e.SESSION_ABSOLUTE_TIMEOUT * 1000,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT * 1000,
    upstreamLimits: { concurrency: e.UPSTREAM_MAX_CONCURRENCY, queue: e.UPSTREAM_MAX_QUEUE },
    storageLimits: { concurrency: e.STORAGE_MAX_CONCURRENCY, queue: e.STORAGE_MAX_QUEUE },
    storageBody: {
      deadlineMs: e.STORAGE_BODY_TIMEOUT * 1000,
      minBytesPerSecond: e.STORAGE_MIN_RATE,
    },
    s3: e.UPSTREAM_URL ? null : s3,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? null,
    chromiumPath: e.CHROMIUM_PATH ?? null,
    storageOrigin: e.UPSTREAM_URL
      ? (e.STORAGE_ORIGIN ?? null)
      : s3
        ? new URL(s3.endpoint).origin
        : null,
  };
}
