import { describe, expect, it } from 'vitest';
import type { InsuredObject } from '#client/api/products-client.ts';
import {
  catalogueKey,
  catalogueLabel,
  productValueText,
  withFormulaTexts,
  withProductTexts,
  type CatalogueTexts,
} from './product-texts.ts';

/** An object as the catalogue's vehicle type creates it, with two of its fields. */
const vehicle = {
  id: 1,
  name: 'vehicle',
  label: 'Vehicle',
  productFields: [
    { name: 'vehicleValue', label: 'Vehicle value' },
    { name: 'vehicleType', label: 'Vehicle type' },
  ],
} as unknown as InsuredObject;

describe('product field labels from the product’s translations', () => {
  it('labels fields and objects by <object>.<field> and <object>.label, else keeps their own', () => {
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

describe('the catalogue’s names for a product without translations of its own', () => {
  const catalogue: CatalogueTexts = {
    english: {
      objects: { vehicle: 'Vehicle', default: 'Policy', mobile_device: 'Mobile device' },
      fields: { vehicle_value: 'Vehicle value', policy_start_date: 'Policy start date' },
    },
    reader: {
      objects: { vehicle: 'Fahrzeug', default: 'Vertrag', mobile_device: 'Mobilgerät' },
      fields: { vehicle_value: 'Fahrzeugwert', policy_start_date: 'Vertragsbeginn' },
    },
  };
  it('keys the catalogue by its stable names in snake_case', () => {
    expect(catalogueKey('mobile-device')).toBe('mobile_device');
    expect(catalogueKey('vehicleValue')).toBe('vehicle_value');
    expect(catalogueKey('sfClass')).toBe('sf_class');
  });

  it('shows a label the catalogue gave in the reader’s language', () => {
    expect(catalogueLabel(catalogue, 'objects', 'mobile-device', 'Mobile device')).toBe(
      'Mobilgerät',
    );
    expect(catalogueLabel(catalogue, 'fields', 'policyStartDate', 'Policy start date')).toBe(
      'Vertragsbeginn',
    );
    const [shown] = withProductTexts([vehicle], {}, catalogue);
    expect(shown!.label).toBe('Fahrzeug');
    // A field the locale does not know keeps its label.
    expect(shown!.productFields!.map((f) => f.label)).toEqual(['Fahrzeugwert', 'Vehicle type']);
  });

  it('lets the tenant’s own label and the product’s translations win over the catalogue', () => {
    expect(catalogueLabel(catalogue, 'fields', 'vehicleValue', 'Marktwert')).toBe('Marktwert');
    expect(catalogueLabel(catalogue, 'objects', 'vehicle', 'Oldtimer')).toBe('Oldtimer');
    const renamed = { ...vehicle, label: 'Oldtimer' } as InsuredObject;
    expect(withProductTexts([renamed], {}, catalogue)[0]!.label).toBe('Oldtimer');
    const [translated] = withProductTexts(
      [vehicle],
      { 'vehicle.label': 'Kraftfahrzeug', 'vehicle.vehicleValue': 'Zeitwert' },
      catalogue,
    );
    expect(translated!.label).toBe('Kraftfahrzeug');
    expect(translated!.productFields![0]!.label).toBe('Zeitwert');
  });

  it('keeps every label where the catalogue has no text (or none is given)', () => {
    expect(catalogueLabel(catalogue, 'fields', 'constructor', 'constructor')).toBe('constructor');
    expect(withProductTexts([vehicle], {})[0]!.productFields![0]!.label).toBe('Vehicle value');
  });
});
