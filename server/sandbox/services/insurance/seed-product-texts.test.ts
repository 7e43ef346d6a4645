import { describe, expect, it } from 'vitest';
import { LABEL_LANGUAGES } from '#common/name-labels.ts';
import { DEMO_PRODUCTS } from './seed-products.ts';
import { demoProductTexts } from './seed-product-texts.ts';

describe('the demo products’ translation files', () => {
  it('name every object, field and premium item of every demo product in de, en and pl', () => {
    for (const product of DEMO_PRODUCTS) {
      const files = LABEL_LANGUAGES.map((language) => demoProductTexts(product, language));
      // The same keys in each language, none empty.
      for (const file of files) {
        expect(Object.keys(file).sort()).toEqual(Object.keys(files[0]!).sort());
        expect(Object.values(file).every((text) => text.trim().length > 0)).toBe(true);
      }
      for (const object of product.objects) {
        for (const field of object.fields)
          expect(files[0]).toHaveProperty([`${object.name}.${field.name}`]);
      }
      for (const formula of product.formulas) {
        expect(files[0]).toHaveProperty([`formula.${formula.name}`]);
      }
    }
    const car = DEMO_PRODUCTS.find((p) => p.slug === 'car-comfort')!;
    expect(demoProductTexts(car, 'de')['vehicle.vehicleType.car']).toBe('Pkw');
    // The formula one version adds names a premium item too.
    expect(demoProductTexts(car, 'de')['formula.Region and age']).toBe('Region und Alter');
    expect(demoProductTexts(car, 'pl')['default.policyStartDate']).toBe('Data rozpoczęcia umowy');
  });

  it('refuses a field the dictionary lacks, so a new seeded field cannot go untranslated', () => {
    const product = {
      slug: 'car-comfort',
      objects: [{ name: 'vehicle', fields: [{ name: 'wingspan' }] }],
      formulas: [],
    };
    expect(() => demoProductTexts(product, 'de')).toThrow(/wingspan/);
  });
});
