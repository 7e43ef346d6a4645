import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '#server/sandbox/platform/db.ts';
import { growPolicies } from '#server/sandbox/services/insurance/seed-policies.ts';
import { startStack } from '#tests/support/stack.ts';

export interface PolicyWorld {
  dataDir: string;
  /** Policies of the demo workspace after growing. */
  policies: number;
  /** Growing the demo workspace to the count (the seed command's work), seconds. */
  growSeconds: number;
  /** Removes the data directory unless it was given (then it is kept for the next run). */
  dispose(): Promise<void>;
}

/**
 * A data directory whose demo workspace holds at least `count` policies: a first start seeds the
 * demo world (skipped when `dataDir` already has one), then the growth of `npm run seed:policies`
 * (`growPolicies`) with PGlite closed, since one process may open it at a time.
 */
export async function preparePolicyWorld(count: number, dataDir?: string): Promise<PolicyWorld> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'bench-policies-')));
  if (!existsSync(join(dir, 'sandbox-db', 'PG_VERSION'))) {
    await (await startStack({}, { dataDir: dir })).stop(false);
  }
  const db = await openPglite(dir);
  const started = performance.now();
  let policies: number;
  try {
    policies = (await growPolicies(db, 'demo', count)).after;
  } finally {
    await db.close();
  }
  return {
    dataDir: dir,
    policies,
    growSeconds: (performance.now() - started) / 1000,
    dispose: async () => {
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
