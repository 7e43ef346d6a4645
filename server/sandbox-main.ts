// `npm run sandbox`: the stand-in upstream services as their own process, for several BFF
// instances (UPSTREAM_URL) to share. The embedded mode (`npm start` without UPSTREAM_URL) needs
// none of this.
import { configOrExit, exitOnStartFailure, stopOnSignals } from '#server/entry.ts';
import { createLogger } from '#server/logger.ts';
import { loadSandboxConfig } from '#server/sandbox-config.ts';
import { startSandbox, type RunningSandbox } from '#server/sandbox/sandbox.ts';

const config = configOrExit(() => loadSandboxConfig(process.env));
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
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
    ...(config.chromiumPath ? { chromiumPath: config.chromiumPath } : {}),
  });
} catch (err) {
  exitOnStartFailure(err, config.port, 'SANDBOX_PORT');
}
log.info(
  { url: sandbox.url, database: config.databaseUrl ? 'postgres' : 'pglite' },
  'sandbox ready',
);
// Scripts and tests read the port from this line (SANDBOX_PORT=0 picks a free one).
process.stdout.write(`\n  Sandbox is running at ${sandbox.url}\n\n`);

stopOnSignals(log, () => sandbox.close(10_000));
