import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { InsuredObject, PremiumFormula } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import { allLoaded, loadStateOf, retryFailed, type LoadState } from '#client/ui/load-state.ts';
import { applicationObjects, type ApplicationObject } from './application-values.ts';

/** What the form is generated from: a product version's insured objects and its formulas. */
export interface ApplicationTariff {
  productVersionId: number;
  objects: ApplicationObject[];
  formulas: PremiumFormula[];
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
  const queries = useQueries({
    queries: [
      productQueries.insuredObjects(accountIndex, productVersionId),
      productQueries.premiumFormulas(accountIndex, productVersionId),
    ],
  });
  const [objectsQuery, formulasQuery] = queries;
  const loaded = allLoaded<[InsuredObject[], PremiumFormula[]]>([
    loadStateOf(objectsQuery),
    loadStateOf(formulasQuery),
  ]);
  const language = i18n.language;
  const objects = objectsQuery.data;
  const formulas = formulasQuery.data;
  // Built once per answer and language: the form is generated from these objects.
  const tariff = useMemo(
    (): ApplicationTariff | null =>
      objects && formulas
        ? {
            productVersionId,
            objects: applicationObjects(objects, language),
            formulas: [...formulas].sort((a, b) => a.order - b.order),
          }
        : null,
    [objects, formulas, language, productVersionId],
  );
  const state: LoadState<ApplicationTariff> =
    loaded.kind === 'ready' && tariff ? { kind: 'ready', value: tariff } : { kind: 'loading' };
  return {
    state: loaded.kind === 'failed' ? loaded : state,
    retry: () => retryFailed(queries),
  };
}
