import type { LeadPolicyObject } from '#client/api/leads-client.ts';
import type { InsuredObject, ProductField } from '#client/api/products-client.ts';
import type { FieldErrors, FormField } from '#client/ui/form/custom-schema.ts';
import type { FormValues } from '#client/ui/form/custom-form-fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { policyDataIssues, type PolicyDataIssue } from '#common/policy-data.ts';

/**
 * The simple application form: one input per product field, grouped by insured object, kept apart
 * from React so that it is tested on its own. The check is the service's own
 * (`#common/policy-data.ts`), so the form refuses what the service would refuse; its issues are
 * shown with the dynamic form messages of the spec (fieldRequired, numberMin, numberMax, ...).
 */

/** Durations of the 'default' object's durationUnit field (upstream: day | week | month | year). */
export const DURATION_UNITS = ['day', 'week', 'month', 'year'] as const;

/** One value per field of every object, so that two objects may have a field of the same name. */
export const fieldKey = (objectId: number, name: string) => `${objectId}.${name}`;

/** 'default' first (the policy's term), the others as the product orders them. */
export function formObjects(objects: readonly InsuredObject[]): InsuredObject[] {
  return [...objects].sort(
    (a, b) => Number(b.name === 'default') - Number(a.name === 'default') || a.id - b.id,
  );
}

export const fieldsOf = (object: InsuredObject): ProductField[] =>
  [...(object.productFields ?? [])].sort((a, b) => a.order - b.order);

/** What the form renders for each field of an object. */
export function formFieldsOf(
  object: InsuredObject,
  unitLabel: (unit: (typeof DURATION_UNITS)[number]) => string,
): FormField[] {
  return fieldsOf(object).map((field) => {
    const base = {
      name: fieldKey(object.id, field.name),
      label: field.label,
      required: field.isRequired,
    };
    switch (field.type) {
      case 'number':
        return {
          ...base,
          control: 'number' as const,
          ...(field.minimum === null ? {} : { minimum: field.minimum }),
          ...(field.maximum === null ? {} : { maximum: field.maximum }),
        };
      case 'boolean':
        return { ...base, control: 'checkbox' as const };
      case 'date':
        return { ...base, control: 'date' as const };
      case 'string':
        return field.kind === 'durationUnit'
          ? {
              ...base,
              control: 'select' as const,
              options: DURATION_UNITS.map((unit) => ({ value: unit, label: unitLabel(unit) })),
            }
          : { ...base, control: 'text' as const, maxLength: 1000 };
    }
  });
}

/** The first day of next month: when a new policy usually starts. */
export function nextMonthStart(today: Date): string {
  const date = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1));
  return date.toISOString().slice(0, 10);
}

/**
 * The form's values: a saved application's data, or for a new one the field defaults and the
 * policy's term (starting next month, for the product's contract duration in days).
 */
export function initialValues(
  objects: readonly InsuredObject[],
  saved: readonly LeadPolicyObject[] | null,
  term: { start: string; durationDays: number },
): FormValues {
  const values: FormValues = {};
  for (const object of objects) {
    const data = saved?.find((o) => o.insuredObjectId === object.id)?.data;
    for (const field of fieldsOf(object)) {
      const key = fieldKey(object.id, field.name);
      // A saved application shows what was saved, nothing filled in for it.
      if (saved) {
        if (data?.[field.name] !== undefined) values[key] = data[field.name];
        continue;
      }
      if (field.defaultValue !== null) values[key] = field.defaultValue;
      if (object.name !== 'default') continue;
      if (field.name === 'policyStartDate') values[key] = term.start;
      if (field.name === 'policyDurationUnit') values[key] = 'day';
      if (field.name === 'policyDurationValue') values[key] = term.durationDays;
    }
  }
  return values;
}

/** A typed value from an input; text that is no number stays text, so the check names it. */
function typed(field: ProductField, value: unknown): unknown {
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return undefined;
    if (field.type === 'number') {
      const number = Number(text.replace(',', '.'));
      return Number.isFinite(number) ? number : text;
    }
    return field.type === 'string' ? value : text;
  }
  return value ?? undefined;
}

/** The policy objects to send: each field's typed value, empty ones left out. */
export function policyObjectsOf(objects: readonly InsuredObject[], values: FormValues) {
  return objects.map((object) => {
    const data: Record<string, unknown> = {};
    for (const field of fieldsOf(object)) {
      const value = typed(field, values[fieldKey(object.id, field.name)]);
      if (value !== undefined) data[field.name] = value;
    }
    return { insuredObjectId: object.id, data };
  });
}

/** The issues of a check (the form's own or the service's 400) as messages at the fields. */
export function issueErrors(
  objects: readonly InsuredObject[],
  issues: readonly PolicyDataIssue[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const object = objects.find((o) => o.id === issue.insuredObjectId);
    const field =
      object && issue.field ? fieldsOf(object).find((f) => f.name === issue.field) : null;
    const key = object && field ? fieldKey(object.id, field.name) : '';
    const text = (() => {
      switch (issue.code) {
        case 'required':
          return message('messages.fieldRequired', { field: field?.label ?? issue.path });
        case 'below_minimum':
          return message('messages.numberMin', { min: issue.limit ?? '' });
        case 'above_maximum':
          return message('messages.numberMax', { max: issue.limit ?? '' });
        case 'invalid_number':
          return message('messages.number_type');
        case 'invalid_date':
          return message('messages.invalid_date');
        default:
          return message('messages.invalid_value');
      }
    })();
    const list = (errors[key] ??= []);
    if (!list.includes(text)) list.push(text);
  }
  return errors;
}

/** Checks the form's values against the fields: the policy objects, or the errors per field. */
export function checkApplication(
  objects: readonly InsuredObject[],
  values: FormValues,
):
  | { ok: true; policyObjects: ReturnType<typeof policyObjectsOf> }
  | { ok: false; errors: FieldErrors } {
  const policyObjects = policyObjectsOf(objects, values);
  const issues = policyDataIssues(
    objects.map((o) => ({ id: o.id, name: o.name, fields: fieldsOf(o) })),
    policyObjects,
  );
  return issues.length
    ? { ok: false, errors: issueErrors(objects, issues) }
    : { ok: true, policyObjects };
}
