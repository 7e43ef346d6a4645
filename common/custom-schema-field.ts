import * as v from 'valibot';
import { labelsSchema, storedLabels } from './name-labels.ts';

/**
 * The field shape of a tenant's custom schema (spec, section 3: name, label, type, isRequired,
 * minLength, maxLength, minimum, maximum; "object with options"). Shared by the sandbox, which
 * validates what is saved, and the settings screen, which checks the same rules before sending.
 * Messages are the `tenant_settings` keys under `custom_schemas.errors`, so the screen can
 * translate them; the sandbox sends them as they are.
 */

export const CUSTOM_SCHEMA_ENTITIES = [
  'account',
  'claim',
  'invoice',
  'payment',
  'organization',
] as const;
export type CustomSchemaEntity = (typeof CUSTOM_SCHEMA_ENTITIES)[number];

/**
 * The spec's custom schema types (string, number, boolean, date, email, array, object) and three
 * its dynamic fields and rules also know: text area ("text-area"), phone ("isPhoneNumber",
 * `messages.invalidPhoneFormat`) and a date with its time (stored ISO, like dates).
 */
export const CUSTOM_FIELD_TYPES = [
  'string',
  'textarea',
  'number',
  'boolean',
  'date',
  'dateTime',
  'email',
  'phone',
  'array',
  'object',
] as const;
export type CustomSchemaFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Types whose values are text: only they take minLength and maxLength. */
const TEXT_TYPES: ReadonlySet<string> = new Set(['string', 'textarea', 'email']);
/** Types that may offer a list of options (a select for strings, choices for lists). */
const OPTION_TYPES: ReadonlySet<string> = new Set(['string', 'array', 'object']);

export const MAX_CUSTOM_FIELDS = 50;
/**
 * The length a text value of a custom field may have when its schema sets no maxLength: the
 * sandbox refuses longer ones, and the forms stop typing there (`maxlength`) instead of failing
 * at save.
 */
export const CUSTOM_TEXT_DEFAULT_MAX = 2_000;
/** A field's label, in any language. */
const LABEL_LENGTH = 200;
const MAX_LENGTH_LIMIT = 10_000;

const length = v.optional(
  v.pipe(
    v.number(),
    v.integer('custom_schemas.errors.length'),
    v.minValue(0, 'custom_schemas.errors.length'),
    v.maxValue(MAX_LENGTH_LIMIT, 'custom_schemas.errors.length'),
  ),
);
const bound = v.optional(v.pipe(v.number(), v.finite('custom_schemas.errors.bound')));

export const CustomSchemaFieldSchema = v.pipe(
  v.object({
    name: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, 'custom_schemas.errors.name_format'),
    ),
    label: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty('custom_schemas.errors.label_required'),
      v.maxLength(LABEL_LENGTH, 'custom_schemas.errors.label_length'),
    ),
    /**
     * The label per language (issue 15 point 16, issue 16): screens show the user's language,
     * else the tenant's default language, else `label`. Stored with the languages that have a
     * text only, so an emptied language falls back again.
     */
    labels: v.optional(
      v.pipe(
        labelsSchema(LABEL_LENGTH, 'custom_schemas.errors.label_length'),
        v.transform(storedLabels),
      ),
    ),
    type: v.picklist(CUSTOM_FIELD_TYPES, 'custom_schemas.errors.type'),
    isRequired: v.optional(v.boolean(), false),
    minLength: length,
    maxLength: length,
    minimum: bound,
    maximum: bound,
    options: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string(),
            v.trim(),
            v.nonEmpty('custom_schemas.errors.option_empty'),
            v.maxLength(100),
          ),
        ),
        v.minLength(1, 'custom_schemas.errors.options_empty'),
        v.maxLength(100, 'custom_schemas.errors.options_many'),
        v.check(
          (list) => new Set(list).size === list.length,
          'custom_schemas.errors.options_unique',
        ),
      ),
    ),
  }),
  v.check(
    (f) => (f.minLength === undefined && f.maxLength === undefined) || TEXT_TYPES.has(f.type),
    'custom_schemas.errors.length_type',
  ),
  v.check(
    (f) => f.minLength === undefined || f.maxLength === undefined || f.minLength <= f.maxLength,
    'custom_schemas.errors.length_order',
  ),
  v.check(
    (f) => (f.minimum === undefined && f.maximum === undefined) || f.type === 'number',
    'custom_schemas.errors.bound_type',
  ),
  v.check(
    (f) => f.minimum === undefined || f.maximum === undefined || f.minimum <= f.maximum,
    'custom_schemas.errors.bound_order',
  ),
  v.check(
    (f) => f.options === undefined || OPTION_TYPES.has(f.type),
    'custom_schemas.errors.options_type',
  ),
);
export type CustomSchemaFieldInput = v.InferOutput<typeof CustomSchemaFieldSchema>;

export const CustomSchemaBody = v.object({
  fields: v.pipe(
    v.array(CustomSchemaFieldSchema),
    v.maxLength(MAX_CUSTOM_FIELDS, 'custom_schemas.errors.too_many'),
    v.check(
      (fields) => new Set(fields.map((f) => f.name)).size === fields.length,
      'custom_schemas.errors.name_unique',
    ),
  ),
});
export type CustomSchemaBodyInput = v.InferOutput<typeof CustomSchemaBody>;

export function isCustomSchemaEntity(value: unknown): value is CustomSchemaEntity {
  return typeof value === 'string' && (CUSTOM_SCHEMA_ENTITIES as readonly string[]).includes(value);
}
