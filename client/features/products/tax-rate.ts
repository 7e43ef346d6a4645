import { MAX_TAX_RATE_BP } from '#client/api/product-tax-client.ts';
import { parseAmount } from '#client/ui/money-input.ts';

/** Rates travel in basis points (19 % = 1900), integers; the screen writes them as percent. */

const percentFormat = (language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 2 });

/** A rate in basis points as the user's language writes a percent: `19 %`, `19,5 %`. */
export function percentText(bp: number, language: string): string {
  return `${percentInput(bp, language)} %`;
}

/**
 * Typed percent -> basis points: up to two decimals in the user's language (`19,5` in German),
 * a `%` beside allowed, 0 to 100 %. Null for anything else, also for blank.
 */
export function parsePercent(text: string, language: string): number | null {
  if (text.trim() === '') return null;
  // A percent with two decimals is written like an amount of money with cents.
  const bp = parseAmount(text, language);
  return bp !== null && bp <= MAX_TAX_RATE_BP ? bp : null;
}

/** A rate as its input shows it to edit: the percent without the sign (`19`, `19,5`). */
export function percentInput(bp: number, language: string): string {
  return percentFormat(language).format(bp / 100);
}
