import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The whole database surface the sandbox uses, so PGlite and PostgreSQL stay interchangeable. */
export interface Db extends Queryable {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openPglite(dataDir: string): Promise<Db> {
  const dir = path.join(dataDir, 'sandbox-db');
  await mkdir(dir, { recursive: true });
  const lite = await PGlite.create(dir);
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      return (await lite.query<T>(sql, params)).rows;
    },
    transaction(fn) {
      return lite.transaction((tx) =>
        fn({
          async query<T>(sql: string, params: unknown[] = []) {
            return (await tx.query<T>(sql, params)).rows;
          },
        }),
      );
    },
    close: () => lite.close(),
  };
}

export function openPostgres(databaseUrl: string): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<T>(sql: string, params: unknown[] = []) {
            return (await client.query(sql, params)).rows as T[];
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Splits a migration file into statements; the files hold plain DDL without `;` in literals. */
function statements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Applies the files not yet recorded, in the order given (services/registry.ts: each service's
 * after those it depends on); a file's name without `.sql` is its recorded version.
 */
export async function migrate(db: Db, files: readonly string[]): Promise<string[]> {
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    // Two sandboxes starting on one PostgreSQL database must not both apply a migration.
    await tx.query('SELECT pg_advisory_xact_lock(724311)');
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map(
        (r) => r.version,
      ),
    );
    for (const file of files) {
      const version = path.basename(file).replace(/\.sql$/, '');
      if (done.has(version)) continue;
      const sql = await readFile(file, 'utf8');
      for (const statement of statements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      applied.push(version);
    }
  });
  return applied;
}
