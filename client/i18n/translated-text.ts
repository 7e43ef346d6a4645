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
  return (text, labels) => translatedText(text, labels, language, readCachedGeneralLanguage());
}
