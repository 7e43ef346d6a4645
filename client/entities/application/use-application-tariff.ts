import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { InsuredObject, PremiumFormula } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { allLoaded, loadStateOf, retryFailed, type LoadState } from '#client/ui/load-state.ts';
import { withFormulaTexts, withProductTexts } from '#client/entities/product/product-texts.ts';
import { useCatalogueTexts } from '#client/entities/product/use-catalogue-texts.ts';
import { applicationObjects, type ApplicationObject } from './application-values.ts';

/** What the form is generated from: a product version's insured objects and its formulas. */
export interface ApplicationTariff {
  productVersionId: number;
  objects: ApplicationObject[];
  formulas: PremiumFormula[];
  /** The product's texts in the reader's language. */
  texts: Readonly<Record<string, string>>;
}

/**
 * Loads the tariff of one product version. The order of the objects' fields follows the
 * reader's language (labels sort by it) without loading again, so a language switch keeps
 * what was typed.
 */
export function useApplicationTariff(
  accountIndex: number,
  productVersionId: number,
): { state: LoadState<ApplicationTariff>; retry: () => void } {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const catalogue = useCatalogueTexts();
  const queries = useQueries({
    queries: [
      productQueries.insuredObjects(accountIndex, productVersionId),
      productQueries.premiumFormulas(accountIndex, productVersionId),
      // The former language's texts stay while the new ones load: the form is not rebuilt empty.
      {
        ...productQueries.texts(accountIndex, productVersionId, language),
        placeholderData: keepPreviousData,
      },
    ],
  });
  const [objectsQuery, formulasQuery, textsQuery] = queries;
  const loaded = allLoaded<[InsuredObject[], PremiumFormula[], Record<string, string>]>([
    loadStateOf(objectsQuery),
    loadStateOf(formulasQuery),
    loadStateOf(textsQuery),
  ]);
  const objects = objectsQuery.data;
  const formulas = formulasQuery.data;
  const texts = textsQuery.data;
  // Built once per answer and language: the form is generated from these objects, labelled
  // from the product's translations in the reader's language (else the catalogue's names).
  const tariff = useMemo(
    (): ApplicationTariff | null =>
      objects && formulas && texts
        ? {
            productVersionId,
            objects: applicationObjects(withProductTexts(objects, texts, catalogue), language),
            formulas: withFormulaTexts(formulas, texts).sort((a, b) => a.order - b.order),
            texts,
          }
        : null,
    [objects, formulas, texts, catalogue, language, productVersionId],
  );
  const state: LoadState<ApplicationTariff> =
    loaded.kind === 'ready' && tariff ? { kind: 'ready', value: tariff } : { kind: 'loading' };
  return {
    state: loaded.kind === 'failed' ? loaded : state,
    retry: () => retryFailed(queries),
  };
}
