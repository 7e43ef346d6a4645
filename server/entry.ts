import type { Logger } from 'pino';
import { ConfigError } from '#server/config.ts';

/** What both processes (`npm start`, `npm run sandbox`) do with their configuration: a bad value
 * stops the process with the message that names it and exit code 2, never a stack trace. */
export function configOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

/** The usual first-start failures as a sentence (exit code 1). `portVariable` names the setting. */
export function exitOnStartFailure(err: unknown, port: number, portVariable: string): never {
  const e = err as NodeJS.ErrnoException;
  const hint =
    e.code === 'EADDRINUSE'
      ? `Port ${port} is in use. Stop the other process or set ${portVariable} to a free port.`
      : e.code === 'ECONNREFUSED'
        ? `A configured service refused the connection (${e.message}). Check DATABASE_URL / REDIS_URL.`
        : `Start failed: ${e.message}`;
  console.error(hint);
  process.exit(1);
}

/** SIGTERM and SIGINT close once (`close` drains) and exit 0, or 1 when closing failed. */
export function stopOnSignals(log: Logger, close: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      await close();
      process.exit(0);
    } catch (err) {
      log.error({ err: (err as Error).message }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
