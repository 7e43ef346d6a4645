import * as v from 'valibot';
import { EnvSchema, parseEnv, s3SettingsOf } from '#server/config.ts';
import type { S3Settings } from '#server/sandbox/sandbox.ts';

const e = EnvSchema.entries;

/** The standalone sandbox's environment: the BFF's validators for the variables both read, so a
 * value means the same in either process, plus where the sandbox itself listens. */
export const SandboxEnvSchema = v.object({
  NODE_ENV: e.NODE_ENV,
  LOG_LEVEL: e.LOG_LEVEL,
  DATA_DIR: e.DATA_DIR,
  DATABASE_URL: e.DATABASE_URL,
  SANDBOX_ACCESS_TOKEN_TTL: e.SANDBOX_ACCESS_TOKEN_TTL,
  SANDBOX_TOOLS: e.SANDBOX_TOOLS,
  // Loopback by default: the sandbox hands out tokens; a container sets 0.0.0.0 on purpose.
  SANDBOX_HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '127.0.0.1'),
  SANDBOX_PORT: v.optional(e.SANDBOX_PORT.wrapped, '3001'),
  S3_ENDPOINT: e.S3_ENDPOINT,
  S3_BUCKET: e.S3_BUCKET,
  S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
  S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
  S3_REGION: e.S3_REGION,
  PUBLIC_BASE_URL: e.PUBLIC_BASE_URL,
  CHROMIUM_PATH: e.CHROMIUM_PATH,
});

export interface SandboxConfig {
  production: boolean;
  logLevel: v.InferOutput<typeof SandboxEnvSchema>['LOG_LEVEL'];
  dataDir: string;
  databaseUrl: string | undefined;
  accessTokenTtlSeconds: number;
  host: string;
  port: number;
  s3: S3Settings | null;
  /** The dev-only tools (/sandbox-idp, /sandbox/*): on outside production unless SANDBOX_TOOLS. */
  tools: boolean;
  /** The back office's public address (links in e-mails); the sandbox's default if unset. */
  publicBaseUrl: string | undefined;
  /** The Chromium that prints documents to PDF; the sandbox's default if unset. */
  chromiumPath: string | undefined;
}

/** Reads the standalone sandbox's configuration; throws ConfigError listing every problem. */
export function loadSandboxConfig(env: Record<string, string | undefined>): SandboxConfig {
  const c = parseEnv(SandboxEnvSchema, env);
  return {
    production: c.NODE_ENV === 'production',
    logLevel: c.LOG_LEVEL,
    dataDir: c.DATA_DIR,
    databaseUrl: c.DATABASE_URL,
    accessTokenTtlSeconds: c.SANDBOX_ACCESS_TOKEN_TTL,
    host: c.SANDBOX_HOST,
    port: c.SANDBOX_PORT,
    tools: c.SANDBOX_TOOLS ? c.SANDBOX_TOOLS === 'on' : c.NODE_ENV !== 'production',
    s3: s3SettingsOf(c),
    publicBaseUrl: c.PUBLIC_BASE_URL,
    chromiumPath: c.CHROMIUM_PATH,
  };
}
