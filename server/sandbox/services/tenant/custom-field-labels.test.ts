import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { sandboxFile } from '#server/sandbox/platform/paths.ts';
import { DEMO_CLAIM_FIELDS } from '../claim/index.ts';
import { DEMO_ORGANIZATION_FIELDS } from './seed-administration.ts';

/** The rows of migration 028: schema code, field name, seeded label, labels. */
function migrationRows(sql: string) {
  const row = /\('([^']+)', '([^']+)', '([^']+)', '(\{[^']+\})'\)/g;
  return [...sql.matchAll(row)].map(([, code, name, label, labels]) => ({
    code,
    name,
    label,
    labels: JSON.parse(labels!) as unknown,
  }));
}

const seeded = (code: string, fields: readonly { name: string; label: string; labels: object }[]) =>
  fields.map((f) => ({ code, name: f.name, label: f.label, labels: f.labels }));

const MIGRATION = sandboxFile('services/tenant/migrations/028-custom-field-labels.sql');

// Migration 028 labels the demo schemas of older data directories as the seed does today.
describe('migration 028 for custom-field labels', () => {
  it('gives the seeded fields the labels the seed gives, in de, en and pl', () => {
    const sql = readFileSync(MIGRATION, 'utf8');
    expect(migrationRows(sql)).toEqual([
      ...seeded('organization-extra', DEMO_ORGANIZATION_FIELDS),
      ...seeded('claim-custom', DEMO_CLAIM_FIELDS),
    ]);
    for (const field of [...DEMO_ORGANIZATION_FIELDS, ...DEMO_CLAIM_FIELDS]) {
      expect(Object.keys(field.labels).sort(), field.name).toEqual(['de', 'en', 'pl']);
    }
  });

  it('labels seeded fields only: a relabelled or translated field keeps what the admin gave', async () => {
    const db = new PGlite();
    await db.exec(`CREATE TABLE custom_schemas (id serial PRIMARY KEY, code text, entity text,
                     product_code text, fields jsonb NOT NULL DEFAULT '[]')`);
    const old = DEMO_CLAIM_FIELDS.map(({ labels: _labels, ...field }) => field);
    const relabelled = { ...old[1]!, label: 'Police file' };
    const translated = { ...old[2]!, labels: { de: 'Schaden' } };
    const extra = { name: 'extra', label: 'Extra', type: 'string' };
    await db.query(
      `INSERT INTO custom_schemas (code, entity, fields) VALUES ('claim-custom', 'claim', $1),
              ('organization-extra', 'organization', '[]')`,
      [JSON.stringify([old[0], relabelled, translated, extra])],
    );
    await db.exec(readFileSync(MIGRATION, 'utf8'));
    const { rows } = await db.query<{ fields: unknown[] }>(
      `SELECT fields FROM custom_schemas WHERE code = 'claim-custom'`,
    );
    expect(rows[0]!.fields).toEqual([
      { ...old[0], labels: DEMO_CLAIM_FIELDS[0]!.labels },
      relabelled,
      translated,
      extra,
    ]);
    await db.close();
    // PGlite starts in seconds on a busy machine.
  }, 60_000);
});
