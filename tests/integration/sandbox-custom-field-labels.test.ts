import { describe, expect, it } from 'vitest';
import { api } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

/**
 * Custom-field labels per language (issue 15 point 16, issue 16): the seeded demo fields carry
 * de, en and pl labels; an admin's save stores the languages that have a text, trimmed, and
 * refuses a label longer than a field's label may be.
 */

const kit = withSandbox({ admin: 'admin@demo.test' });
const { admin } = kit.sessions;
const T = '/tenantservice/v1';

type Field = { name: string; label: string; labels?: Record<string, string>; type: string };
type Schema = { fields: Field[]; version: number };

const schemaOf = async (entity: string) => {
  const res = await api(kit.base, `${T}/custom-schemas?entity=${entity}`, {
    token: admin.accessToken,
  });
  expect(res.status).toBe(200);
  return (res.body as { items: Schema[] }).items[0]!;
};

describe('custom-field labels per language', () => {
  it('the demo claim and organisation fields are labelled in de, en and pl', async () => {
    const claim = await schemaOf('claim');
    expect(claim.fields.find((f) => f.name === 'damageLocation')).toMatchObject({
      label: 'Damage location',
      labels: { de: 'Schadenort', en: 'Damage location', pl: 'Miejsce szkody' },
    });
    const organization = await schemaOf('organization');
    expect(organization.fields.find((f) => f.name === 'registrationNumber')?.labels).toEqual({
      de: 'Handelsregisternummer',
      en: 'Registration number',
      pl: 'Numer KRS',
    });
    for (const field of [...claim.fields, ...organization.fields]) {
      expect(Object.keys(field.labels ?? {}).sort(), field.name).toEqual(['de', 'en', 'pl']);
    }
  });

  it('stores the languages that have a text, trimmed; an emptied one falls back again', async () => {
    const before = await schemaOf('organization');
    const fields = before.fields.map((f) =>
      f.name === 'employees' ? { ...f, labels: { de: '  Beschäftigte ', en: '', pl: 'Kadra' } } : f,
    );
    const res = await api(kit.base, `${T}/custom-schemas/organization`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { fields, version: before.version },
    });
    expect(res.status).toBe(200);
    const saved = (res.body as { schema: Schema }).schema;
    expect(saved.fields.find((f) => f.name === 'employees')?.labels).toEqual({
      de: 'Beschäftigte',
      pl: 'Kadra',
    });
    // Read back as stored, not only as answered.
    expect(
      (await schemaOf('organization')).fields.find((f) => f.name === 'employees'),
    ).toMatchObject({ label: 'Employees', labels: { de: 'Beschäftigte', pl: 'Kadra' } });
  });

  it('refuses a translated label over 200 characters, naming the field', async () => {
    const before = await schemaOf('claim');
    const fields = before.fields.map((f, i) =>
      i === 0 ? { ...f, labels: { ...f.labels, pl: 'x'.repeat(201) } } : f,
    );
    const res = await api(kit.base, `${T}/custom-schemas/claim`, {
      method: 'PUT',
      token: admin.accessToken,
      body: { fields, version: before.version },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('fields.0.labels.pl');
    expect((await schemaOf('claim')).version).toBe(before.version);
  });
});
