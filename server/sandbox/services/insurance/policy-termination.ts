import type { PremiumUnit } from '#common/products.ts';
import type { TerminationFigures } from '#common/contracts/policy.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import type { NewTimeslice } from './policy-store.ts';

/**
 * The money of a termination mid-term (issue 15, point 7): the premium of the whole term counts
 * as paid, the part of it that covers the days up to the termination date is earned, the rest is
 * refunded. The one rule of the termination preview and of the termination itself, which stores
 * the figures on the version it writes (billing books them). Day-based and in integer cents: a
 * premium item of a unit (year, month, ...) costs its total per that unit's length in days; a
 * one-time payment is earned on the first day and never refunded.
 */

const DAY_MS = 86_400_000;

/** Days of a premium unit; a month and a quarter as the average share of a 365-day year. */
const UNIT_DAYS: Readonly<Record<Exclude<PremiumUnit, 'oneTimePayment'>, number>> = {
  day: 1,
  week: 7,
  month: 365 / 12,
  quarter: 365 / 4,
  year: 365,
};

const days = (fromMs: number, toMs: number) => Math.max(0, Math.round((toMs - fromMs) / DAY_MS));

/** Cents (unrounded) of the premium items of one timeslice over `count` of its days. */
function centsOver(
  premium: NewTimeslice['premium'],
  unitOf: ReadonlyMap<number, PremiumUnit>,
  count: number,
  isFirstDay: boolean,
): number {
  const items =
    (premium as { premiumItems?: { premiumFormulaId: number; total: number }[] }).premiumItems ??
    [];
  let cents = 0;
  for (const item of items) {
    const totalCents = Math.round(item.total * 100);
    // A formula deleted since is taken as yearly, the products' usual unit.
    const unit = unitOf.get(item.premiumFormulaId) ?? 'year';
    if (unit === 'oneTimePayment') cents += isFirstDay ? totalCents : 0;
    else cents += (totalCents * count) / UNIT_DAYS[unit];
  }
  return cents;
}

/**
 * The figures of ending `timeline` (the current version's, contract term from its first
 * timeslice's start) at `terminationMs`. Paid and earned are each rounded once, the refund is
 * their difference, so that earned + refund is always exactly what was paid.
 */
export function terminationFigures(
  timeline: readonly NewTimeslice[],
  terminationMs: number,
  unitOf: ReadonlyMap<number, PremiumUnit>,
  currency: string,
): TerminationFigures {
  let paid = 0;
  let earned = 0;
  let termDays = 0;
  let insuredDays = 0;
  const startMs = timeline[0]?.from.getTime() ?? terminationMs;
  for (const slice of timeline) {
    const from = slice.from.getTime();
    // An open-ended timeslice is paid up to the termination: nothing beyond it was agreed.
    const to = slice.to?.getTime() ?? Math.max(from, terminationMs);
    const sliceDays = days(from, to);
    const earnedDays = days(from, Math.min(to, Math.max(from, terminationMs)));
    const first = from === startMs;
    paid += centsOver(slice.premium, unitOf, sliceDays, first);
    earned += centsOver(slice.premium, unitOf, earnedDays, first);
    termDays += sliceDays;
    insuredDays += earnedDays;
  }
  const paidCents = Math.round(paid);
  const earnedCents = Math.min(paidCents, Math.round(earned));
  return {
    terminationDate: new Date(terminationMs).toISOString(),
    termDays,
    insuredDays,
    paidPremiumCents: paidCents,
    earnedPremiumCents: earnedCents,
    refundCents: paidCents - earnedCents,
    currency,
  };
}

/** The units of the formulas a timeline's premium items name (by formula id). */
export async function premiumUnitsOf(
  db: Queryable,
  tenantId: number,
  timeline: readonly NewTimeslice[],
): Promise<Map<number, PremiumUnit>> {
  const ids = [
    ...new Set(
      timeline.flatMap(
        (slice) =>
          (slice.premium as { premiumItems?: { premiumFormulaId: number }[] }).premiumItems?.map(
            (item) => item.premiumFormulaId,
          ) ?? [],
      ),
    ),
  ];
  if (!ids.length) return new Map();
  const rows = await db.query<{ id: number; unit: PremiumUnit }>(
    'SELECT id, unit FROM premium_formulas WHERE tenant_id = $1 AND id = ANY($2::int[])',
    [tenantId, ids],
  );
  return new Map(rows.map((r) => [r.id, r.unit]));
}

/** The currency of a timeline's premium (EUR when it names none). */
export const currencyOf = (timeline: readonly NewTimeslice[]): string =>
  (timeline[0]?.premium as { currency?: string } | undefined)?.currency ?? 'EUR';
