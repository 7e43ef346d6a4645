import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** An amount in its currency, in the user's language ('1.234,50 €' in German). */
export function useMoneyFormat(): (amount: number, currency?: string) => string {
  const { i18n } = useTranslation();
  return useCallback(
    (amount: number, currency = 'EUR') => formatMoney(amount, currency, i18n.language),
    [i18n.language],
  );
}

// Building a NumberFormat costs far more than using one, and a table formats every visible row
// on each render: one per language and currency.
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Amounts in the currency's format of the user's language (`513,81 €`, `€513.81`). */
export function formatMoney(amount: number, currency: string, language: string): string {
  const key = `${language}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(language, { style: 'currency', currency });
    } catch {
      // An unknown currency code from the service: the number and the code as they are.
      return `${new Intl.NumberFormat(language, { minimumFractionDigits: 2 }).format(amount)} ${currency}`;
    }
    moneyFormats.set(key, format);
  }
  return format.format(amount);
}
