import type { ProductFieldType } from './products.ts';

/**
 * Checks the data of an application's policy objects against the product version's insured
 * objects and their typed fields. One rule set for the sandbox (it refuses bad data with 400 and
 * these issues) and the application form (it shows them at the fields before sending), so the form
 * refuses exactly what the service would refuse.
 */

export interface PolicyDataField {
  name: string;
  type: ProductFieldType;
  isRequired: boolean;
  minimum: number | null;
  maximum: number | null;
}

export interface PolicyDataObject {
  id: number;
  name: string;
  fields: readonly PolicyDataField[];
}

export interface PolicyObjectInput {
  insuredObjectId: number;
  data: Record<string, unknown>;
}

export type PolicyDataIssueCode =
  | 'required'
  | 'invalid_number'
  | 'invalid_boolean'
  | 'invalid_string'
  | 'invalid_date'
  | 'below_minimum'
  | 'above_maximum'
  | 'unknown_field'
  | 'unknown_insured_object'
  | 'duplicate_insured_object'
  | 'missing_insured_object';

export interface PolicyDataIssue {
  /** `{object name}.{field name}`, or the object name alone for an object-level issue. */
  path: string;
  insuredObjectId: number;
  field: string | null;
  code: PolicyDataIssueCode;
  /** The minimum or maximum that was crossed. */
  limit?: number;
}

/** A value that counts as not given: absent, null or blank text. */
export const isEmptyValue = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A calendar date written YYYY-MM-DD (2024-02-30 is not one). */
export function isIsoCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function fieldIssue(
  field: PolicyDataField,
  value: unknown,
): Pick<PolicyDataIssue, 'code' | 'limit'> | null {
  if (isEmptyValue(value)) return field.isRequired ? { code: 'required' } : null;
  // Spec, section 5: a required yes/no field must be yes (a consent, a confirmation).
  if (field.type === 'boolean' && field.isRequired && value === false) return { code: 'required' };
  switch (field.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { code: 'invalid_number' };
      if (field.minimum !== null && value < field.minimum) {
        return { code: 'below_minimum', limit: field.minimum };
      }
      if (field.maximum !== null && value > field.maximum) {
        return { code: 'above_maximum', limit: field.maximum };
      }
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : { code: 'invalid_boolean' };
    case 'string':
      return typeof value === 'string' && value.length <= 1000 ? null : { code: 'invalid_string' };
    case 'date':
      return typeof value === 'string' && isIsoCalendarDate(value)
        ? null
        : { code: 'invalid_date' };
  }
}

/**
 * Every issue of the given policy objects: each insured object of the version exactly once, each
 * field of the right type, required ones present, numbers within their range, no unknown field.
 * An empty list means the data is acceptable.
 */
export function policyDataIssues(
  objects: readonly PolicyDataObject[],
  policyObjects: readonly PolicyObjectInput[],
): PolicyDataIssue[] {
  const issues: PolicyDataIssue[] = [];
  const byId = new Map(objects.map((object) => [object.id, object]));
  const seen = new Set<number>();
  for (const given of policyObjects) {
    const object = byId.get(given.insuredObjectId);
    if (!object) {
      issues.push({
        path: String(given.insuredObjectId),
        insuredObjectId: given.insuredObjectId,
        field: null,
        code: 'unknown_insured_object',
      });
      continue;
    }
    if (seen.has(object.id)) {
      issues.push({
        path: object.name,
        insuredObjectId: object.id,
        field: null,
        code: 'duplicate_insured_object',
      });
      continue;
    }
    seen.add(object.id);
    const known = new Set(object.fields.map((field) => field.name));
    for (const name of Object.keys(given.data)) {
      if (!known.has(name)) {
        issues.push({
          path: `${object.name}.${name}`,
          insuredObjectId: object.id,
          field: name,
          code: 'unknown_field',
        });
      }
    }
    for (const field of object.fields) {
      const value = Object.hasOwn(given.data, field.name) ? given.data[field.name] : undefined;
      const issue = fieldIssue(field, value);
      if (issue) {
        issues.push({
          path: `${object.name}.${field.name}`,
          insuredObjectId: object.id,
          field: field.name,
          ...issue,
        });
      }
    }
  }
  for (const object of objects) {
    if (!seen.has(object.id)) {
      issues.push({
        path: object.name,
        insuredObjectId: object.id,
        field: null,
        code: 'missing_insured_object',
      });
    }
  }
  return issues;
}

/** One line per issue for an error message: `vehicle.vehicleValue: below_minimum (1000)`. */
export function describeIssues(issues: readonly PolicyDataIssue[]): string {
  return issues
    .map((i) => `${i.path}: ${i.code}${i.limit === undefined ? '' : ` (${i.limit})`}`)
    .join('; ');
}
