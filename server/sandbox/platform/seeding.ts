import { createHash } from 'node:crypto';
import type { Queryable } from './db.ts';

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
