import { emailCheck } from './email-address.ts';
import * as v from 'valibot';

/**
 * The data of a policy object checked against its product fields (spec section 5: "Dynamic form
 * fields are validated by type. Required fields give the fieldRequired message. Numbers have min
 * and max. A boolean, if required, must be true."). The one rule set of every place that takes
 * such data: the sandbox's policies, applications and leads, which refuse what does not fit, and
 * the generated application form (policy sale, lead application, policy draft), which shows the
 * same verdict at the field before sending. Issues carry stable codes, never sentences: the
 * client translates them.
 */

export const OBJECT_DATA_ISSUE_CODES = [
  'required',
  'not_a_number',
  'below_minimum',
  'above_maximum',
  'invalid_date',
  'not_boolean',
  'not_a_string',
  'invalid_option',
  'invalid_email',
  'unknown_field',
  'not_an_object',
  'read_only',
  'unknown_insured_object',
  'duplicate_insured_object',
  'duration_too_short',
  'in_future',
  'too_young',
  'too_old',
] as const;
export type ObjectDataIssueCode = (typeof OBJECT_DATA_ISSUE_CODES)[number];

export interface ObjectDataIssue {
  /** `<field>` for one object's data, `<objectName>.<field>` for a whole policy. */
  path: string;
  code: ObjectDataIssueCode;
  /** The minimum or maximum that was crossed (`below_minimum`, `above_maximum`). */
  limit?: number;
}

/** What a product field says about its value (the product field of the upstream contract). */
export interface ObjectDataField {
  name: string;
  type: 'number' | 'boolean' | 'string' | 'date';
  kind?: string | null;
  isRequired: boolean;
  minimum?: number | null;
  maximum?: number | null;
}

/** Units of the `default` object's policyDurationUnit (field kind durationUnit). */
export const DURATION_UNITS = ['day', 'week', 'month', 'year'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

/**
 * How often a contract renews by itself (field kind renewalFrequency, the system field
 * policyRenewalFrequency); `none` runs out at the end of its term.
 */
export const RENEWAL_FREQUENCIES = [
  'none',
  'monthly',
  'quarterly',
  'halfYearly',
  'yearly',
] as const;
export type RenewalFrequency = (typeof RENEWAL_FREQUENCIES)[number];

/**
 * How often a policy is invoiced (field kind billingFrequency, the system field
 * billingFrequencyUnit; issue 18). A kind of its own rather than renewalFrequency: a policy is
 * always billed, so `none` is no choice here. The billing run reads the same names
 * (billing-run.ts, MONTHS_OF_UNIT); a policy without a value is billed yearly.
 */
export const BILLING_FREQUENCIES = ['monthly', 'quarterly', 'halfYearly', 'yearly'] as const;
export type BillingFrequency = (typeof BILLING_FREQUENCIES)[number];

/** The day of the month recurring invoices fall due on (recurringBillingDay): in every month. */
export const BILLING_DAY_MIN = 1;
export const BILLING_DAY_MAX = 28;

/** Values of the kinds whose options are fixed; other kinds take any text. */
export const KIND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  durationUnit: DURATION_UNITS,
  renewalFrequency: RENEWAL_FREQUENCIES,
  billingFrequency: BILLING_FREQUENCIES,
};

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Milliseconds of an ISO date (`2024-05-01`, midnight UTC) or timestamp, or null when the text is
 * not one or names a day that does not exist (`2024-02-30`).
 */
export function parseIsoDate(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const ms = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2024-02-30 over to March; the calendar day must be the one written.
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.getUTCMonth() === Number(match[2]) - 1 && day.getUTCDate() === Number(match[3])
    ? ms
    : null;
}

/** A form's empty input means "no value", whatever the field's type. */
const blankToNull = (value: unknown) =>
  value === undefined || (typeof value === 'string' && value.trim() === '') ? null : value;

function typedSchema(field: ObjectDataField) {
  switch (field.type) {
    case 'number': {
      const { minimum, maximum } = field;
      return v.pipe(
        v.number('not_a_number'),
        v.finite('not_a_number'),
        v.check((n) => minimum == null || n >= minimum, 'below_minimum'),
        v.check((n) => maximum == null || n <= maximum, 'above_maximum'),
      );
    }
    case 'boolean':
      return v.boolean('not_boolean');
    case 'date':
      return v.pipe(
        v.string('invalid_date'),
        v.check((text) => parseIsoDate(text) !== null, 'invalid_date'),
      );
    case 'string': {
      const options = KIND_OPTIONS[field.kind ?? ''];
      if (options) return v.picklist(options, 'invalid_option');
      const text = v.pipe(v.string('not_a_string'), v.maxLength(1000, 'not_a_string'));
      // Kinds that say what the text is: an address to write to, a moment in time.
      if (field.kind === 'email') return v.pipe(text, emailCheck('invalid_email'));
      if (field.kind === 'dateTime') {
        return v.pipe(
          text,
          v.check((value) => parseIsoDate(value) !== null, 'invalid_date'),
        );
      }
      return text;
    }
  }
}

/** A required value is present, and a required boolean is true (spec section 5). */
const isPresent = (value: unknown) => value !== null && value !== false;

function fieldSchema(field: ObjectDataField) {
  const typed = typedSchema(field);
  return field.isRequired
    ? v.pipe(v.unknown(), v.transform(blankToNull), v.check(isPresent, 'required'), typed)
    : v.pipe(v.unknown(), v.transform(blankToNull), v.nullable(typed));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The valibot schema of one insured object's data. Its output has every field of the object, an
 * absent or blank optional one as null, so that a premium formula can read it (`coalesce(x, 0)`)
 * instead of failing on an unknown name. A key that is no field of the object is refused.
 */
export function objectDataSchema(fields: readonly ObjectDataField[]) {
  const entries = Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)]));
  return v.pipe(
    v.custom<Record<string, unknown>>(isPlainObject, 'not_an_object'),
    // Every field becomes a key, so a missing one meets its own check ('required').
    v.transform((data) => ({
      ...Object.fromEntries(fields.map((field) => [field.name, null])),
      ...data,
    })),
    v.strictObject(entries, 'unknown_field'),
  );
}

export type ObjectData = Record<string, string | number | boolean | null>;

export type ObjectDataResult =
  { ok: true; issues: []; data: ObjectData } | { ok: false; issues: ObjectDataIssue[] };

const asCode = (message: string): ObjectDataIssueCode =>
  (OBJECT_DATA_ISSUE_CODES as readonly string[]).includes(message)
    ? (message as ObjectDataIssueCode)
    : 'not_an_object';

/** The bound a range issue crossed, so that a message can name it without the product fields. */
function limitOf(fields: readonly ObjectDataField[], path: string, code: ObjectDataIssueCode) {
  if (code !== 'below_minimum' && code !== 'above_maximum') return {};
  const field = fields.find((f) => f.name === path);
  const limit = code === 'below_minimum' ? field?.minimum : field?.maximum;
  return limit == null ? {} : { limit };
}

/** Checks one insured object's data; issue paths are field names (`''` for the data itself). */
export function validateObjectData(
  fields: readonly ObjectDataField[],
  data: unknown,
): ObjectDataResult {
  const result = v.safeParse(objectDataSchema(fields), data, { abortPipeEarly: true });
  if (result.success) return { ok: true, issues: [], data: result.output as ObjectData };
  return {
    ok: false,
    issues: result.issues.map((issue) => {
      const path = v.getDotPath(issue) ?? '';
      const code = asCode(issue.message);
      return { path, code, ...limitOf(fields, path, code) };
    }),
  };
}

/** An insured object of a product version with its fields. */
export interface InsuredObjectFields {
  id: number;
  name: string;
  fields: readonly ObjectDataField[];
}

export interface PolicyObjectInput {
  insuredObjectId: number;
  data: unknown;
}

export type PolicyObjectsResult<O extends InsuredObjectFields = InsuredObjectFields> =
  | { ok: true; issues: []; objects: { object: O; data: ObjectData }[] }
  | { ok: false; issues: ObjectDataIssue[] };

/**
 * Checks the policy objects of a whole policy against its product version's insured objects, in
 * the version's order. An insured object that is not given counts as one with no data (so its
 * required fields are reported), an id of no object of this version or given twice is an issue
 * at `policyObjects.<index>.insuredObjectId`. Field paths are `<objectName>.<field>`.
 */
export function validatePolicyObjects<O extends InsuredObjectFields>(
  objects: readonly O[],
  given: readonly PolicyObjectInput[],
  /** Today (the injected clock's time): dates of what already happened cannot lie after it. */
  todayMs: number,
): PolicyObjectsResult<O> {
  const issues: ObjectDataIssue[] = [];
  const byId = new Map<number, unknown>();
  given.forEach((input, index) => {
    const path = `policyObjects.${index}.insuredObjectId`;
    if (!objects.some((o) => o.id === input.insuredObjectId)) {
      issues.push({ path, code: 'unknown_insured_object' });
    } else if (byId.has(input.insuredObjectId)) {
      issues.push({ path, code: 'duplicate_insured_object' });
    } else {
      byId.set(input.insuredObjectId, input.data);
    }
  });
  const checked: { object: O; data: ObjectData }[] = [];
  for (const object of objects) {
    const result = validateObjectData(object.fields, byId.get(object.id) ?? {});
    if (result.ok) checked.push({ object, data: result.data });
    else
      for (const issue of result.issues) {
        issues.push({ ...issue, path: issue.path ? `${object.name}.${issue.path}` : object.name });
      }
  }
  // Across fields only where each field is right on its own: one problem, one message.
  const wrong = new Set(issues.map((issue) => issue.path));
  for (const issue of termIssues(checked, todayMs)) {
    if (!wrong.has(issue.path)) issues.push(issue);
  }
  return issues.length ? { ok: false, issues } : { ok: true, issues: [], objects: checked };
}

const DAY_MS = 86_400_000;

/** Fields that record what already happened: a first registration, a purchase. */
const PAST_FIELDS: readonly string[] = ['firstRegistration', 'purchaseDate'];
/** The object whose person must be of age: the main driver of a vehicle. */
const ADULT_OBJECTS: readonly string[] = ['driver'];
export const MINIMUM_AGE = 18;
export const MAXIMUM_AGE = 120;

/** Full years from `fromMs` to `toMs` (UTC calendar), a birthday counting on its day. */
export function fullYears(fromMs: number, toMs: number): number {
  const from = new Date(fromMs);
  const to = new Date(toMs);
  const beforeBirthday =
    to.getUTCMonth() < from.getUTCMonth() ||
    (to.getUTCMonth() === from.getUTCMonth() && to.getUTCDate() < from.getUTCDate());
  return to.getUTCFullYear() - from.getUTCFullYear() - (beforeBirthday ? 1 : 0);
}

/**
 * The rules between fields of a whole policy (issue 15, point 5), on data whose fields are each
 * right: the term lasts at least one of its units (so it ends after it starts); a first
 * registration or purchase is not in the future (a car may be registered after its cover
 * begins, as the insurance confirmation comes first); a birth date is not in
 * the future, the person is at most {@link MAXIMUM_AGE} at the start, and a driver at least
 * {@link MINIMUM_AGE}. Only the fields a product has are checked; paths are `<object>.<field>`.
 */
export function termIssues(
  objects: readonly { object: { name: string }; data: ObjectData }[],
  todayMs: number,
): ObjectDataIssue[] {
  const issues: ObjectDataIssue[] = [];
  const today = Math.floor(todayMs / DAY_MS) * DAY_MS;
  const term = objects.find((o) => o.object.name === 'default')?.data ?? {};
  const duration = term.policyDurationValue;
  if (typeof duration === 'number' && duration < 1) {
    issues.push({ path: 'default.policyDurationValue', code: 'duration_too_short', limit: 1 });
  }
  const startMs = parseIsoDate(term.policyStartDate);
  const day = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
  for (const { object, data } of objects) {
    for (const [field, value] of Object.entries(data)) {
      const ms = parseIsoDate(value);
      if (ms === null) continue;
      const path = `${object.name}.${field}`;
      if (PAST_FIELDS.includes(field)) {
        if (day(ms) > today) issues.push({ path, code: 'in_future' });
      } else if (field === 'birthDate') {
        const at = startMs ?? today;
        if (day(ms) > today) issues.push({ path, code: 'in_future' });
        else if (fullYears(ms, at) > MAXIMUM_AGE) {
          issues.push({ path, code: 'too_old', limit: MAXIMUM_AGE });
        } else if (ADULT_OBJECTS.includes(object.name) && fullYears(ms, at) < MINIMUM_AGE) {
          issues.push({ path, code: 'too_young', limit: MINIMUM_AGE });
        }
      }
    }
  }
  return issues;
}

/**
 * The fields still to be filled in: while every issue is a missing required value the data is
 * merely incomplete (a form being filled), not wrong. Empty when any issue is of another kind.
 */
export function missingFields(issues: readonly ObjectDataIssue[]): string[] {
  return issues.every((issue) => issue.code === 'required') ? issues.map((i) => i.path) : [];
}

/**
 * The issues as one line for an error message, each with the bound it crossed:
 * `vehicle.vehicleValue: below_minimum (1000); vehicle.isCommercial: not_boolean`.
 */
export function describeIssues(issues: readonly ObjectDataIssue[]): string {
  return issues
    .map((i) => `${i.path}: ${i.code}${i.limit === undefined ? '' : ` (${i.limit})`}`)
    .join('; ');
}
