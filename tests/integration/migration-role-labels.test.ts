import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openPglite, type Db } from '#server/sandbox/platform/db.ts';
import { migrationFiles } from '#server/sandbox/services/registry.ts';

// Migration 038 (issue 16) on a data directory seeded before roles carried translations: the demo
// roles as seeded get their German and Polish names and descriptions; a role an administrator
// renamed or already translated keeps what they entered.
describe('migration 038: translated names of the seeded roles', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bo-migration-'));
    db = await openPglite(dir);
    const files = migrationFiles();
    const at = files.findIndex((file) => file.endsWith('038-role-name-labels.sql'));
    expect(at).toBeGreaterThan(0);
    // The database as it was before 038, with roles as the old seed wrote them.
    await migrate(db, files.slice(0, at));
    await db.query(`INSERT INTO tenant_groups (id, name) VALUES (1, 'Demo')`);
    await db.query(
      `INSERT INTO tenants (id, tenant_group_id, name, slug) VALUES (1, 1, 'Demo', 'demo')`,
    );
    await db.query(
      `INSERT INTO roles (tenant_id, code, label, description) VALUES
         (1, 'customer-care', 'Customer care', 'Looks after customers, policies and claims'),
         (1, 'show-only', 'Readers', 'Reads everything, changes nothing'),
         (1, 'admin', 'Administrator', 'Everything'),
         (1, 'claims-clerk', 'Claims clerk', 'Handles claims')`,
    );
    await db.query(
      `UPDATE roles SET description_labels = '{"de":"Mein Text"}' WHERE code = 'admin'`,
    );
    await migrate(db, files);
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  const role = async (code: string) =>
    (
      await db.query<{ label_labels: object; description_labels: object }>(
        'SELECT label_labels, description_labels FROM roles WHERE code = $1',
        [code],
      )
    )[0];

  it('translates a seeded role left as seeded', async () => {
    expect(await role('customer-care')).toEqual({
      label_labels: { de: 'Kundenbetreuung', en: 'Customer care', pl: 'Obsługa klienta' },
      description_labels: {
        de: 'Betreut Kunden, Verträge und Schäden',
        en: 'Looks after customers, policies and claims',
        pl: 'Obsługuje klientów, polisy i szkody',
      },
    });
  });

  it('keeps what an administrator entered', async () => {
    // Renamed: neither its name nor its description is touched.
    expect(await role('show-only')).toEqual({ label_labels: {}, description_labels: {} });
    // Its description translated already: that stays, the name is translated.
    expect(await role('admin')).toEqual({
      label_labels: { de: 'Administrator', en: 'Administrator', pl: 'Administrator' },
      description_labels: { de: 'Mein Text' },
    });
    // A role of the tenant's own.
    expect(await role('claims-clerk')).toEqual({ label_labels: {}, description_labels: {} });
  });
});
