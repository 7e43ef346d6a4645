import type { InsuredObject, ProductField } from '#client/api/products-client.ts';

/** Spec, section 3: device-like insured objects list their fields by label, not by position. */
const SORTED_BY_LABEL = /^(mobile-device|device)/;

export function sortsFieldsByLabel(objectName: string): boolean {
  return SORTED_BY_LABEL.test(objectName);
}

/**
 * The insured objects as the editor shows them (spec, section 3): the one named 'default' first,
 * the rest in the order they were created; fields by their order, except in objects whose name
 * starts with mobile-device or device, which sort them by label.
 */
export function orderInsuredObjects(
  objects: readonly InsuredObject[],
  locale = 'en',
): (InsuredObject & { productFields: ProductField[] })[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  return [...objects]
    .sort((a, b) => Number(b.name === 'default') - Number(a.name === 'default') || a.id - b.id)
    .map((object) => ({
      ...object,
      productFields: [...(object.productFields ?? [])].sort((a, b) =>
        sortsFieldsByLabel(object.name)
          ? collator.compare(a.label, b.label) || a.id - b.id
          : a.order - b.order || a.id - b.id,
      ),
    }));
}

/** Formula variables name an insured object with `_` for `-` (a hyphen is minus there). */
export function formulaPath(objectName: string, fieldName: string): string {
  return objectName === 'default' ? fieldName : `${objectName.replace(/-/g, '_')}.${fieldName}`;
}
