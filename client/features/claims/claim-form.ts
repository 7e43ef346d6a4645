import * as v from 'valibot';
import type { Claim, ClaimFieldsBody, ClaimType } from '#client/api/claims-client.ts';
import { fieldIssues } from '#client/api/error-text.ts';
import { conflictRowsOf, type ConflictRow } from '#client/ui/conflict-rows.ts';
import type { FormValues } from '#client/ui/form/custom-form-fields.tsx';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { ClaimFields, claimDateIssues, isIsoDay } from '#common/claims.ts';

/**
 * The claim form's values, its checks and the comparison behind the edit conflict, apart from
 * React so that they are tested on their own. The checks are the service's own rules
 * (`#common/claims.ts`), so the form refuses what the service would refuse, with the same codes:
 * a code becomes the key `claims:form.errors.{code}`, translated where it is shown.
 */

export interface ClaimValues {
  title: string;
  claimType: ClaimType | '';
  /** YYYY-MM-DD, or the text typed while it is no date yet. */
  damageDate: string;
  notificationDate: string;
  description: string;
  /** The tenant's claim custom fields, as the form kit edits them. */
  custom: FormValues;
}

export const CLAIM_FIELDS = [
  'title',
  'claimType',
  'damageDate',
  'notificationDate',
  'description',
  'customFields',
] as const;
export type ClaimField = (typeof CLAIM_FIELDS)[number];

/** Where the custom fields' messages are kept among the form's errors. */
export const CUSTOM_ERROR_PREFIX = 'customFields.';

// The codes the claims namespace translates; any other becomes the generic `invalid`.
const KNOWN_CODES = new Set([
  'required',
  'too_long',
  'invalid_text',
  'invalid_date',
  'date_in_future',
  'before_policy_start',
  'before_damage_date',
  'invalid_claim_type',
  'unknown_policy',
  'invalid_amount',
  'unknown_insured_object',
  'no_cover_on_loss_date',
  'loss_not_covered',
  'payment_needs_approved_claim',
  'payment_above_reserve',
]);

/** The refusals of the cover check (claim-cover.ts of the claim service): an override may follow. */
export const COVER_CODES: ReadonlySet<string> = new Set([
  'no_cover_on_loss_date',
  'loss_not_covered',
]);

export const errorKey = (code: string) =>
  `claims:form.errors.${KNOWN_CODES.has(code) ? code : 'invalid'}`;

export function valuesOf(claim: Claim): ClaimValues {
  return {
    title: claim.title,
    claimType: claim.claimType,
    damageDate: claim.damageDate,
    notificationDate: claim.notificationDate,
    description: claim.description,
    custom: { ...claim.customFields },
  };
}

/** A new claim: noticed today, nothing else known yet. */
export function emptyValues(today: string): ClaimValues {
  return {
    title: '',
    claimType: '',
    damageDate: '',
    notificationDate: today,
    description: '',
    custom: {},
  };
}

export interface ClaimCheckContext {
  /** The workspace's today, YYYY-MM-DD. */
  today: string;
  /** The first day of the claim's policy, when known; the service checks it anyway. */
  policyStart: string | null;
  /** The tenant's claim custom schema (`buildCustomSchema`). */
  customSchema: v.GenericSchema<unknown, unknown>;
}

/**
 * The values as the service takes them, or the errors per field: the field rules of the service,
 * then the rules between the dates, then the custom fields. Every error is collected at once.
 */
export function validateClaim(
  values: ClaimValues,
  context: ClaimCheckContext,
): { ok: true; input: ClaimFieldsBody } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (field: string, key: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(key)) list.push(key);
  };
  const parsed = v.safeParse(
    ClaimFields,
    {
      title: values.title,
      description: values.description,
      damageDate: values.damageDate,
      notificationDate: values.notificationDate,
      // An unchosen type is a missing value, not a wrong one.
      claimType: values.claimType || undefined,
      customFields: {},
    },
    { abortPipeEarly: true },
  );
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const field = v.getDotPath(issue) ?? 'form';
      const code = field === 'claimType' && !values.claimType ? 'required' : issue.message;
      add(field, errorKey(code));
    }
  }
  if (isIsoDay(values.damageDate) && isIsoDay(values.notificationDate)) {
    for (const issue of claimDateIssues(
      { damageDate: values.damageDate, notificationDate: values.notificationDate },
      context,
    )) {
      add(issue.field, errorKey(issue.code));
    }
  }
  const custom = validateForm(context.customSchema, values.custom);
  for (const [name, messages] of Object.entries(custom.errors)) {
    for (const message of messages) add(`${CUSTOM_ERROR_PREFIX}${name}`, message);
  }
  if (!parsed.success || !custom.success || Object.keys(errors).length) {
    return { ok: false, errors };
  }
  // Empty custom values are left out: "no value", as the service keeps it.
  const customFields = Object.fromEntries(
    Object.entries(custom.output as Record<string, unknown>).filter(
      ([, value]) => value !== null && value !== undefined,
    ),
  );
  const { title, description, damageDate, notificationDate, claimType } = parsed.output;
  return {
    ok: true,
    input: {
      title,
      description,
      damageDate,
      claimType,
      customFields,
      ...(notificationDate ? { notificationDate } : {}),
    },
  };
}

/**
 * What a save of an existing claim sends (issue 15 point 13): only the fields this user changed,
 * so that it never writes back a value another user changed (`custom` is the form's name for the
 * custom fields). The service merges custom fields by key, so only the custom fields this user
 * changed go (`changed` names them as `custom.<name>`), a custom field emptied in the form as null.
 * Without names per key, all custom fields go, the tenant's others (`customNames`) as null. With
 * nothing changed, the title as it is: a save that changes nothing, which the service answers with
 * the claim and its version kept.
 */
export function claimChangesOf(
  input: ClaimFieldsBody,
  changed: readonly string[],
  customNames: readonly string[] = [],
): Partial<ClaimFieldsBody> {
  const prefix = 'custom.';
  const fields = new Set(changed.map((field) => (field === 'custom' ? 'customFields' : field)));
  const changes = Object.fromEntries(
    Object.entries(input).filter(([field]) => fields.has(field)),
  ) as Partial<ClaimFieldsBody>;
  if (changes.customFields) {
    const perKey = changed.filter((field) => field.startsWith(prefix));
    const names = perKey.length
      ? perKey.map((field) => field.slice(prefix.length))
      : [...new Set([...customNames, ...Object.keys(changes.customFields)])];
    changes.customFields = Object.fromEntries(
      names.map((name) => [name, changes.customFields![name] ?? null]),
    );
  }
  return Object.keys(changes).length ? changes : { title: input.title };
}

/** The messages of the custom fields, by field name, as the form kit reads them. */
export function customErrorsOf(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([field]) => field.startsWith(CUSTOM_ERROR_PREFIX))
      .map(([field, messages]) => [field.slice(CUSTOM_ERROR_PREFIX.length), messages]),
  );
}

/**
 * A 400 of the claim service names each field and rule in its `issues` (`{path: 'damageDate',
 * code: 'date_in_future'}`, `{path: 'customFields.damageLocation', code: 'too_short'}`): the
 * messages at those fields, or null when the refusal names no field the form shows.
 */
export function serverFieldErrors(error: unknown, fields: readonly string[]): FieldErrors | null {
  const errors: FieldErrors = {};
  for (const { path, code } of fieldIssues(error)) {
    if (path.startsWith(CUSTOM_ERROR_PREFIX)) {
      errors[path] ??= [errorKey(code === 'required' ? 'required' : 'invalid')];
    } else if (fields.includes(path)) errors[path] ??= [errorKey(code)];
  }
  return Object.keys(errors).length ? errors : null;
}

/**
 * The custom values as one line, each under its label in the reader's language
 * (`Schadenort: Keller · Geschätzter Schaden: 1200`); a field the schema no longer has keeps its
 * name.
 */
function customText(custom: FormValues, labelOf: (name: string) => string): string {
  return Object.entries(custom)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(
      ([name, value]) =>
        `${labelOf(name)}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    )
    .sort()
    .join(' · ');
}

function textOf(
  values: ClaimValues,
  labelOf: (name: string) => string,
): Record<ClaimField, string> {
  return {
    title: values.title,
    claimType: values.claimType,
    damageDate: values.damageDate,
    notificationDate: values.notificationDate,
    description: values.description,
    customFields: customText(values.custom, labelOf),
  };
}

/**
 * The fields another save changed since the form was loaded (see conflictRowsOf); custom fields
 * are named by `labelOf` (their labels in the reader's language), never by their technical names.
 */
export function conflictRows(
  loaded: Claim,
  mine: ClaimValues,
  saved: Claim,
  labelOf: (name: string) => string = (name) => name,
): ConflictRow<ClaimField>[] {
  return conflictRowsOf(
    CLAIM_FIELDS,
    textOf(valuesOf(loaded), labelOf),
    textOf(mine, labelOf),
    textOf(valuesOf(saved), labelOf),
  );
}
