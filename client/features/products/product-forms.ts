import * as v from 'valibot';
import {
  PREMIUM_UNITS,
  PRODUCT_CATEGORIES,
  PRODUCT_FIELD_KINDS,
  PRODUCT_FIELD_TYPES,
} from '#common/products.ts';
import { message } from '#client/ui/form/messages.ts';
import { maxLengthRule, numberField, requiredString } from '#client/ui/form/rules.ts';

/**
 * The product editor's forms. Limits and patterns are the service's (insurance-product-routes.ts)
 * so that the form says so before the server does; the premium expression itself is checked by
 * the server only, which also knows the version's fields and earlier variables.
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const invalid = message('messages.invalid_value');

const requiredText = (label: string, max: number) =>
  v.pipe(requiredString(label), v.trim(), maxLengthRule(max));
const choice = <T extends string>(label: string, values: readonly T[]) =>
  v.pipe(requiredString(label), v.picklist(values, invalid));

/** A form object whose left-out field counts as empty (so it gets 'field required'). */
function formObject<TEntries extends v.ObjectEntries>(entries: TEntries) {
  const missing = Object.fromEntries(Object.keys(entries).map((key) => [key, null]));
  return v.pipe(
    v.record(v.string(), v.unknown()),
    v.transform((input) => ({ ...missing, ...input })),
    v.object(entries),
  );
}

export function productSchema(labels: { name: string; category: string }) {
  return formObject({
    name: requiredText(labels.name, 200),
    category: choice(labels.category, PRODUCT_CATEGORIES),
  });
}

export function versionSchema() {
  return formObject({
    description: v.pipe(
      v.nullish(v.string(), ''),
      v.transform((text) => text.trim()),
      maxLengthRule(500),
    ),
  });
}

export function fieldSchema(labels: { name: string; label: string; type: string }) {
  return v.pipe(
    formObject({
      name: v.pipe(requiredText(labels.name, 63), v.regex(IDENTIFIER, invalid)),
      label: requiredText(labels.label, 200),
      type: choice(labels.type, PRODUCT_FIELD_TYPES),
      kind: v.nullish(v.picklist(PRODUCT_FIELD_KINDS, invalid), null),
      isRequired: v.nullish(v.boolean(), false),
      minimum: numberField('minimum'),
      maximum: numberField('maximum'),
    }),
    v.transform((field) => ({
      ...field,
      // Bounds belong to number fields only (the service refuses them elsewhere).
      minimum: field.type === 'number' ? (field.minimum ?? null) : null,
      maximum: field.type === 'number' ? (field.maximum ?? null) : null,
    })),
    v.forward(
      v.check(
        (field) =>
          field.minimum === null || field.maximum === null || field.minimum <= field.maximum,
        invalid,
      ),
      ['maximum'],
    ),
  );
}

export function formulaSchema(labels: {
  group: string;
  name: string;
  expression: string;
  unit: string;
}) {
  return formObject({
    group: requiredText(labels.group, 100),
    name: requiredText(labels.name, 200),
    expression: requiredText(labels.expression, 2000),
    unit: choice(labels.unit, PREMIUM_UNITS),
    variableName: v.nullish(v.pipe(v.string(), v.trim(), v.regex(IDENTIFIER, invalid)), null),
  });
}

/** A factor table's or named range's name: formulas read it in quotes. */
export function lookupNameSchema(label: string) {
  return formObject({ name: v.pipe(requiredText(label, 63), v.regex(IDENTIFIER, invalid)) });
}

/** An insured object: its name appears in formulas (with - as _) and in booking funnels. */
export function insuredObjectSchema(labels: { name: string; label: string }) {
  return formObject({
    name: v.pipe(requiredText(labels.name, 63), v.regex(/^[a-z][a-z0-9-]{0,62}$/, invalid)),
    label: requiredText(labels.label, 200),
  });
}
