import type { InsuredObject, ProductField } from '#client/api/products-client.ts';
import { orderInsuredObjects } from '#common/insured-object-order.ts';
import {
  KIND_OPTIONS,
  OBJECT_DATA_ISSUE_CODES,
  validatePolicyObjects,
  MAXIMUM_AGE,
  MINIMUM_AGE,
  type ObjectDataField,
  type PolicyObjectInput,
} from '#common/policy-object-data.ts';
import {
  fieldControl,
  type CustomFieldType,
  type FieldControl,
} from '#client/ui/form/custom-schema.ts';
import { formatNumberInput, parseNumberInput } from '#client/ui/form/values.ts';

/**
 * The model of the generated application form, without React: which control each product field
 * gets, the values the form starts with, the policy objects it sends, and the verdict of the
 * shared object data check (common/policy-object-data.ts) per field. Values are keyed by
 * `<object>.<field>`, the path the service names in its issues, so that its answer lands at the
 * right field. One model for every form over a product's fields: the policy sale, a lead's
 * application and a policy draft.
 */

export type ApplicationObject = InsuredObject & { productFields: ProductField[] };

/** Texts as typed, booleans as ticked; a partner field holds the partner's code. */
export type ApplicationValues = Record<string, string | boolean>;

/** Data of an existing application or policy, by insured object name (edit and view modes). */
export type ObjectDataByName = Record<string, Record<string, unknown> | undefined>;

export const fieldPath = (objectName: string, fieldName: string) => `${objectName}.${fieldName}`;

/** The tariff's objects in the spec's order: 'default' (the policy) first. */
export function applicationObjects(objects: readonly InsuredObject[], locale: string) {
  return orderInsuredObjects(objects, locale) as ApplicationObject[];
}

export type ApplicationControl = FieldControl | 'partner';

/**
 * The custom field type of a product field: its type decides and its kind refines a text. A
 * date stays a calendar day even with kind dateTime (the policy start: contract terms count
 * days); a text of kind dateTime is a moment, of kind email an address.
 */
function customTypeOf(field: Pick<ProductField, 'type' | 'kind'>): CustomFieldType {
  return field.type === 'string' && (field.kind === 'email' || field.kind === 'dateTime')
    ? field.kind
    : field.type;
}

/**
 * The control of a field, from the custom fields' mapping (`fieldControl`), so that a product
 * field and a custom field of the same type look and behave alike; a text with fixed values (its
 * kind's options) is a choice. A partner's code (kind partner) gets the partner selector.
 */
export function controlOf(field: Pick<ProductField, 'type' | 'kind'>): ApplicationControl {
  if (field.type === 'string' && field.kind === 'partner') return 'partner';
  const options = optionsOf(field);
  return fieldControl({ type: customTypeOf(field), ...(options.length ? { options } : {}) });
}

/** Locale leaves are snake_case; the service's names and values are camelCase. */
const snake = (value: string) => value.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The `applications` locale key of a fixed option's label (`options.duration_unit.day`). */
export const optionTextKey = (kind: string, value: string) =>
  `options.${snake(kind)}.${snake(value)}` as 'options.duration_unit.day';

/** The fixed options of a select field (durationUnit, renewalFrequency, billingFrequency). */
export const optionsOf = (field: Pick<ProductField, 'kind'>): readonly string[] =>
  KIND_OPTIONS[field.kind ?? ''] ?? [];

/** A stored value as the form shows it: a number in the reader's language (`20.000,5`). */
function formValue(field: ProductField, value: unknown, language?: string): string | boolean {
  if (field.type === 'boolean') return value === true;
  if (value === null || value === undefined) return '';
  if (field.type === 'number' && typeof value === 'number' && language) {
    return formatNumberInput(value, language);
  }
  return String(value);
}

const localDay = (now: Date) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/**
 * What a new application proposes where the product gives no default value: the contract
 * starts today and runs for one year, billed yearly (the 'default' object's system fields; a
 * policy without a billing frequency is billed yearly too, so the proposal only says so).
 */
function proposal(object: ApplicationObject, field: ProductField, now: Date): unknown {
  if (object.name !== 'default') return undefined;
  if (field.name === 'policyStartDate') return localDay(now);
  if (field.name === 'policyDurationUnit') return 'year';
  if (field.name === 'policyDurationValue') return 1;
  if (field.name === 'billingFrequencyUnit') return 'yearly';
  return undefined;
}

/**
 * The values the form starts with. Given data (an application being edited or viewed, a policy
 * draft) is taken as it is: a field it lacks was left empty (a lead does not store blank
 * values). A new application takes the field's default value, else the proposal for a new
 * contract, else empty.
 */
export function initialValues(
  objects: readonly ApplicationObject[],
  data: ObjectDataByName = {},
  now = new Date(),
  /** The reader's language: numbers are shown in its format. */
  language?: string,
): ApplicationValues {
  const values: ApplicationValues = {};
  for (const object of objects) {
    const given = data[object.name];
    for (const field of object.productFields) {
      const value = given
        ? given[field.name]
        : (field.defaultValue ?? proposal(object, field, now));
      values[fieldPath(object.name, field.name)] = formValue(field, value, language);
    }
  }
  return values;
}

/** The data of stored policy objects by insured object name, for `initialValues`. */
export const dataByName = (
  policyObjects: readonly { insuredObjectName: string; data: Record<string, unknown> }[],
): ObjectDataByName =>
  Object.fromEntries(policyObjects.map((object) => [object.insuredObjectName, object.data]));

/**
 * A form value as the service reads it: numbers as numbers (`1,5` too), blank as null. A text
 * that is no number stays text, so that the shared check says `not_a_number` at the field (the
 * custom fields' number type error) instead of pretending the field was left empty.
 */
function dataValue(
  field: ProductField,
  value: string | boolean | undefined,
  language?: string,
): unknown {
  if (field.type === 'boolean') return value === true;
  if (typeof value !== 'string' || value.trim() === '') return null;
  if (field.type === 'number') return parseNumberInput(value, language) ?? value.trim();
  return field.kind === 'partner' || controlOf(field) === 'select' ? value : value.trim();
}

/** The body's policyObjects: every insured object with every field. */
export function policyObjectsOf(
  objects: readonly ApplicationObject[],
  values: ApplicationValues,
  /** The reader's language: numbers are typed in its format. */
  language?: string,
): PolicyObjectInput[] {
  return objects.map((object) => ({
    insuredObjectId: object.id,
    data: Object.fromEntries(
      object.productFields.map((field) => [
        field.name,
        dataValue(field, values[fieldPath(object.name, field.name)], language),
      ]),
    ),
  }));
}

const checkedFields = (object: ApplicationObject) => ({
  id: object.id,
  name: object.name,
  fields: object.productFields as readonly ObjectDataField[],
});

/** The shared check's verdict per field path (the first issue of each); {} when all is well. */
export function fieldIssues(
  objects: readonly ApplicationObject[],
  values: ApplicationValues,
  /** The browser's today: a hint before sending; the service judges by its own clock. */
  todayMs: number = Date.now(),
  language?: string,
): Record<string, string> {
  const result = validatePolicyObjects(
    objects.map(checkedFields),
    policyObjectsOf(objects, values, language),
    todayMs,
  );
  const issues: Record<string, string> = {};
  for (const issue of result.issues) issues[issue.path] ??= issue.code;
  return issues;
}

/**
 * A service's issues split by where they are shown: at the fields they name (`<object>.<field>`),
 * or elsewhere (`accountCode`, `policyObjects.0.insuredObjectId`) as a list.
 */
export function splitIssues<I extends { path: string }>(
  objects: readonly ApplicationObject[],
  issues: readonly I[],
): { atFields: I[]; others: I[] } {
  const atFields = issues.filter((issue) => fieldAt(objects, issue.path) !== null);
  return { atFields, others: issues.filter((issue) => !atFields.includes(issue)) };
}

/** The field a path names, with its object; null for a path of no field (`accountCode`). */
export function fieldAt(
  objects: readonly ApplicationObject[],
  path: string,
): { object: ApplicationObject; field: ProductField } | null {
  for (const object of objects) {
    for (const field of object.productFields) {
      if (fieldPath(object.name, field.name) === path) return { object, field };
    }
  }
  return null;
}

/** `1000`, `1.000` or `1 000` in the reader's language. */
export const formatNumber = (value: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 6 }).format(value);

/**
 * An issue as the form's message: the encoded text the shared field frame translates (the
 * `ui` namespace's spec messages for a missing value, the `applications` namespace for the
 * rest, with the bounds in the reader's number format).
 */
export function issueMessage(
  code: string,
  field: Pick<ProductField, 'type' | 'label'> & Partial<Pick<ProductField, 'minimum' | 'maximum'>>,
  language: string,
  /** The bound the service named (`limit`), else the field's own. */
  limit?: number,
): string {
  const query = (values: Record<string, string>) => `?${new URLSearchParams(values).toString()}`;
  const bound = (own: number | null | undefined) => formatNumber(limit ?? own ?? 0, language);
  switch (code) {
    case 'required':
      return field.type === 'boolean'
        ? 'messages.booleanTrueRequired'
        : `messages.fieldRequired${query({ field: field.label })}`;
    case 'below_minimum':
      return `applications:issues.below_minimum${query({ min: bound(field.minimum) })}`;
    case 'above_maximum':
      return `applications:issues.above_maximum${query({ max: bound(field.maximum) })}`;
    case 'too_young':
      return `applications:issues.too_young${query({ min: String(limit ?? MINIMUM_AGE) })}`;
    case 'too_old':
      return `applications:issues.too_old${query({ max: String(limit ?? MAXIMUM_AGE) })}`;
    default:
      // Every code of the shared check has a message; one it does not know yet is "invalid".
      return `applications:issues.${(OBJECT_DATA_ISSUE_CODES as readonly string[]).includes(code) ? code : 'invalid'}`;
  }
}
