import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  listInsuredObjects,
  listPremiumFormulas,
  type PremiumFormula,
} from '#client/api/products-client.ts';
import { useLoad, type LoadState } from '#client/ui/use-load.ts';
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
  const load = useCallback(
    (signal: AbortSignal) =>
      Promise.all([
        listInsuredObjects(accountIndex, productVersionId, signal),
        listPremiumFormulas(accountIndex, productVersionId, signal),
      ]),
    [accountIndex, productVersionId],
  );
  const { state, retry } = useLoad(load, 'application tariff');
  const language = i18n.language;
  const ordered = useMemo((): LoadState<ApplicationTariff> => {
    if (state.kind !== 'ready') return state;
    const [objects, formulas] = state.value;
    return {
      kind: 'ready',
      value: {
        productVersionId,
        objects: applicationObjects(objects, language),
        formulas: [...formulas].sort((a, b) => a.order - b.order),
      },
    };
  }, [state, language, productVersionId]);
  return { state: ordered, retry };
}
