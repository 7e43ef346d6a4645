import type { InsuredObject } from '#client/api/products-client.ts';

/**
 * Insured objects with their labels in the reader's language, from the product's translations
 * (issue 15, point 4): the key `<object>.<field>` labels a field (`vehicle.vehicleValue`:
 * "Fahrzeugwert"), `<object>.label` the object. A key the translations lack keeps the label the
 * product manager typed.
 */
/** An insured object's title in the product's translations (`<object>.label`), if it has one. */
export const productObjectTitle = (
  texts: Readonly<Record<string, string>>,
  objectName: string,
): string | undefined =>
  Object.hasOwn(texts, `${objectName}.label`) ? texts[`${objectName}.label`] : undefined;

export function withProductTexts<O extends InsuredObject>(
  objects: readonly O[],
  texts: Readonly<Record<string, string>>,
): O[] {
  const text = (key: string) => (Object.hasOwn(texts, key) ? texts[key] : undefined);
  return objects.map((object) => ({
    ...object,
    label: productObjectTitle(texts, object.name) ?? object.label,
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

/** Premium formulas named in the reader's language: the key `formula.<name>` ("Grundbeitrag"). */
export function withFormulaTexts<F extends { name: string }>(
  formulas: readonly F[],
  texts: Readonly<Record<string, string>>,
): F[] {
  return formulas.map((formula) => {
    const key = `formula.${formula.name}`;
    return Object.hasOwn(texts, key) ? { ...formula, name: texts[key]! } : formula;
  });
}

/**
 * A stored value's label in the reader's language, where the product has one: the key
 * `<object>.<field>.<value>` (`vehicle.vehicleType.car`: "Pkw"). Values typed freely (a brand, a
 * destination) have none and show as stored.
 */
export function productValueText(
  texts: Readonly<Record<string, string>>,
  objectName: string,
  fieldName: string,
  value: unknown,
): string | undefined {
  if (typeof value !== 'string') return undefined;
  const key = `${objectName}.${fieldName}.${value}`;
  return Object.hasOwn(texts, key) ? texts[key] : undefined;
}
