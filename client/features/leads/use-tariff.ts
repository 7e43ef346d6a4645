import { useCallback } from 'react';
import {
  listInsuredObjects,
  listPremiumFormulas,
  type InsuredObject,
  type PremiumFormula,
} from '#client/api/products-client.ts';
import { useLoad, type LoadState } from '#client/ui/use-load.ts';

export interface Tariff {
  objects: InsuredObject[];
  formulas: PremiumFormula[];
}

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
  const load = useCallback(
    async (signal: AbortSignal): Promise<Tariff | null> => {
      if (!enabled || productVersionId === null) return null;
      const [objects, formulas] = await Promise.all([
        listInsuredObjects(accountIndex, productVersionId, signal),
        listPremiumFormulas(accountIndex, productVersionId, signal),
      ]);
      return { objects, formulas };
    },
    [accountIndex, productVersionId, enabled],
  );
  const { state, retry } = useLoad(load, 'tariff');
  return { ...state, retry };
}
