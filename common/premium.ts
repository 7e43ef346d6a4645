import { roundHalfAwayFromZero } from './expression/evaluate.ts';
import type { PremiumUnit } from './products.ts';

/**
 * The premium of a policy timeslice or of an application being filled in (upstream contract,
 * Insurance: `{premiumItems: [{premiumFormulaId, total, isOverride}], grandTotal, currency}`).
 * Totals are per their formula's unit (a yearly and a monthly item are not annualised).
 */
export interface PremiumItem {
  premiumFormulaId: number;
  total: number;
  isOverride: boolean;
  /** The formula's unit, in policy answers asked with `expand=premiumUnits` (null: formula gone). */
  unit?: PremiumUnit | null;
}

export interface Premium {
  premiumItems: PremiumItem[];
  grandTotal: number;
  currency: string;
}

/** An amount of money rounded to cents, halves away from zero (2.345 to 2.35, -2.345 to -2.35). */
export const roundToCents = (amount: number): number => roundHalfAwayFromZero(amount, 2);

/**
 * The grand total of premium items: their sum, rounded to cents again, since adding binary
 * fractions leaves dust (0.1 + 0.2 is 0.30000000000000004).
 */
export const grandTotalOf = (items: readonly Pick<PremiumItem, 'total'>[]): number =>
  roundToCents(items.reduce((sum, item) => sum + item.total, 0));
