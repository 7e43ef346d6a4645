import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import type { PremiumUnit } from '#common/products.ts';
import type { PremiumItem } from '#client/api/policies-client.ts';
import { DISPLAY_DATE, DISPLAY_DATE_TIME } from '#client/ui/form/dates.ts';

dayjs.extend(utc);

/**
 * How policies read on screen, shared by the policies screens and the customer's policies tab.
 * Pure functions: the rules are tested without a browser.
 */

/**
 * Spec, section 9: a policy's timestamps are converted to UTC. Shown in UTC too, so that a
 * start date of midnight UTC is the same day for every reader whatever their time zone.
 */
export function formatUtcDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs.utc(iso);
  return date.isValid() ? date.format(DISPLAY_DATE) : '';
}

export function formatUtcDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = dayjs.utc(iso);
  return date.isValid() ? `${date.format(DISPLAY_DATE_TIME)} UTC` : '';
}

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
