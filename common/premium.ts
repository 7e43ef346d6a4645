import { roundHalfAwayFromZero } from './expression/evaluate.ts';
import type { PremiumItem } from './contracts/policy.ts';
import type { PremiumUnit } from './products.ts';

/**
 * The premium of a policy timeslice or of an application being filled in (upstream contract,
 * Insurance: `{premiumItems: [{premiumFormulaId, total, isOverride}], grandTotal, currency}`).
 * Totals are per their formula's unit (a yearly and a monthly item are not annualised). The
 * schema is the policy contract's (common/contracts/policy.ts).
 */
export type { Premium, PremiumItem } from './contracts/policy.ts';

/** An amount of money rounded to cents, halves away from zero (2.345 to 2.35, -2.345 to -2.35). */
export const roundToCents = (amount: number): number => roundHalfAwayFromZero(amount, 2);

/**
 * The grand total of premium items: their sum, rounded to cents again, since adding binary
 * fractions leaves dust (0.1 + 0.2 is 0.30000000000000004).
 */
export const grandTotalOf = (items: readonly Pick<PremiumItem, 'total'>[]): number =>
  roundToCents(items.reduce((sum, item) => sum + item.total, 0));

/**
 * The unit of a premium's grand total: the one unit all its items' formulas share; null when
 * they differ (a yearly premium plus a one-time fee has no single unit) or one is unknown. An
 * item's own `unit` (lists asked with `expand=premiumUnits`) comes first, else `unitOf` by formula.
 */
export function grandTotalUnit(
  items: readonly PremiumItem[],
  unitOf: ReadonlyMap<number, PremiumUnit> = new Map(),
): PremiumUnit | null {
  const units = new Set(
    items.map((item) => item.unit ?? unitOf.get(item.premiumFormulaId) ?? null),
  );
  if (units.size !== 1) return null;
  return [...units][0] ?? null;
}
