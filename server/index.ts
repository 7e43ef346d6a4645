import { existsSync } from 'node:fs';
import { loadConfig } from '#server/config.ts';
import { configOrExit, exitOnStartFailure, stopOnSignals } from '#server/entry.ts';
import { createLogger } from '#server/logger.ts';
import { fromRoot } from '#server/paths.ts';
import { startServer } from '#server/start.ts';

const config = configOrExit(() => loadConfig(process.env));
const log = createLogger(config.logLevel);

// A fresh checkout has no client build; build it once so `npm start` is all a newcomer needs.
const clientIndex = fromRoot('dist/client/index.html');
if (!existsSync(clientIndex)) {
  log.info('no client build found; building it now (once)');
  const { build } = await import('vite');
  await build({
    configFile: fromRoot('vite.config.ts'),
    logLevel: 'warn',
  });
}

let running: Awaited<ReturnType<typeof startServer>>;
try {
  running = await startServer(config, log);
} catch (err) {
  exitOnStartFailure(err, config.port, 'PORT');
}
const shown = `http://localhost:${new URL(running.url).port}`;
log.info(
  {
    url: shown,
    upstream: config.upstreamUrl ?? 'embedded sandbox',
    ...(config.upstreamUrl ? {} : { sandboxTools: config.sandboxTools ? 'on' : 'off' }),
  },
  'ready',
);
process.stdout.write(
  `\n  Insurance back office is running at ${shown}\n` +
    (config.upstreamUrl
      ? `  Upstream: ${config.upstreamUrl}\n\n`
      : `  Sign in with admin@demo.test / Demo1234! (more demo users in README.md)\n\n`),
);

// Within the 30 s a container orchestrator usually grants before it kills.
stopOnSignals(log, () => running.close(20_000));
