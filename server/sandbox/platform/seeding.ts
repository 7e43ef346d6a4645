import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, Queryable } from './db.ts';

/**
 * What the services' demo seeds share: values derived from a record's index, so that two seeds
 * produce the same world, and bulk inserts of generated rows.
 */

export const DAY_MS = 86_400_000;

/** A stable hex code per tenant, kind and index, shaped like the random codes of the API. */
export const stableCode = (prefix: string, seed: string) =>
  `${prefix}_${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`;

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Scatters the index over a field so that neighbouring policies do not look alike. */
export const mix = (i: number, salt: number) => ((i + 1) * 2_654_435_761 + salt * 40_503) >>> 0;

/** Columns of one table, filled row by row and inserted with one unnest per table. */
export class Columns<K extends string> {
  readonly data = {} as Record<K, unknown[]>;
  constructor(keys: readonly K[]) {
    for (const key of keys) this.data[key] = [];
  }
  push(row: Record<K, unknown>): void {
    for (const key of Object.keys(this.data) as K[]) this.data[key].push(row[key]);
  }
}

/** After a seed gave the ids itself: the sequences continue after the highest id of each table. */
export async function moveSequencesPast(tx: Queryable, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'),
                     (SELECT coalesce(max(id), 1) FROM ${table}))`,
    );
  }
}

interface Workspace {
  id: number;
  slug: string;
}

/**
 * The seed step of a kind of records with a per-workspace configuration (its statuses): every
 * workspace without it gets it (configuration, not demo data), and each demo workspace without
 * records gets `counts[slug]` of them. Adds only what is missing, so a data directory seeded
 * before the kind's migration gets them too. Answers whether it added anything.
 */
export async function seedWorkspaces(
  db: Db,
  logger: Logger,
  kind: {
    /** The records' name in the log line (`sandbox claims seeded`). */
    name: string;
    /** A workspace with no row here lacks its configuration (a constant, never input). */
    configTable: string;
    configure(tx: Queryable, workspace: Workspace): Promise<void>;
    /** A demo workspace with no row here lacks its records (a constant, never input). */
    recordTable: string;
    counts: Readonly<Record<string, number>>;
    populate(tx: Queryable, workspace: Workspace, count: number): Promise<void>;
  },
): Promise<boolean> {
  const started = Date.now();
  const seeded = await db.transaction(async (tx) => {
    // The lock every demo seed of the services takes, so two sandboxes on one database wait.
    await tx.query('SELECT pg_advisory_xact_lock(724314)');
    const bare = await tx.query<Workspace>(
      `SELECT t.id, t.slug FROM tenants t
        WHERE NOT EXISTS (SELECT 1 FROM ${kind.configTable} x WHERE x.tenant_id = t.id)
        ORDER BY t.id`,
    );
    for (const t of bare) await kind.configure(tx, t);
    const empty = await tx.query<Workspace>(
      `SELECT t.id, t.slug FROM tenants t
        WHERE t.slug = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM ${kind.recordTable} x WHERE x.tenant_id = t.id)
        ORDER BY t.id`,
      [Object.keys(kind.counts)],
    );
    for (const t of empty) await kind.populate(tx, t, kind.counts[t.slug] ?? 0);
    return bare.length + empty.length > 0;
  });
  if (seeded) logger.info({ ms: Date.now() - started }, `sandbox ${kind.name} seeded`);
  return seeded;
}
