import { describe, expect, it } from 'vitest';
import type { InsuredObject } from '#client/api/products-client.ts';
import { productValueText, withFormulaTexts, withProductTexts } from './product-texts.ts';

describe('product field labels from the product’s translations', () => {
  it('labels fields and objects by <object>.<field> and <object>.label, else keeps their own', () => {
    const vehicle = {
      id: 1,
      name: 'vehicle',
      label: 'Vehicle',
      productFields: [
        { name: 'vehicleValue', label: 'Vehicle value' },
        { name: 'vehicleType', label: 'Vehicle type' },
      ],
    } as unknown as InsuredObject;
    const [labelled] = withProductTexts([vehicle], {
      'vehicle.label': 'Fahrzeug',
      'vehicle.vehicleValue': 'Fahrzeugwert',
    });
    expect(labelled!.label).toBe('Fahrzeug');
    expect(labelled!.productFields!.map((f) => f.label)).toEqual(['Fahrzeugwert', 'Vehicle type']);
    expect(withProductTexts([vehicle], {})[0]!.productFields![0]!.label).toBe('Vehicle value');
  });
});

describe('premium items and stored values from the product’s translations', () => {
  it('names a formula by formula.<name>, else keeps its name', () => {
    const formulas = [{ name: 'Base premium' }, { name: 'Extra' }];
    expect(withFormulaTexts(formulas, { 'formula.Base premium': 'Grundbeitrag' })).toEqual([
      { name: 'Grundbeitrag' },
      { name: 'Extra' },
    ]);
  });

  it('labels a stored text value by <object>.<field>.<value> only', () => {
    const texts = { 'vehicle.vehicleType.car': 'Pkw' };
    expect(productValueText(texts, 'vehicle', 'vehicleType', 'car')).toBe('Pkw');
    expect(productValueText(texts, 'vehicle', 'vehicleType', 'van')).toBeUndefined();
    expect(productValueText(texts, 'vehicle', 'vehicleType', 3)).toBeUndefined();
    // Keys are looked up as own properties: a value named like an Object method is not a label.
    expect(productValueText(texts, 'vehicle', 'vehicleType', 'constructor')).toBeUndefined();
  });
});
