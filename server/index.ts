import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '#server/config.ts';
import { createLogger } from '#server/logger.ts';
import { startServer } from '#server/start.ts';

let config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}
const log = createLogger(config.logLevel);

// A fresh checkout has no client build; build it once so `npm start` is all a newcomer needs.
const clientIndex = fileURLToPath(new URL('../dist/client/index.html', import.meta.url));
if (!existsSync(clientIndex)) {
  log.info('no client build found; building it now (once)');
  const { build } = await import('vite');
  await build({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}

let running: Awaited<ReturnType<typeof startServer>>;
try {
  running = await startServer(config, log);
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  // The usual first-run problems get a sentence, not a stack trace.
  const hint =
    e.code === 'EADDRINUSE'
      ? `Port ${config.port} is in use. Stop the other process or set PORT to a free port.`
      : e.code === 'ECONNREFUSED'
        ? `A configured service refused the connection (${e.message}). Check DATABASE_URL / REDIS_URL.`
        : `Start failed: ${e.message}`;
  console.error(hint);
  process.exit(1);
}
const shown = `http://localhost:${new URL(running.url).port}`;
log.info({ url: shown, upstream: config.upstreamUrl ?? 'embedded sandbox' }, 'ready');
process.stdout.write(
  `\n  Insurance back office is running at ${shown}\n` +
    (config.upstreamUrl
      ? `  Upstream: ${config.upstreamUrl}\n\n`
      : `  Sign in with admin@demo.test / Demo1234! (more demo users in README.md)\n\n`),
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  try {
    // Within the 30 s a container orchestrator usually grants before it kills.
    await running.close(20_000);
    process.exit(0);
  } catch (err) {
    log.error({ err: (err as Error).message }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
