import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, type Db } from '#server/sandbox/platform/db.ts';
import { writePageToken } from '#server/sandbox/platform/list-keyset.ts';
import { growPolicies } from '#server/sandbox/services/insurance/seed-policies.ts';
import { startStack } from '#tests/support/stack.ts';

export interface GrownWorld<T = undefined> {
  dataDir: string;
  /** Rows of the demo workspace after growing. */
  count: number;
  /** Growing the demo workspace to the count (the seed command's work), seconds. */
  growSeconds: number;
  /** What `read` found in the grown database (a deep page's token, say). */
  found: T;
  /** Removes the data directory unless it was given (then it is kept for the next run). */
  dispose(): Promise<void>;
}

/**
 * A data directory whose demo workspace was grown by a seed command's code: a first start seeds
 * the demo world (skipped when `dataDir` already has one), then `grow` (timed) and `read` run
 * with the stack stopped and PGlite opened here, since one process may open it at a time.
 */
export async function prepareGrownWorld<T = undefined>(opts: {
  dataDir?: string | undefined;
  /** The temporary directory's name, when none is given. */
  prefix: string;
  /** Grows the demo workspace; answers its rows afterwards. */
  grow: (db: Db) => Promise<number>;
  read?: (db: Db, count: number) => Promise<T>;
}): Promise<GrownWorld<T>> {
  const dir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), opts.prefix)));
  if (!existsSync(join(dir, 'sandbox-db', 'PG_VERSION'))) {
    await (await startStack({}, { dataDir: dir })).stop(false);
  }
  const db = await openPglite(dir);
  try {
    const started = performance.now();
    const count = await opts.grow(db);
    const growSeconds = (performance.now() - started) / 1000;
    return {
      dataDir: dir,
      count,
      growSeconds,
      found: (await opts.read?.(db, count)) as T,
      dispose: async () => {
        if (!opts.dataDir) await rm(dir, { recursive: true, force: true });
      },
    };
  } finally {
    await db.close();
  }
}

export interface PolicyWorld {
  dataDir: string;
  /** Policies of the demo workspace after growing. */
  policies: number;
  /** Growing the demo workspace to the count (the seed command's work), seconds. */
  growSeconds: number;
  /** Removes the data directory unless it was given (then it is kept for the next run). */
  dispose(): Promise<void>;
}

/** A data directory whose demo workspace holds at least `count` policies (`npm run seed:policies`). */
export async function preparePolicyWorld(count: number, dataDir?: string): Promise<PolicyWorld> {
  const world = await prepareGrownWorld({
    dataDir,
    prefix: 'bench-policies-',
    grow: async (db) => (await growPolicies(db, 'demo', count)).after,
  });
  return { ...world, policies: world.count };
}

/**
 * The keyset token a newest-first list of the demo workspace hands out after page `deepPage - 1`
 * (its last row, in the list's order and with its sort value as text), read from the grown
 * database: what the invoice list and the workflow monitor benches ask for as their deep page.
 * `table` and `column` are the bench's own constants, never input.
 */
export async function deepPageToken(
  db: Db,
  o: {
    table: string;
    column: string;
    field: string;
    deepPage: number;
    pageSize: number;
    total: number;
    tooFew: string;
  },
): Promise<string> {
  const [last] = await db.query<{ id: number; value: string }>(
    `SELECT i.id, i.${o.column}::text AS value FROM ${o.table} i
       JOIN tenants t ON t.id = i.tenant_id AND t.slug = 'demo'
      ORDER BY i.${o.column} DESC, i.id DESC OFFSET $1 LIMIT 1`,
    [(o.deepPage - 1) * o.pageSize - 1],
  );
  if (!last) throw new Error(`fewer than ${o.deepPage} pages: ${o.tooFew}`);
  return writePageToken(
    o.deepPage,
    last.id,
    'DESC',
    { field: o.field, value: last.value },
    o.total,
  );
}
