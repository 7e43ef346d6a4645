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
  catalogue: CatalogueTexts = NO_CATALOGUE,
): O[] {
  const text = (key: string) => (Object.hasOwn(texts, key) ? texts[key] : undefined);
  return objects.map((object) => ({
    ...object,
    label:
      productObjectTitle(texts, object.name) ??
      catalogueLabel(catalogue, 'objects', object.name, object.label),
    ...(object.productFields
      ? {
          productFields: object.productFields.map((field) => ({
            ...field,
            label:
              text(`${object.name}.${field.name}`) ??
              catalogueLabel(catalogue, 'fields', field.name, field.label),
          })),
        }
      : {}),
  }));
}

/**
 * The catalogue's names (insured object types, their default fields and the policy object's
 * fields, server/sandbox/services/insurance/insured-object-types.ts) in the reader's language
 * and in English, from the `products` locale's `catalogue` section, keyed by the catalogue's
 * stable names in snake_case (`mobile_device`, `vehicle_value`).
 *
 * Why on the client and not as translations the sandbox writes into each new product: a
 * product's translations win over the label stored with a field (`withProductTexts`), so
 * catalogue texts written as translations would also win over a label the tenant types later
 * ("Marktwert" would still read "Fahrzeugwert"), and they would be copied into every tenant's
 * data. Here the catalogue's text only replaces a label that still is the catalogue's own
 * English one: whatever the tenant typed, and the product's own translations, win.
 */
export interface CatalogueTexts {
  english: CatalogueNames;
  reader: CatalogueNames;
}
type CatalogueNames = Readonly<Record<CataloguePart, Readonly<Record<string, string>>>>;
type CataloguePart = 'objects' | 'fields';

export const NO_CATALOGUE: CatalogueTexts = {
  english: { objects: {}, fields: {} },
  reader: { objects: {}, fields: {} },
};

/** A catalogue name as a locale key: `mobile-device` → `mobile_device`, `sfClass` → `sf_class`. */
export const catalogueKey = (name: string) =>
  name.replace(/-/g, '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The label to show for an object (by its name) or a field (by its name): the catalogue's text
 * in the reader's language where the stored label is still the catalogue's English label, else
 * the stored label as typed.
 */
export function catalogueLabel(
  catalogue: CatalogueTexts,
  part: CataloguePart,
  name: string,
  label: string,
): string {
  const key = catalogueKey(name);
  const english = Object.hasOwn(catalogue.english[part], key)
    ? catalogue.english[part][key]
    : undefined;
  if (english === undefined || english !== label) return label;
  return Object.hasOwn(catalogue.reader[part], key) ? catalogue.reader[part][key]! : label;
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
