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
