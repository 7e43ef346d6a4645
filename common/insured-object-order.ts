/**
 * The order of a product version's insured objects and their fields (spec, section 3), shared by
 * the product editor and the application form so that both list a tariff the same way.
 */

/** Spec, section 3: device-like insured objects list their fields by label, not by position. */
const SORTED_BY_LABEL = /^(mobile-device|device)/;

export function sortsFieldsByLabel(objectName: string): boolean {
  return SORTED_BY_LABEL.test(objectName);
}

interface OrderedField {
  id: number;
  label: string;
  order: number;
}

interface OrderedObject<F extends OrderedField> {
  id: number;
  name: string;
  productFields?: F[] | undefined;
}

/**
 * The insured objects in display order: the one named 'default' first, the rest in the order
 * they were created; fields by their order, except in objects whose name starts with
 * mobile-device or device, which sort them by label (in the reader's language).
 */
export function orderInsuredObjects<F extends OrderedField, O extends OrderedObject<F>>(
  objects: readonly O[],
  locale = 'en',
): (O & { productFields: F[] })[] {
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
