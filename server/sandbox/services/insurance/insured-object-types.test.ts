import { describe, expect, it } from 'vitest';
import english from '#locales/en/products.json';
import { DEFAULT_OBJECT_FIELDS } from './insurance-product-routes.ts';
import { defaultProductFields, insuredObjectTypes } from './insured-object-types.ts';

/** The client's catalogue key of a name (client/entities/product/product-texts.ts). */
const key = (name: string) =>
  name.replace(/-/g, '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The screens translate a catalogue label only while it is the catalogue's English one (issue 15,
 * point 4): the English locale must say exactly what the catalogue stores, or nothing matches.
 */
describe('the catalogue’s names in the locales', () => {
  const { objects, fields } = english.catalogue as {
    objects: Record<string, string>;
    fields: Record<string, string>;
  };

  it('names every insured object type and the policy object as the catalogue labels them', () => {
    for (const type of insuredObjectTypes) expect(objects[key(type.name)]).toBe(type.label);
    expect(objects['default']).toBe('Policy');
  });

  it('names every default field and policy field as the catalogue labels it', () => {
    for (const field of [...defaultProductFields, ...DEFAULT_OBJECT_FIELDS])
      expect(fields[key(field.name)], field.name).toBe(field.label);
  });
});
