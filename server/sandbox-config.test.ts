import { describe, expect, it } from 'vitest';
import { ConfigError } from '#server/config.ts';
import { loadSandboxConfig } from '#server/sandbox-config.ts';

describe('loadSandboxConfig', () => {
  it('listens on loopback, port 3001, PGlite under ./data by default', () => {
    expect(loadSandboxConfig({})).toEqual({
      production: false,
      logLevel: 'info',
      dataDir: './data',
      databaseUrl: undefined,
      accessTokenTtlSeconds: 3600,
      host: '127.0.0.1',
      port: 3001,
      s3: null,
      tools: true,
    });
  });

  it('keeps the tools that sign anyone in off in production unless SANDBOX_TOOLS=on', () => {
    expect(loadSandboxConfig({ NODE_ENV: 'production' }).tools).toBe(false);
    expect(loadSandboxConfig({ NODE_ENV: 'production', SANDBOX_TOOLS: 'on' }).tools).toBe(true);
    expect(loadSandboxConfig({ SANDBOX_TOOLS: 'off' }).tools).toBe(false);
    expect(() => loadSandboxConfig({ SANDBOX_TOOLS: 'yes' })).toThrow(/SANDBOX_TOOLS/);
  });

  it('takes the host, port, database and token lifetime it is given', () => {
    expect(
      loadSandboxConfig({
        SANDBOX_HOST: '0.0.0.0',
        SANDBOX_PORT: '0',
        DATABASE_URL: 'postgres://sandbox@db:5432/sandbox',
        SANDBOX_ACCESS_TOKEN_TTL: '20',
        NODE_ENV: 'production',
        // The BFF's variables are not the sandbox's business, whatever they hold.
        PORT: 'eighty',
      }),
    ).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      databaseUrl: 'postgres://sandbox@db:5432/sandbox',
      accessTokenTtlSeconds: 20,
      production: true,
    });
  });

  it('lists every bad value at once', () => {
    let error: unknown;
    try {
      // An empty value counts as unset, as for the BFF.
      loadSandboxConfig({ SANDBOX_PORT: '70000', DATABASE_URL: 'mysql://x', SANDBOX_HOST: '' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'DATABASE_URL must start with postgres:// or postgresql:// (got "mysql://x")',
      'SANDBOX_PORT must be 0-65535 (got 70000)',
    ]);
  });

  it('wants the S3 settings together or not at all', () => {
    expect(() => loadSandboxConfig({ S3_ENDPOINT: 'https://s3.example.com' })).toThrow(
      /S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together/,
    );
  });
});
