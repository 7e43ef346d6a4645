import * as v from 'valibot';
import {
  CUSTOM_FIELD_TYPES as CUSTOM_SCHEMA_TYPES,
  CUSTOM_TEXT_DEFAULT_MAX,
} from '#common/custom-schema-field.ts';
import type { NameLabels } from '#common/name-labels.ts';
import { isEncodedMessage, message, messageOfCode } from './messages.ts';
import { emailRule, numberField, phoneRule, requiredMessage, trueRequired } from './rules.ts';
import { emptyToNull } from './values.ts';

/**
 * The field types the form kit renders: those the custom schema editor offers
 * (common/custom-schema-field.ts) and `url`, a link input, which a schema from a service may
 * also name.
 */
const CUSTOM_FIELD_TYPES = [...CUSTOM_SCHEMA_TYPES, 'url'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Whether a field type a service sent is one the form kit renders. */
export const isCustomFieldType = (type: string): type is CustomFieldType =>
  (CUSTOM_FIELD_TYPES as readonly string[]).includes(type);

export type FieldOption = { value: string; label: string };

/** One field of a tenant's custom schema (spec, section 5 "custom fields"). */
export interface CustomField {
  name: string;
  label?: string;
  /** The label per language; screens show it through `useLocalizedFields`. */
  labels?: NameLabels;
  type: CustomFieldType;
  isRequired: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  options?: readonly (string | FieldOption)[];
  /** Strings only: a text area (5 rows) instead of a one-line input. */
  multiline?: boolean;
}

export type FieldControl =
  | 'text'
  | 'textarea'
  | 'email'
  | 'tel'
  | 'url'
  | 'number'
  | 'select'
  | 'checkbox'
  | 'date'
  | 'dateTime'
  | 'list'
  | 'none';

/** What a form renders for a field. */
export interface FormField {
  name: string;
  label: string;
  control: FieldControl;
  required: boolean;
  options?: FieldOption[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** A line under the control (an allowed range, say), tied to it with aria-describedby. */
  hint?: string;
}

type AnySchema = v.GenericSchema<unknown, unknown>;

const toOptions = (options: readonly (string | FieldOption)[]): FieldOption[] =>
  options.map((option) => (typeof option === 'string' ? { value: option, label: option } : option));

/** The longest text a string field takes: its own limit, else the sandbox's default. */
const textMax = (field: CustomField) => field.maxLength ?? CUSTOM_TEXT_DEFAULT_MAX;

function stringSchema(field: CustomField, label: string): AnySchema {
  const { minLength } = field;
  const maxLength = textMax(field);
  const options = field.options ? toOptions(field.options) : null;
  const text = v.pipe(
    v.string(),
    v.check(
      (value) => minLength === undefined || value.length >= minLength,
      message('messages.string_min', { min: minLength ?? '' }),
    ),
    v.check(
      (value) => value.length <= maxLength,
      message('messages.string_max', { max: maxLength }),
    ),
    v.check(
      (value) => options === null || options.some((option) => option.value === value),
      message('messages.invalid_value'),
    ),
  );
  return field.isRequired ? requiredThen(label, text) : v.nullish(text);
}

/** Null or blank (empty strings are null by now) gives `fieldRequired`, then `schema` applies. */
function requiredThen(label: string, schema: AnySchema): AnySchema {
  return v.pipe(
    v.unknown(),
    v.check((value) => value !== null && value !== undefined, requiredMessage(label)),
    schema,
  );
}

function typedString(field: CustomField, label: string, rule: v.GenericPipeItem<string>) {
  const schema = v.pipe(v.string(), rule);
  return field.isRequired ? requiredThen(label, schema) : v.nullish(schema);
}

function fieldSchema(field: CustomField, label: string): AnySchema {
  switch (field.type) {
    case 'string':
    case 'textarea':
      return stringSchema(field, label);
    case 'email':
      return typedString(field, label, emailRule('invalidEmail'));
    case 'phone':
      return typedString(field, label, phoneRule());
    case 'url':
      return typedString(field, label, v.url(message('messages.invalid_url')));
    case 'date':
      return typedString(field, label, v.isoDate(message('messages.invalid_date')));
    case 'dateTime':
      return typedString(field, label, v.isoTimestamp(message('messages.invalid_date')));
    case 'number':
      return numberField(label, {
        required: field.isRequired,
        ...(field.minimum === undefined ? {} : { minimum: field.minimum }),
        ...(field.maximum === undefined ? {} : { maximum: field.maximum }),
      });
    case 'boolean':
      return field.isRequired ? trueRequired() : v.nullish(v.boolean());
    case 'array': {
      const options = field.options ? toOptions(field.options) : null;
      const list = v.pipe(
        v.array(v.string()),
        v.check(
          (items) => options === null || items.every((i) => options.some((o) => o.value === i)),
          message('messages.invalid_value'),
        ),
      );
      return field.isRequired
        ? requiredThen(label, v.pipe(list, v.minLength(1, requiredMessage(label))))
        : v.nullish(list);
    }
    case 'object': {
      const record = v.record(v.string(), v.unknown());
      return field.isRequired ? requiredThen(label, record) : v.nullish(record);
    }
  }
}

/**
 * The control of a custom field, by its type (spec, section 5 "dynamic fields by type"); the one
 * mapping of every generated form: custom schemas and the product fields of an application.
 */
export function fieldControl(
  field: Pick<CustomField, 'type' | 'options' | 'multiline'>,
): FieldControl {
  switch (field.type) {
    case 'string':
      if (field.options) return 'select';
      return field.multiline ? 'textarea' : 'text';
    case 'textarea':
      return 'textarea';
    case 'email':
      return 'email';
    case 'phone':
      return 'tel';
    case 'url':
      return 'url';
    case 'number':
      return 'number';
    case 'boolean':
      return 'checkbox';
    case 'date':
      return 'date';
    case 'dateTime':
      return 'dateTime';
    // A list: its options as checkboxes, or one entry per line.
    case 'array':
      return 'list';
    // Nested objects have no generic editor; screens render them themselves.
    case 'object':
      return 'none';
  }
}

/** A custom schema -> a valibot object schema and the list of fields to render. */
export function buildCustomSchema(fields: readonly CustomField[]) {
  const entries: Record<string, AnySchema> = {};
  const formFields: FormField[] = [];
  for (const field of fields) {
    const label = field.label ?? field.name;
    // Text fields stop at their limit or the sandbox's default; others keep their own, if any.
    const maxLength =
      field.type === 'string' || field.type === 'textarea' ? textMax(field) : field.maxLength;
    entries[field.name] = fieldSchema(field, label);
    formFields.push({
      name: field.name,
      label,
      control: fieldControl(field),
      required: field.isRequired,
      ...(field.options ? { options: toOptions(field.options) } : {}),
      ...(field.minimum === undefined ? {} : { minimum: field.minimum }),
      ...(field.maximum === undefined ? {} : { maximum: field.maximum }),
      ...(maxLength === undefined ? {} : { maxLength }),
    });
  }
  // A field the user never touched is missing from the values; as null it gets the field's own
  // message (fieldRequired) rather than valibot's "invalid key".
  const missingAsNull = Object.fromEntries(fields.map((field) => [field.name, null]));
  const schema = v.pipe(
    v.record(v.string(), v.unknown()),
    v.transform((input) => ({ ...missingAsNull, ...input })),
    v.object(entries),
  );
  return { schema, fields: formFields };
}

export type ErrorDisplay = 'all' | 'first';
export type FieldErrors = Record<string, string[]>;

export type FormResult<T> =
  | { success: true; output: T; errors: FieldErrors }
  | { success: false; output: null; errors: FieldErrors };

/**
 * Empty strings to null, then validation with every issue collected per field (dot path;
 * object-level issues under `''`). `first` keeps each field's first message only.
 */
export function validateForm<T>(
  schema: v.GenericSchema<unknown, T>,
  values: unknown,
  display: ErrorDisplay = 'all',
): FormResult<T> {
  const result = v.safeParse(schema, emptyToNull(values), { abortPipeEarly: false });
  if (result.success) return { success: true, output: result.output, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const path = v.getDotPath(issue) ?? '';
    const list = (errors[path] ??= []);
    if (display === 'first' && list.length > 0) continue;
    // A rule without a message of its own says it by its code, translated like the others.
    const text = isEncodedMessage(issue.message)
      ? issue.message
      : messageOfCode(issue.type, (issue as { requirement?: unknown }).requirement);
    if (!list.includes(text)) list.push(text);
  }
  return { success: false, output: null, errors };
}
