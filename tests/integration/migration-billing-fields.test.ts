import { describe, expect, it } from 'vitest';
import { migratedFrom } from '#tests/support/migration-db.ts';

// Migration 039 (issue 18) on a data directory made before the default object carried the billing
// system fields: every 'default' insured object gets billingFrequencyUnit and recurringBillingDay
// (optional, after its last field); a field of that name a product manager added stays as it is,
// and other insured objects are not touched.
describe('migration 039: the billing system fields of the default object', () => {
  const old = migratedFrom('039-billing-system-fields.sql', async (db) => {
    // The database as it was before 039, with two versions whose default object has the three
    // term fields as createVersion wrote them; the second has its own recurringBillingDay.
    await db.query(
      `INSERT INTO products (id, tenant_id, code, name, slug, category)
       VALUES (1, 1, 'pro_1', 'Car', 'car', 'car')`,
    );
    await db.query(
      `INSERT INTO product_versions (id, tenant_id, code, product_id, version, status)
       VALUES (1, 1, 'pve_1', 1, 1, 'active'), (2, 1, 'pve_2', 1, 2, 'draft')`,
    );
    await db.query(
      `INSERT INTO insured_objects (id, tenant_id, code, product_version_id, name, label)
       VALUES (1, 1, 'ino_1', 1, 'default', 'Policy'), (2, 1, 'ino_2', 1, 'vehicle', 'Vehicle'),
              (3, 1, 'ino_3', 2, 'default', 'Policy')`,
    );
    await db.query(
      `INSERT INTO product_fields (tenant_id, code, insured_object_id, name, label, type, kind,
                                   is_required, minimum, maximum, "order")
       VALUES (1, 'pfi_1', 1, 'policyStartDate', 'Policy start date', 'date', 'dateTime', true, NULL, NULL, 1),
              (1, 'pfi_2', 1, 'policyDurationUnit', 'Policy duration unit', 'string', 'durationUnit', true, NULL, NULL, 2),
              (1, 'pfi_3', 1, 'policyDurationValue', 'Policy duration', 'number', NULL, true, NULL, NULL, 3),
              (1, 'pfi_4', 2, 'vehicleValue', 'Vehicle value', 'number', NULL, true, 1000, NULL, 1),
              (1, 'pfi_5', 3, 'policyStartDate', 'Policy start date', 'date', 'dateTime', true, NULL, NULL, 1),
              (1, 'pfi_6', 3, 'recurringBillingDay', 'Zahltag', 'number', NULL, true, 1, 15, 2)`,
    );
  });

  const fields = async (objectId: number) =>
    old.db().query<Record<string, unknown>>(
      `SELECT name, label, type, kind, is_required, minimum, maximum, "order", created_by
         FROM product_fields WHERE insured_object_id = $1 ORDER BY "order"`,
      [objectId],
    );

  it('adds both fields, optional, after the last one', async () => {
    const rows = await fields(1);
    expect(rows.map((r) => r.name)).toEqual([
      'policyStartDate',
      'policyDurationUnit',
      'policyDurationValue',
      'billingFrequencyUnit',
      'recurringBillingDay',
    ]);
    expect(rows.slice(3)).toEqual([
      {
        name: 'billingFrequencyUnit',
        label: 'Billing frequency',
        type: 'string',
        kind: 'billingFrequency',
        is_required: false,
        minimum: null,
        maximum: null,
        order: 4,
        created_by: 'system',
      },
      {
        name: 'recurringBillingDay',
        label: 'Recurring billing day',
        type: 'number',
        kind: null,
        is_required: false,
        minimum: 1,
        maximum: 28,
        order: 5,
        created_by: 'system',
      },
    ]);
  });

  it('keeps a field of that name the product has already, and leaves other objects alone', async () => {
    const rows = await fields(3);
    expect(rows.map((r) => [r.name, r.label, r.is_required, r.maximum])).toEqual([
      ['policyStartDate', 'Policy start date', true, null],
      ['recurringBillingDay', 'Zahltag', true, 15],
      ['billingFrequencyUnit', 'Billing frequency', false, null],
    ]);
    expect((await fields(2)).map((r) => r.name)).toEqual(['vehicleValue']);
    // Codes are unique and of the field prefix.
    const codes = await old.db().query<{ code: string }>('SELECT code FROM product_fields');
    expect(new Set(codes.map((c) => c.code)).size).toBe(codes.length);
    expect(codes.every((c) => /^pfi_/.test(c.code))).toBe(true);
  });
});
