import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { migrate, openPglite, type Db } from '#server/sandbox/platform/db.ts';
import { migrationFiles } from '#server/sandbox/services/registry.ts';

/**
 * For a migration test: a database of its own (PGlite in a temporary directory) as it was before
 * the migration `file` (`038-role-name-labels.sql`), with the workspace 1 'demo', into which
 * `writeOldData` writes what a data directory of that time held; then every migration runs, as
 * such a directory meets them at start. Set up before the file's tests, removed after them.
 */
export function migratedFrom(file: string, writeOldData: (db: Db) => Promise<void>) {
  let dir = '';
  let db: Db | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bo-migration-'));
    db = await openPglite(dir);
    const files = migrationFiles();
    const at = files.findIndex((name) => name.endsWith(file));
    expect(at).toBeGreaterThan(0);
    await migrate(db, files.slice(0, at));
    await db.query(`INSERT INTO tenant_groups (id, name) VALUES (1, 'Demo')`);
    await db.query(
      `INSERT INTO tenants (id, tenant_group_id, name, slug) VALUES (1, 1, 'Demo', 'demo')`,
    );
    await writeOldData(db);
    await migrate(db, files);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    db: (): Db => {
      if (!db) throw new Error('the database is not migrated yet: read it inside the tests');
      return db;
    },
  };
}
