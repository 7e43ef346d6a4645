import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { translatedText, type NameLabels } from '#common/name-labels.ts';
import { readCachedGeneralLanguage } from './language.ts';

/**
 * A tenant's translated text (a custom field's label, a role's description) in the user's
 * language, else the tenant's default language, else the text as entered (issue 16).
 */
export function useTranslatedText(): (
  text: string,
  labels: NameLabels | null | undefined,
) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  // One function per language: a callback that names roles can list it as a dependency.
  return useCallback(
    (text, labels) => translatedText(text, labels, language, readCachedGeneralLanguage()),
    [language],
  );
}

type Labelled = { name?: string; label?: string; labels?: NameLabels };

/**
 * Custom fields or roles with their `label` in the user's language (the tenant's default
 * language, else the label as entered, else the name): every screen renders `label`, so
 * translating it once where the records are loaded reaches forms, read views, filters and
 * conflict rows alike. A new array only when the records or the language change (forms memoise
 * their schema on it).
 */
export function useLocalizedFields<T extends Labelled>(fields: readonly T[]): T[];
export function useLocalizedFields<T extends Labelled>(fields: readonly T[] | null): T[] | null;
export function useLocalizedFields<T extends Labelled>(fields: readonly T[] | null): T[] | null {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () =>
      fields?.map((field) => ({
        ...field,
        label: translatedText(
          field.label ?? field.name ?? '',
          field.labels,
          language,
          readCachedGeneralLanguage(),
        ),
      })) ?? null,
    [fields, language],
  );
}

/**
 * The names of a record's roles (a user's, an invitation's) in the user's language, joined with
 * commas for a table cell; '' for none.
 */
export function useRoleNames(): (
  roles: readonly { label: string; labels?: NameLabels }[] | null | undefined,
) => string {
  const translated = useTranslatedText();
  return (roles) => (roles ?? []).map((role) => translated(role.label, role.labels)).join(', ');
}
