import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueTexts } from './product-texts.ts';

/**
 * The catalogue's names in the reader's language and in English (the labels the catalogue
 * stores), from the `products` locale. English is in every language's fallback chain, so it is
 * loaded with the namespace.
 */
export function useCatalogueTexts(): CatalogueTexts {
  const { t, i18n } = useTranslation('products');
  return useMemo(() => {
    const english = i18n.getFixedT('en', 'products');
    return {
      english: english('catalogue', { returnObjects: true }),
      reader: t('catalogue', { returnObjects: true }),
    };
    // `t` is a new function when the language changes: the texts follow it.
  }, [t, i18n]);
}
