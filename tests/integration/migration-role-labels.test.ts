import { describe, expect, it } from 'vitest';
import { migratedFrom } from '#tests/support/migration-db.ts';

// Migration 038 (issue 16) on a data directory seeded before roles carried translations: the demo
// roles as seeded get their German and Polish names and descriptions; a role an administrator
// renamed or already translated keeps what they entered.
describe('migration 038: translated names of the seeded roles', () => {
  const old = migratedFrom('038-role-name-labels.sql', async (db) => {
    // The database as it was before 038, with roles as the old seed wrote them.
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
  });

  const role = async (code: string) =>
    (
      await old
        .db()
        .query<{ label_labels: object; description_labels: object }>(
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
