import { describe, expect, it } from 'vitest';
import { formulaPath, orderInsuredObjects } from './insured-object-order.ts';

interface Field {
  id: number;
  label: string;
  order: number;
  name: string;
}
const field = (id: number, label: string, order: number): Field => ({
  id,
  label,
  order,
  name: `f${id}`,
});
const object = (id: number, name: string, fields?: Field[]) => ({
  id,
  name,
  productFields: fields,
});

describe('insured object order', () => {
  it("puts 'default' first whatever its id, the rest by creation", () => {
    const sorted = orderInsuredObjects([
      object(1, 'car', []),
      object(3, 'driver', []),
      object(2, 'default', []),
    ]);
    expect(sorted.map((o) => o.name)).toEqual(['default', 'car', 'driver']);
  });

  it('sorts the fields of mobile-device and device objects by label, others by order', () => {
    const fields = [field(1, 'Zeta', 1), field(2, 'alpha', 2), field(3, 'Beta', 3)];
    const sorted = orderInsuredObjects([
      object(1, 'mobile-device', fields),
      object(2, 'device-extra', fields),
      object(3, 'vehicle', [...fields].reverse()),
    ]);
    expect(sorted[0]!.productFields.map((f) => f.label)).toEqual(['alpha', 'Beta', 'Zeta']);
    expect(sorted[1]!.productFields.map((f) => f.label)).toEqual(['alpha', 'Beta', 'Zeta']);
    expect(sorted[2]!.productFields.map((f) => f.label)).toEqual(['Zeta', 'alpha', 'Beta']);
  });

  it('leaves an object without expanded fields with an empty list', () => {
    expect(orderInsuredObjects([object(1, 'x')])[0]!.productFields).toEqual([]);
  });

  it('names fields the way formulas read them', () => {
    expect(formulaPath('default', 'policyStartDate')).toBe('policyStartDate');
    expect(formulaPath('mobile-device', 'price')).toBe('mobile_device.price');
  });
});
