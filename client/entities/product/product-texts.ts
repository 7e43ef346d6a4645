import type { InsuredObject } from '#client/api/products-client.ts';

/**
 * Insured objects with their labels in the reader's language, from the product's translations
 * (issue 15, point 4): the key `<object>.<field>` labels a field (`vehicle.vehicleValue`:
 * "Fahrzeugwert"), `<object>.label` the object. A key the translations lack keeps the label the
 * product manager typed.
 */
export function withProductTexts<O extends InsuredObject>(
  objects: readonly O[],
  texts: Readonly<Record<string, string>>,
): O[] {
  const text = (key: string) => (Object.hasOwn(texts, key) ? texts[key] : undefined);
  return objects.map((object) => ({
    ...object,
    label: text(`${object.name}.label`) ?? object.label,
    ...(object.productFields
      ? {
          productFields: object.productFields.map((field) => ({
            ...field,
            label: text(`${object.name}.${field.name}`) ?? field.label,
          })),
        }
      : {}),
  }));
}
