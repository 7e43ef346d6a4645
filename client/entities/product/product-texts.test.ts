import { describe, expect, it } from 'vitest';
import type { InsuredObject } from '#client/api/products-client.ts';
import { withProductTexts } from './product-texts.ts';

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
