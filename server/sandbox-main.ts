// `npm run sandbox`: the stand-in upstream services as their own process, for several BFF
// instances (UPSTREAM_URL) to share. The embedded mode (`npm start` without UPSTREAM_URL) needs
// none of this.
import { ConfigError } from '#server/config.ts';
import { createLogger } from '#server/logger.ts';
import { loadSandboxConfig } from '#server/sandbox-config.ts';
import { startSandbox, type RunningSandbox } from '#server/sandbox/sandbox.ts';

let config;
try {
  config = loadSandboxConfig(process.env);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}
const log = createLogger(config.logLevel);

let sandbox: RunningSandbox;
try {
  sandbox = await startSandbox({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    logger: log,
    host: config.host,
    port: config.port,
    s3: config.s3,
    tools: config.tools,
    production: config.production,
  });
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  const hint =
    e.code === 'EADDRINUSE'
      ? `Port ${config.port} is in use. Stop the other process or set SANDBOX_PORT to a free port.`
      : e.code === 'ECONNREFUSED'
        ? `The database refused the connection (${e.message}). Check DATABASE_URL.`
        : `Sandbox start failed: ${e.message}`;
  console.error(hint);
  process.exit(1);
}
log.info(
  { url: sandbox.url, database: config.databaseUrl ? 'postgres' : 'pglite' },
  'sandbox ready',
);
// Scripts and tests read the port from this line (SANDBOX_PORT=0 picks a free one).
process.stdout.write(`\n  Sandbox is running at ${sandbox.url}\n\n`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'sandbox shutting down');
  try {
    await sandbox.close(10_000);
    process.exit(0);
  } catch (err) {
    log.error({ err: (err as Error).message }, 'sandbox shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
