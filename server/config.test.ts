import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      dataDir: './data',
      appEnv: 'local',
      logLevel: 'info',
      sandboxAccessTokenTtl: 3600,
      trustProxy: false,
      production: false,
      upstreamUrl: undefined,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      UPSTREAM_URL: 'https://api.example.com/',
      DATA_DIR: '/var/lib/app',
      DATABASE_URL: 'postgres://127.0.0.1:5432/test',
      REDIS_URL: 'redis://127.0.0.1:6379',
      APP_ENV: 'prodfunk',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      SANDBOX_ACCESS_TOKEN_TTL: '60',
    });
    expect(c.upstreamUrl).toBe('https://api.example.com');
    expect(c.trustProxy).toBe(1);
    expect(c.sandboxAccessTokenTtl).toBe(60);
    expect(c.appEnv).toBe('prodfunk');
  });

  it('bounds the proxy: calls with the upstream, calls waiting, and upload bodies', () => {
    expect(loadConfig({})).toMatchObject({
      upstreamLimits: { concurrency: 128, queue: 256 },
      storageLimits: { concurrency: 16, queue: 16 },
      storageBody: { deadlineMs: 55_000, minBytesPerSecond: 1024 },
    });
    const c = loadConfig({
      UPSTREAM_MAX_CONCURRENCY: '8',
      UPSTREAM_MAX_QUEUE: '0',
      STORAGE_MAX_CONCURRENCY: '2',
      STORAGE_MAX_QUEUE: '3',
      STORAGE_BODY_TIMEOUT: '10',
      STORAGE_MIN_RATE: '0',
    });
    expect(c.upstreamLimits).toEqual({ concurrency: 8, queue: 0 });
    expect(c.storageLimits).toEqual({ concurrency: 2, queue: 3 });
    expect(c.storageBody).toEqual({ deadlineMs: 10_000, minBytesPerSecond: 0 });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', UPSTREAM_URL: '' }).port).toBe(3000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['UPSTREAM_URL', 'not a url'],
    ['UPSTREAM_URL', 'ftp://x.example'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['LOG_LEVEL', 'loud'],
    ['SANDBOX_ACCESS_TOKEN_TTL', '0'],
    ['SANDBOX_ACCESS_TOKEN_TTL', '1h'],
    ['APP_ENV', 'Prod!'],
    ['SESSION_SECRET', 'short'],
    ['UPSTREAM_MAX_CONCURRENCY', '0'],
    ['UPSTREAM_MAX_QUEUE', '-1'],
    ['STORAGE_MAX_CONCURRENCY', 'many'],
    ['STORAGE_BODY_TIMEOUT', '0'],
    ['STORAGE_MIN_RATE', '1.5'],
    ['SANDBOX_TOOLS', 'yes'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    try {
      loadConfig({ [name]: value });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(name);
    }
  });

  it('requires SESSION_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET/);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) }).production).toBe(
      true,
    );
  });

  it('turns the sandbox tools off in production unless SANDBOX_TOOLS=on', () => {
    const prod = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) };
    expect(loadConfig({}).sandboxTools).toBe(true);
    expect(loadConfig({ SANDBOX_TOOLS: 'off' }).sandboxTools).toBe(false);
    expect(loadConfig(prod).sandboxTools).toBe(false);
    expect(loadConfig({ ...prod, SANDBOX_TOOLS: '' }).sandboxTools).toBe(false);
    expect(loadConfig({ ...prod, SANDBOX_TOOLS: 'on' }).sandboxTools).toBe(true);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).problems).toHaveLength(2);
    }
  });

  describe('document storage', () => {
    const s3 = {
      S3_ENDPOINT: 'https://s3.example.com',
      S3_BUCKET: 'claim-docs',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
    };

    it("keeps the files in the sandbox's own store unless S3 is configured", () => {
      expect(loadConfig({})).toMatchObject({ s3: null, storageOrigin: null });
    });

    it('uses an S3-compatible store with all four settings, and trusts its origin', () => {
      expect(loadConfig(s3)).toMatchObject({
        s3: { endpoint: s3.S3_ENDPOINT, bucket: 'claim-docs', region: 'eu-central-1' },
        storageOrigin: 'https://s3.example.com',
      });
    });

    it('refuses a partial S3 configuration and a bad bucket name', () => {
      expect(() => loadConfig({ ...s3, S3_SECRET_ACCESS_KEY: undefined })).toThrow(
        /S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together/,
      );
      expect(() => loadConfig({ ...s3, S3_BUCKET: 'Not_A_Bucket' })).toThrow(/S3 bucket name/);
    });

    it('with a real upstream, trusts the origin it is told and signs nothing itself', () => {
      expect(
        loadConfig({
          ...s3,
          UPSTREAM_URL: 'https://api.example.com',
          STORAGE_ORIGIN: 'https://files.example.com',
        }),
      ).toMatchObject({ s3: null, storageOrigin: 'https://files.example.com' });
    });
  });
});
