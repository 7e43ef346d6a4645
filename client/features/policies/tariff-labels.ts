import type { PremiumUnit, ProductFieldType } from '#common/products.ts';
import type { PolicyObject } from '#client/api/policies-client.ts';
import type { InsuredObject, PremiumFormula } from '#client/api/products-client.ts';
import { formatDate } from '#client/ui/form/dates.ts';
import { productValueText } from '#client/entities/product/product-texts.ts';

export interface FieldRow {
  name: string;
  label: string;
  text: string;
}

/** What the product version says about a policy's numbers: formula names and units, field labels. */
export interface TariffLabels {
  formulas: ReadonlyMap<number, Pick<PremiumFormula, 'name' | 'unit'>>;
  unitOf: ReadonlyMap<number, PremiumUnit>;
  /** An object's data by field label, in the product's field order; unknown keys after them. */
  fieldsOf: (object: PolicyObject) => FieldRow[];
  /** An object's title: the product's (in the reader's language), else the one stored with it. */
  titleOf: (object: PolicyObject) => string;
}

export interface ValueTexts {
  language: string;
  yes: string;
  no: string;
  /** The label of a value of a kind with fixed options (durationUnit: "Tage"), if it has one. */
  option?: (kind: string, value: string) => string | undefined;
}

/** A stored value as text for its field type (numbers and dates in the user's format). */
export function valueText(
  value: unknown,
  type: ProductFieldType | null,
  texts: ValueTexts,
): string {
  if (value === null || value === undefined || value === '') return '–';
  if (typeof value === 'boolean') return value ? texts.yes : texts.no;
  if (typeof value === 'number') return new Intl.NumberFormat(texts.language).format(value);
  if (type === 'date' && typeof value === 'string') return formatDate(value.slice(0, 10)) || value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Labels from the product version (`null` when it could not be read, e.g. without the product
 * permission): then formulas show their id and fields their name, and nothing is hidden.
 */
export function tariffLabels(
  tariff: {
    formulas: readonly PremiumFormula[];
    objects: readonly InsuredObject[];
    texts?: Readonly<Record<string, string>>;
  } | null,
  texts: ValueTexts,
): TariffLabels {
  const productTexts = tariff?.texts ?? {};
  // A value's label: the product's own for it, else the fixed option's, else the value itself.
  const labelOf = (
    objectName: string,
    field: { name: string; kind?: string | null },
    value: unknown,
  ) =>
    productValueText(productTexts, objectName, field.name, value) ??
    (field.kind && typeof value === 'string' ? texts.option?.(field.kind, value) : undefined);
  const formulas = new Map((tariff?.formulas ?? []).map((f) => [f.id, f]));
  const objects = new Map((tariff?.objects ?? []).map((o) => [o.id, o]));
  const byName = new Map((tariff?.objects ?? []).map((o) => [o.name, o]));
  const insuredOf = (object: PolicyObject) =>
    (object.insuredObjectId !== null ? objects.get(object.insuredObjectId) : undefined) ??
    byName.get(object.insuredObjectName);
  return {
    formulas,
    unitOf: new Map([...formulas.values()].map((f) => [f.id, f.unit])),
    titleOf(object) {
      return insuredOf(object)?.label || object.insuredObjectLabel || object.insuredObjectName;
    },
    fieldsOf(object) {
      const insured = insuredOf(object);
      const fields = [...(insured?.productFields ?? [])].sort((a, b) => a.order - b.order);
      const known = new Set(fields.map((f) => f.name));
      return [
        ...fields
          .filter((f) => Object.hasOwn(object.data, f.name))
          .map((f) => ({
            name: f.name,
            label: f.label || f.name,
            text:
              labelOf(object.insuredObjectName, f, object.data[f.name]) ??
              valueText(object.data[f.name], f.type, texts),
          })),
        ...Object.entries(object.data)
          .filter(([name]) => !known.has(name))
          .map(([name, value]) => ({ name, label: name, text: valueText(value, null, texts) })),
      ];
    },
  };
}
