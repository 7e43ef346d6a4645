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

/**
 * Builds the format of a language and currency ahead, in a task of its own: the first
 * NumberFormat of a page loads the locale's data (about 40 ms at full speed), which would
 * otherwise land in the render of a table's first rows. Call it while the rows are on their way.
 */
export function prepareMoneyFormat(language: string, currency = 'EUR'): () => void {
  const timer = setTimeout(() => formatMoney(0, currency, language), 0);
  return () => clearTimeout(timer);
}
