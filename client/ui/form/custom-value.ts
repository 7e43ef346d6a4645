import { useTranslation } from 'react-i18next';
import type { FieldOption } from './custom-schema.ts';
import { formatDate, formatDateTime } from './dates.ts';

/** A schema field (`type`) or a form field (`control`): either tells a date from a text. */
type Shown =
  | { type?: string; control?: string; options?: readonly (string | FieldOption)[] | undefined }
  | undefined;

/** The `ui` texts a value is read with (a function, so that tests pass a fixed language). */
type Translate = (key: 'custom_value.empty' | 'custom_value.yes' | 'custom_value.no') => string;

/**
 * A custom field's value as text to read, by its field's type: a translated yes or no, a list's
 * entries (by their option labels), dates in the tenant's display, numbers in the language. A
 * value without a field in the schema (a field since removed) is shown by its own kind.
 */
export function customValueText(
  t: Translate,
  language: string,
): (value: unknown, field?: Shown) => string {
  const labelOf = (field: Shown, item: unknown): string => {
    const option = field?.options?.find((o) => (typeof o === 'string' ? o : o.value) === item);
    if (option !== undefined) return typeof option === 'string' ? option : option.label;
    return text(item, undefined);
  };
  function text(value: unknown, field: Shown): string {
    if (value === undefined || value === null || value === '') return t('custom_value.empty');
    if (typeof value === 'boolean') return value ? t('custom_value.yes') : t('custom_value.no');
    if (typeof value === 'number') return new Intl.NumberFormat(language).format(value);
    if (Array.isArray(value)) {
      return value.length
        ? value.map((item) => labelOf(field, item)).join(', ')
        : t('custom_value.empty');
    }
    if (typeof value === 'string') {
      const kind = field?.type ?? field?.control;
      if (kind === 'date') return formatDate(value) || value;
      if (kind === 'dateTime') return formatDateTime(value) || value;
      return value;
    }
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${key}: ${text(item, undefined)}`)
      .join('; ');
  }
  return text;
}

/** `customValueText` in the user's language. */
export function useCustomValueText(): (value: unknown, field?: Shown) => string {
  const { t, i18n } = useTranslation('ui');
  return customValueText((key) => t(key), i18n.language);
}
