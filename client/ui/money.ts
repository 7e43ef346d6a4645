import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from './policy-display.ts';

/** An amount in its currency, in the user's language ('1.234,50 €' in German). */
export function useMoneyFormat(): (amount: number, currency?: string) => string {
  const { i18n } = useTranslation();
  return useCallback(
    (amount: number, currency = 'EUR') => formatMoney(amount, currency, i18n.language),
    [i18n.language],
  );
}
