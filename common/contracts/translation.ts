import * as v from 'valibot';
import { AuditEntries, Id, Int } from './shared.ts';

/** The translationservice's product languages (docs/contracts.md, "Insurance: product extras"). */

/** A language as ISO 639-1 writes it: two lower-case letters. */
export const LANGUAGE_CODE = /^[a-z]{2}$/;
export const TRANSLATION_STATUSES = ['none', 'incomplete', 'complete'] as const;

export const ProductLanguageSchema = v.strictObject({
  id: Id,
  code: v.string(),
  productSlug: v.string(),
  language: v.pipe(v.string(), v.regex(LANGUAGE_CODE)),
  isActive: v.boolean(),
  translationStatus: v.picklist(TRANSLATION_STATUSES),
  translationCount: Int,
  version: Int,
  ...AuditEntries,
});

export const TranslationSchema = v.strictObject({
  id: Id,
  key: v.string(),
  language: v.string(),
  value: v.string(),
});

// The messages below say in words what is expected: the code is valibot's type
// (`regex`, `boolean`), the message goes into the error's English text for logs.

/** POST /languages. */
export const LanguageCreateBody = v.object({
  productSlug: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a product slug')),
  language: v.pipe(v.string(), v.regex(LANGUAGE_CODE, 'a two-letter language code like de')),
});

/** PUT /languages/{id}: switches the language on or off, on top of `version`. */
export const LanguageUpdateBody = v.object({
  isActive: v.boolean('isActive: true or false'),
  version: v.pipe(
    v.number('version: the version the change is based on'),
    v.integer(),
    v.minValue(1),
  ),
});

export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];
export type ProductLanguage = v.InferOutput<typeof ProductLanguageSchema>;
export type Translation = v.InferOutput<typeof TranslationSchema>;
export type LanguageCreateInput = v.InferInput<typeof LanguageCreateBody>;
export type LanguageUpdateInput = v.InferInput<typeof LanguageUpdateBody>;
