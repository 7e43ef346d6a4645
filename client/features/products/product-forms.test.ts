import { describe, expect, it } from 'vitest';
import { validateForm } from '#client/ui/form/custom-schema.ts';
import { fieldSchema, formulaSchema, productSchema } from './product-forms.ts';

const fieldLabels = { name: 'Name', label: 'Label', type: 'Type' };

describe('product forms', () => {
  it('a product needs a name and a known category', () => {
    const schema = productSchema({ name: 'Name', category: 'Category' });
    const empty = validateForm(schema, { name: ' ', category: '' });
    expect(empty.errors.name).toEqual(['messages.fieldRequired?field=Name']);
    expect(empty.errors.category).toEqual(['messages.fieldRequired?field=Category']);
    expect(validateForm(schema, { name: 'Bike', category: 'boat' }).errors.category).toEqual([
      'messages.invalid_value',
    ]);
    expect(validateForm(schema, { name: ' Bike ', category: 'bike' }).output).toEqual({
      name: 'Bike',
      category: 'bike',
    });
  });

  it('a field name is a formula name; bounds only for numbers and in order', () => {
    const schema = fieldSchema(fieldLabels);
    expect(validateForm(schema, { name: '1x', label: 'L', type: 'string' }).errors.name).toEqual([
      'messages.invalid_value',
    ]);
    const text = validateForm(schema, {
      name: 'brand',
      label: 'Brand',
      type: 'string',
      minimum: '3',
    });
    expect(text.output).toMatchObject({
      minimum: null,
      maximum: null,
      isRequired: false,
      kind: null,
    });
    const number = validateForm(schema, {
      name: 'p',
      label: 'P',
      type: 'number',
      minimum: '1,5',
      maximum: '10',
    });
    expect(number.output).toMatchObject({ minimum: 1.5, maximum: 10 });
    expect(
      validateForm(schema, { name: 'p', label: 'P', type: 'number', minimum: '10', maximum: '1' })
        .success,
    ).toBe(false);
  });

  it('a formula needs group, name, expression and unit; the variable is a formula name', () => {
    const schema = formulaSchema({ group: 'G', name: 'N', expression: 'E', unit: 'U' });
    const empty = validateForm(schema, {});
    expect(Object.keys(empty.errors).sort()).toEqual(['expression', 'group', 'name', 'unit']);
    expect(
      validateForm(schema, {
        group: 'g',
        name: 'n',
        expression: '1',
        unit: 'year',
        variableName: 'a-b',
      }).errors.variableName,
    ).toEqual(['messages.invalid_value']);
    expect(
      validateForm(schema, { group: 'g', name: 'n', expression: 'price * 2', unit: 'month' })
        .output,
    ).toMatchObject({ variableName: null, unit: 'month' });
  });
});
