import { TERM_FIELDS } from '#common/policy-lifecycle.ts';
import {
  DURATION_UNITS,
  validateObjectData,
  type ObjectDataField,
} from '#common/policy-object-data.ts';
import type { PolicyObject, PolicyObjectPatch } from '#client/api/policies-client.ts';
import type { InsuredObject, ProductField } from '#client/api/products-client.ts';
import type { FieldErrors, FormField } from '#client/ui/form/custom-schema.ts';
import { message } from '#client/ui/form/messages.ts';

/**
 * The draft editor's form: one section per policy object, one input per product field by its
 * type (number, yes/no, date, text; a duration unit is a choice). The check is the service's own
 * (`common/policy-object-data`), so the form says at the field what the service would refuse.
 */

export type ObjectValues = Record<string, unknown>;

export interface DraftSection {
  object: PolicyObject;
  /** Fields the draft may change, in the product's order. */
  editable: FormField[];
  /** The contract term: shown, never changed by a draft (TERM_FIELDS). */
  readOnly: { name: string; label: string; type: ProductField['type']; value: unknown }[];
  /** Every field of the insured object, for the check of the whole data. */
  fields: ObjectDataField[];
}

const isTermField = (object: PolicyObject, name: string) =>
  object.insuredObjectName === 'default' && (TERM_FIELDS as readonly string[]).includes(name);

function formField(field: ProductField): FormField {
  const common = { name: field.name, label: field.label || field.name, required: field.isRequired };
  switch (field.type) {
    case 'number':
      return {
        ...common,
        control: 'number',
        ...(field.minimum !== null ? { minimum: field.minimum } : {}),
        ...(field.maximum !== null ? { maximum: field.maximum } : {}),
      };
    case 'boolean':
      return { ...common, control: 'checkbox' };
    case 'date':
      return { ...common, control: 'date' };
    case 'string':
      return field.kind === 'durationUnit'
        ? {
            ...common,
            control: 'select',
            options: DURATION_UNITS.map((u) => ({ value: u, label: u })),
          }
        : { ...common, control: 'text', maxLength: 1000 };
  }
}

/** The sections of a timeslice's objects, in the order served; objects the tariff lacks are left out. */
export function draftSections(
  objects: readonly PolicyObject[],
  tariff: readonly InsuredObject[],
): DraftSection[] {
  return objects.flatMap((object) => {
    const insured =
      tariff.find((o) => o.id === object.insuredObjectId) ??
      tariff.find((o) => o.name === object.insuredObjectName);
    if (!insured) return [];
    const fields = [...(insured.productFields ?? [])].sort((a, b) => a.order - b.order);
    return [
      {
        object,
        editable: fields.filter((f) => !isTermField(object, f.name)).map(formField),
        readOnly: fields
          .filter((f) => isTermField(object, f.name))
          .map((f) => ({
            name: f.name,
            label: f.label || f.name,
            type: f.type,
            value: object.data[f.name],
          })),
        fields: fields.map((f) => ({
          name: f.name,
          type: f.type,
          kind: f.kind,
          isRequired: f.isRequired,
          minimum: f.minimum,
          maximum: f.maximum,
        })),
      },
    ];
  });
}

/** A number input's text as the service wants it: a number, null when empty, else the text. */
function numberOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return null;
  const number = Number(text.replace(',', '.'));
  return Number.isFinite(number) ? number : value;
}

/** The form's values as data: numbers typed as text become numbers, empty inputs null. */
export function dataOf(section: DraftSection, values: ObjectValues): ObjectValues {
  const data: ObjectValues = { ...section.object.data };
  for (const field of section.editable) {
    const value = values[field.name];
    data[field.name] =
      field.control === 'number'
        ? numberOf(value)
        : field.control === 'checkbox'
          ? // An unticked box over a value never given stays "not given", not a change to false.
            value === true || (section.object.data[field.name] === null ? null : false)
          : value === '' || value === undefined
            ? null
            : value;
  }
  return data;
}

/** The values a section's form starts with (numbers and dates as the inputs show them). */
export function initialValues(section: DraftSection): ObjectValues {
  return Object.fromEntries(
    section.editable.map((field) => {
      const value = section.object.data[field.name];
      if (field.control === 'checkbox') return [field.name, value === true];
      if (value === null || value === undefined) return [field.name, ''];
      return [field.name, field.control === 'number' ? String(value) : value];
    }),
  );
}

/** An issue code of the shared check as a message of the form kit (the `ui` namespace). */
export function issueMessage(code: string, field: FormField | undefined): string {
  switch (code) {
    case 'required':
      return field?.control === 'checkbox'
        ? message('messages.booleanTrueRequired')
        : message('messages.fieldRequired', { field: field?.label ?? '' });
    case 'below_minimum':
      return message('messages.numberMin', { min: field?.minimum ?? '' });
    case 'above_maximum':
      return message('messages.numberMax', { max: field?.maximum ?? '' });
    case 'not_a_number':
      return message('messages.number_type');
    case 'invalid_date':
      return message('messages.invalid_date');
    default:
      return message('messages.invalid_value');
  }
}

export interface DraftCheck {
  /** Errors by `<objectName>.<field>`, the service's own paths. */
  errors: FieldErrors;
  /** What the patch sends: per object only the fields that differ from the draft. */
  patch: PolicyObjectPatch[];
}

/** Checks every section whole and collects the changed fields. */
export function checkDraft(
  sections: readonly DraftSection[],
  values: Readonly<Record<string, ObjectValues>>,
): DraftCheck {
  const errors: FieldErrors = {};
  const patch: PolicyObjectPatch[] = [];
  for (const section of sections) {
    const { object } = section;
    const data = dataOf(section, values[object.code] ?? initialValues(section));
    const result = validateObjectData(section.fields, data);
    for (const issue of result.issues) {
      const field = section.editable.find((f) => f.name === issue.path);
      // Term fields are not the user's to fix: they are never reported at an input.
      if (!field) continue;
      (errors[`${object.insuredObjectName}.${issue.path}`] ??= []).push(
        issueMessage(issue.code, field),
      );
    }
    const changed = Object.fromEntries(
      section.editable
        .filter((f) => !sameValue(data[f.name], object.data[f.name]))
        .map((f) => [f.name, data[f.name] ?? null]),
    );
    if (Object.keys(changed).length && object.insuredObjectId !== null) {
      patch.push({ insuredObjectId: object.insuredObjectId, data: changed });
    }
  }
  return { errors, patch };
}

const sameValue = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** The server's 400 issues as form errors at the same paths. */
export function errorsOfIssues(
  sections: readonly DraftSection[],
  issues: readonly { path: string; code: string }[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const section = sections.find((s) => issue.path.startsWith(`${s.object.insuredObjectName}.`));
    const name = section ? issue.path.slice(section.object.insuredObjectName.length + 1) : '';
    const field = section?.editable.find((f) => f.name === name);
    (errors[issue.path] ??= []).push(issueMessage(issue.code, field));
  }
  return errors;
}
