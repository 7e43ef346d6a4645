import * as v from 'valibot';

/**
 * Translations of a tenant-defined name (issue 15 point 16, issue 16): a claim or lead status, a
 * claim partner role. The record's `name` stays its key and the text shown when the user's
 * language has no label; `labels` holds the texts per language the tenant entered. Shared by the
 * sandbox (what it accepts and stores) and the client (what it shows).
 */

export const LABEL_LANGUAGES = ['de', 'en', 'pl'] as const;
export type LabelLanguage = (typeof LABEL_LANGUAGES)[number];
export type NameLabels = Partial<Record<LabelLanguage, string>>;

/** As long as a name: a status badge, not a description. */
export const LABEL_MAX_LENGTH = 100;

/**
 * A translations edit of texts up to `max` characters: every language optional, an empty text
 * clears it (the untranslated text shows then). Names take {@link LABEL_MAX_LENGTH}; a longer
 * text (a role's description) its own limit.
 */
export function labelsSchema(max: number, tooLong = `label up to ${max} characters`) {
  const label = v.optional(
    v.pipe(v.string('label must be text'), v.trim(), v.maxLength(max, tooLong)),
  );
  return v.strictObject({ de: label, en: label, pl: label });
}

/** A labels edit: every language optional, an empty text clears it (the name shows then). */
export const NameLabelsSchema = labelsSchema(LABEL_MAX_LENGTH);

/** The labels as the services answer them: the languages that have a text. */
export const NameLabelsOut = v.strictObject({
  de: v.optional(v.string()),
  en: v.optional(v.string()),
  pl: v.optional(v.string()),
});

/** The labels as stored: only the languages with a text. */
export function storedLabels(input: NameLabels): NameLabels {
  const stored: NameLabels = {};
  for (const language of LABEL_LANGUAGES) {
    const text = input[language];
    if (text) stored[language] = text;
  }
  return stored;
}

/** The text of a named record in `language` (`pl-PL` counts as `pl`), else its name. */
export function labelIn(
  record: { name: string; labels?: NameLabels | null | undefined },
  language: string,
): string {
  const short = language.slice(0, 2) as LabelLanguage;
  return record.labels?.[short] || record.name;
}

/**
 * A translated text in `language`, else in `fallback` (the tenant's default language), else the
 * untranslated text: a custom field's label, a role's description.
 */
export function translatedText(
  text: string,
  labels: NameLabels | null | undefined,
  language: string,
  fallback?: string,
): string {
  const short = (l: string | undefined) => l?.slice(0, 2) as LabelLanguage | undefined;
  const first = short(language);
  const second = short(fallback);
  return (first && labels?.[first]) || (second && labels?.[second]) || text;
}

/** The records with their names in `language`: for lists that show, sort and filter by name. */
export const withLabelNames = <T extends { name: string; labels?: NameLabels | null | undefined }>(
  records: readonly T[],
  language: string,
): T[] => records.map((r) => ({ ...r, name: labelIn(r, language) }));

/** Whether two translations hold the same texts (empty ones count as none): a form's dirty check. */
export function sameLabels(
  a: NameLabels | null | undefined,
  b: NameLabels | null | undefined,
): boolean {
  const left = storedLabels(a ?? {});
  const right = storedLabels(b ?? {});
  return LABEL_LANGUAGES.every((language) => left[language] === right[language]);
}
