import { describe, expect, it } from 'vitest';
import type { PolicyObject } from '#client/api/policies-client.ts';
import type { InsuredObject, PremiumFormula } from '#client/api/products-client.ts';
import { tariffLabels, valueText } from './tariff-labels.ts';

const texts = { language: 'de', yes: 'Ja', no: 'Nein' };

const field = (name: string, label: string, type: string, order: number) => ({
  name,
  label,
  type,
  order,
});
const household = {
  id: 26,
  name: 'household',
  label: 'Household',
  productFields: [
    field('zipCode', 'Postcode', 'string', 2),
    field('livingArea', 'Living area (m²)', 'number', 1),
    field('bicycleCover', 'Bicycles included', 'boolean', 3),
    field('since', 'Insured since', 'date', 4),
  ],
} as unknown as InsuredObject;
const formulas = [
  { id: 27, name: 'Contents premium', unit: 'year' },
] as unknown as PremiumFormula[];

const object = (data: Record<string, unknown>, insuredObjectId: number | null = 26) =>
  ({ insuredObjectId, insuredObjectName: 'household', data }) as unknown as PolicyObject;

describe('tariff labels', () => {
  it('shows data by field label in the product order, values in the user format', () => {
    const labels = tariffLabels({ formulas, objects: [household] }, texts);
    expect(
      labels.fieldsOf(
        object({
          zipCode: '20095',
          bicycleCover: false,
          livingArea: 1234.5,
          since: '2024-03-01',
          extra: 'x',
        }),
      ),
    ).toEqual([
      { name: 'livingArea', label: 'Living area (m²)', text: '1.234,5' },
      { name: 'zipCode', label: 'Postcode', text: '20095' },
      { name: 'bicycleCover', label: 'Bicycles included', text: 'Nein' },
      { name: 'since', label: 'Insured since', text: '01.03.2024' },
      { name: 'extra', label: 'extra', text: 'x' },
    ]);
    expect(labels.formulas.get(27)?.name).toBe('Contents premium');
    expect(labels.unitOf.get(27)).toBe('year');
  });

  it('finds the insured object by name when the id is missing', () => {
    const labels = tariffLabels({ formulas, objects: [household] }, texts);
    expect(labels.fieldsOf(object({ zipCode: '1' }, null))[0]?.label).toBe('Postcode');
  });

  it('without the product falls back to the technical names and hides nothing', () => {
    const labels = tariffLabels(null, texts);
    expect(labels.fieldsOf(object({ zipCode: '20095', cover: true }))).toEqual([
      { name: 'zipCode', label: 'zipCode', text: '20095' },
      { name: 'cover', label: 'cover', text: 'Ja' },
    ]);
    expect(labels.formulas.size).toBe(0);
  });

  it('writes empty values as a dash', () => {
    expect(valueText(null, 'string', texts)).toBe('–');
    expect(valueText('', 'string', texts)).toBe('–');
  });
});

describe('stored values in the reader’s language', () => {
  const vehicle = {
    id: 5,
    name: 'vehicle',
    label: 'Fahrzeug',
    productFields: [{ name: 'vehicleType', label: 'Fahrzeugart', type: 'string', order: 1 }],
  } as unknown as InsuredObject;
  const policy = {
    id: 6,
    name: 'default',
    label: 'Vertrag',
    productFields: [
      {
        name: 'policyDurationUnit',
        label: 'Einheit',
        type: 'string',
        kind: 'durationUnit',
        order: 1,
      },
      { name: 'note', label: 'Notiz', type: 'string', kind: null, order: 2 },
    ],
  } as unknown as InsuredObject;
  const option = (kind: string, value: string) =>
    kind === 'durationUnit' && value === 'day' ? 'Tage' : undefined;

  it('labels a value by the product’s text, a fixed option by its kind, and keeps the rest', () => {
    const labels = tariffLabels(
      { formulas: [], objects: [vehicle, policy], texts: { 'vehicle.vehicleType.car': 'Pkw' } },
      { ...texts, option },
    );
    const car = { insuredObjectId: 5, insuredObjectName: 'vehicle', data: { vehicleType: 'car' } };
    expect(labels.fieldsOf(car as unknown as PolicyObject)[0]!.text).toBe('Pkw');
    const van = { insuredObjectId: 5, insuredObjectName: 'vehicle', data: { vehicleType: 'van' } };
    expect(labels.fieldsOf(van as unknown as PolicyObject)[0]!.text).toBe('van');
    // The object's title is the product's (translated) label, not the one stored with the policy.
    const stored = { ...car, insuredObjectLabel: 'Vehicle' } as unknown as PolicyObject;
    expect(labels.titleOf(stored)).toBe('Fahrzeug');
    expect(tariffLabels(null, texts).titleOf(stored)).toBe('Vehicle');
    const term = {
      insuredObjectId: 6,
      insuredObjectName: 'default',
      data: { policyDurationUnit: 'day', note: 'day' },
    };
    // Only the field of the kind takes the kind's label; a free text "day" stays as typed.
    expect(labels.fieldsOf(term as unknown as PolicyObject).map((r) => r.text)).toEqual([
      'Tage',
      'day',
    ]);
  });
});
