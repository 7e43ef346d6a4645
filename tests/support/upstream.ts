import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '#common/clock.ts';
import { createLogger } from '#server/logger.ts';
import { startSandbox } from '#server/sandbox/sandbox.ts';
import { CHROMIUM_PATH } from './chromium.ts';

/** The real sandbox on its own, for tests that put something (a recorder, a relay) between it
 * and the BFF, and start the BFF with UPSTREAM_URL. */
export async function startStandaloneSandbox(accessTokenTtlSeconds = 3600, clock?: Clock) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sbx-it-'));
  const sandbox = await startSandbox({
    dataDir,
    accessTokenTtlSeconds,
    logger: createLogger('silent'),
    tools: true,
    chromiumPath: CHROMIUM_PATH,
    ...(clock ? { clock } : {}),
  });
  return {
    url: sandbox.url,
    port: Number(new URL(sandbox.url).port),
    async close() {
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
