import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { withFormulaTexts, withProductTexts } from './product-texts.ts';
import { useCatalogueTexts } from './use-catalogue-texts.ts';
import type { InsuredObject, PremiumFormula } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import {
  allLoaded,
  loadStateOf,
  mapLoaded,
  retryFailed,
  type LoadState,
} from '#client/ui/load-state.ts';

export interface Tariff {
  objects: InsuredObject[];
  formulas: PremiumFormula[];
  /** The product's texts in the reader's language (labels of stored values among them). */
  texts: Readonly<Record<string, string>>;
}

const NOTHING_TO_LOAD = { kind: 'ready', value: null } as const;

/**
 * The insured objects with their fields and the premium formulas of a product version: the
 * labels a lead's data and premium are shown with, and the fields of the application form.
 * Without the product view permission there is nothing to load; screens fall back to the names
 * the lead itself carries.
 */
export function useTariff(
  accountIndex: number,
  productVersionId: number | null,
  enabled: boolean,
): LoadState<Tariff | null> & { retry: () => void } {
  const wanted = enabled && productVersionId !== null;
  const versionId = productVersionId ?? 0;
  const { language } = useTranslation().i18n;
  const catalogue = useCatalogueTexts();
  const queries = useQueries({
    queries: [
      { ...productQueries.insuredObjects(accountIndex, versionId), enabled: wanted },
      { ...productQueries.premiumFormulas(accountIndex, versionId), enabled: wanted },
      {
        ...productQueries.texts(accountIndex, versionId, language),
        enabled: wanted,
        placeholderData: keepPreviousData,
      },
    ],
  });
  const [objects, formulas, texts] = queries;
  const state = mapLoaded(
    allLoaded<[InsuredObject[], PremiumFormula[], Record<string, string>]>([
      loadStateOf(objects),
      loadStateOf(formulas),
      loadStateOf(texts),
    ]),
    // Labels and premium items in the reader's language, from the product's translations (else,
    // for labels the catalogue gave, the catalogue's names).
    ([o, f, x]): Tariff => ({
      objects: withProductTexts(o, x, catalogue),
      formulas: withFormulaTexts(f, x),
      texts: x,
    }),
  );
  return { ...(wanted ? state : NOTHING_TO_LOAD), retry: () => retryFailed(queries) };
}
