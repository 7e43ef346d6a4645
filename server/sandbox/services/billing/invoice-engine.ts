import type { PremiumUnit } from '#common/products.ts';

/**
 * The invoice engine (issue 18, docs/contracts.md "Billing and payments"): pure functions from a
 * policy's timeline to the invoices it is owed, given those already issued. Integer cents only:
 * a premium item's euro total is turned into cents once, where the policy is read (`centsOf`),
 * and every amount after that is an integer. Days are whole UTC days since 1970-01-01.
 *
 * - Billing periods run from the policy's start in steps of its billing frequency (months), each
 *   a full period even when the contract ends inside it: a renewal then only adds to a period
 *   already billed, as a correction, instead of making a second period over the same days.
 * - A period's amount per premium item: the item's cents per its unit, pro rata per day over the
 *   days of the period its timeslices cover (a month a twelfth, a quarter a quarter of a 365-day
 *   year, as policy-termination.ts counts); a one-time payment in the first period. Each item is
 *   rounded once per period, so an invoice's lines always sum to its totals.
 * - Tax per line: net times the product's rate in basis points, rounded half away from zero, so
 *   that the tax of a refund is exactly the negative of the tax of the charge; gross = net + tax.
 * - The first period is the `initial` invoice, each later one `recurring`, once the period has
 *   begun. When the premium of a period already billed changes (a new version, a renewal), a
 *   `correction` for the difference per item (negative when it fell).
 * - A terminated (withdrawn) policy gets one `final` (`withdraw`) invoice: what was earned up to
 *   the termination (nothing for a withdrawal) minus what was invoiced, per item, as negative
 *   amounts, and never more than was paid on the policy: the refund pays back money received.
 */

export const DEFAULT_TAX_RATE_BP = 1900;
/** Days after its period begins (or after the run, for a correction or a refund) it is due. */
export const PAYMENT_TERM_DAYS = 14;

const DAY_MS = 86_400_000;

/**
 * Amounts are summed in 1/2555 of a cent (2555 = 365 * 7), in which a day of every unit is a
 * whole number: exact sums, rounded once per item and period.
 */
const SUB = 2555;
const PER_DAY: Readonly<Record<Exclude<PremiumUnit, 'oneTimePayment'>, number>> = {
  day: SUB,
  week: SUB / 7,
  month: (SUB * 12) / 365,
  quarter: (SUB * 4) / 365,
  year: SUB / 365,
};

/** a / b rounded half away from zero, both integers, b > 0: exact for |a| below 2^53. */
export function roundDiv(a: number, b: number): number {
  const q = Math.trunc(a / b);
  const r = a - q * b;
  if (2 * Math.abs(r) >= b) return q + Math.sign(r);
  return q;
}

/** Euros (as the premium stores them) to cents: the one place a float becomes money. */
export const centsOf = (euros: number): number => Math.round(euros * 100);

/** The tax of a net amount at a rate in basis points. */
export const taxOf = (net: number, rateBp: number): number => roundDiv(net * rateBp, 10_000);

export interface PremiumItemCents {
  name: string;
  unit: PremiumUnit;
  /** The item's total per its unit, in cents. */
  cents: number;
}

export interface BillingSlice {
  from: number;
  /** Exclusive; null: open-ended. */
  to: number | null;
  items: readonly PremiumItemCents[];
}

export interface BillingPolicy {
  code: string;
  /** The current version's timeline, in order. */
  slices: readonly BillingSlice[];
  /** Months per billing period (1, 3, 6, 12, ...). */
  billingMonths: number;
  /** The day of the month a recurring invoice is due on (1 to 28), else the period's start. */
  billingDay: number | null;
  taxRateBp: number;
  status: 'live' | 'terminated' | 'withdrawn';
  /** A terminated policy's termination day (exclusive: earned up to it). */
  terminationDay: number | null;
}

export interface InvoiceLine {
  name: string;
  quantity: number;
  pricePerUnit: number;
  taxRateBp: number;
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
  unit: string;
}

export type ComputedType = 'initial' | 'recurring' | 'correction' | 'final' | 'withdraw';

export interface IssuedInvoice {
  key: string;
  type: string;
  from: number | null;
  to: number | null;
  /** Net per item name. */
  lines: readonly { name: string; netAmount: number }[];
}

export interface PlannedInvoice {
  key: string;
  type: ComputedType;
  from: number;
  to: number;
  dueDay: number;
  /** The day it counts as issued on: its period's start, or the run's day. */
  issuedDay: number;
  lines: InvoiceLine[];
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
}

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
export const isoOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** `day` moved by `months` calendar months, on the same day of the month or the month's last. */
export function addMonths(day: number, months: number): number {
  const d = new Date(day * DAY_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return dayOf(Date.UTC(y, m, Math.min(d.getUTCDate(), last)));
}

/** One line of `quantity` times `pricePerUnit` cents at a tax rate. */
export function lineOf(
  name: string,
  quantity: number,
  pricePerUnit: number,
  taxRateBp: number,
  unit = 'piece',
): InvoiceLine {
  const netAmount = quantity * pricePerUnit;
  const taxAmount = taxOf(netAmount, taxRateBp);
  return {
    name,
    quantity,
    pricePerUnit,
    taxRateBp,
    netAmount,
    taxAmount,
    grossAmount: netAmount + taxAmount,
    unit,
  };
}

/** An invoice's totals: the sums of its lines. */
export function totalsOf(lines: readonly InvoiceLine[]) {
  let netAmount = 0;
  let taxAmount = 0;
  for (const l of lines) {
    netAmount += l.netAmount;
    taxAmount += l.taxAmount;
  }
  return { netAmount, taxAmount, grossAmount: netAmount + taxAmount };
}

const overlap = (a: number, b: number, c: number, d: number) =>
  Math.max(0, Math.min(b, d) - Math.max(a, c));

/** Cents per item name owed for the days [from, to), rounded once per item. */
export function owedOver(
  slices: readonly BillingSlice[],
  from: number,
  to: number,
): Map<string, number> {
  const start = slices[0]?.from;
  const sub = new Map<string, number>();
  for (const slice of slices) {
    const days = overlap(from, to, slice.from, slice.to ?? Number.MAX_SAFE_INTEGER);
    for (const item of slice.items) {
      let amount = 0;
      if (item.unit === 'oneTimePayment') {
        // Earned on the policy's first day, once.
        if (slice.from === start && from <= slice.from && slice.from < to)
          amount = item.cents * SUB;
      } else amount = item.cents * days * PER_DAY[item.unit];
      sub.set(item.name, (sub.get(item.name) ?? 0) + amount);
    }
  }
  return new Map([...sub].map(([name, amount]) => [name, roundDiv(amount, SUB)]));
}

/** Invoice lines of cents per item name (zero items left out), each one of quantity 1. */
function linesOf(owed: ReadonlyMap<string, number>, taxRateBp: number, unit: string) {
  return [...owed]
    .filter(([, cents]) => cents !== 0)
    .map(([name, cents]) => lineOf(name, 1, cents, taxRateBp, unit));
}

function planned(
  key: string,
  type: ComputedType,
  period: { from: number; to: number; dueDay: number; issuedDay: number },
  lines: InvoiceLine[],
): PlannedInvoice {
  return { key, type, ...period, lines, ...totalsOf(lines) };
}

/** Due day of a period: its start, or the billing day on or after it. */
function dueDayOf(from: number, billingDay: number | null): number {
  if (!billingDay) return from + PAYMENT_TERM_DAYS;
  const d = new Date(from * DAY_MS);
  let due = dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), billingDay));
  if (due < from) due = dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, billingDay));
  return due;
}

/** The billing periods begun by `today` before `end` (exclusive), from the policy's start. */
export function billingPeriods(
  policy: Pick<BillingPolicy, 'slices' | 'billingMonths'>,
  today: number,
  end: number,
): { from: number; to: number; index: number }[] {
  const start = policy.slices[0]?.from;
  if (start === undefined) return [];
  const months = Math.max(1, Math.floor(policy.billingMonths));
  const periods = [];
  for (let index = 0; ; index += 1) {
    const from = addMonths(start, index * months);
    if (from > today || from >= end) break;
    periods.push({ from, to: addMonths(start, (index + 1) * months), index });
  }
  return periods;
}

const sumByName = (invoices: readonly IssuedInvoice[]) => {
  const sums = new Map<string, number>();
  for (const invoice of invoices)
    for (const l of invoice.lines) sums.set(l.name, (sums.get(l.name) ?? 0) + l.netAmount);
  return sums;
};

/** The last day the timeline covers (exclusive), or null when it is open-ended. */
const timelineEnd = (slices: readonly BillingSlice[]) =>
  slices.some((s) => s.to === null) ? null : Math.max(...slices.map((s) => s.to!));

/**
 * The invoices a policy is owed as of `today` and not yet issued: the engine's one entry. `paid`
 * is what was paid on the policy's invoices (the cap of a refund). Running it again with its
 * answer added to `issued` answers nothing: every invoice has a key made once.
 */
export function planInvoices(
  policy: BillingPolicy,
  issued: readonly IssuedInvoice[],
  today: number,
  paid: number,
): PlannedInvoice[] {
  if (!policy.slices.length) return [];
  const keys = new Set(issued.map((i) => i.key));
  const out: PlannedInvoice[] = [];
  const ending = policy.status !== 'live';
  const start = policy.slices[0]!.from;
  const earnedUntil =
    policy.status === 'withdrawn'
      ? start
      : policy.status === 'terminated'
        ? Math.max(start, policy.terminationDay ?? today)
        : (timelineEnd(policy.slices) ?? Number.MAX_SAFE_INTEGER);
  const periods = billingPeriods(policy, today, earnedUntil);
  const regular = issued.filter((i) => i.type !== 'final' && i.type !== 'withdraw');
  for (const period of periods) {
    const type = period.index === 0 ? 'initial' : 'recurring';
    const key = `${policy.code}:${type}:${isoOfDay(period.from)}`;
    const owed = owedOver(policy.slices, period.from, period.to);
    const dueDay = dueDayOf(period.from, policy.billingDay);
    if (!keys.has(key)) {
      const lines = linesOf(owed, policy.taxRateBp, 'period');
      // Nothing owed (a premium of 0), no invoice: there is nothing to correct either.
      if (lines.length)
        out.push(planned(key, type, { ...period, dueDay, issuedDay: period.from }, lines));
      continue;
    }
    if (ending) continue;
    // Billed already: a correction for what changed since, per item.
    const ofPeriod = regular.filter((i) => i.from === period.from && i.to === period.to);
    const billed = sumByName(ofPeriod);
    const diff = new Map<string, number>();
    for (const name of new Set([...owed.keys(), ...billed.keys()]))
      diff.set(name, (owed.get(name) ?? 0) - (billed.get(name) ?? 0));
    const lines = linesOf(diff, policy.taxRateBp, 'correction');
    if (!lines.length) continue;
    const n = ofPeriod.filter((i) => i.type === 'correction').length + 1;
    out.push(
      planned(
        `${policy.code}:correction:${isoOfDay(period.from)}:${n}`,
        'correction',
        { from: period.from, to: period.to, dueDay: today + PAYMENT_TERM_DAYS, issuedDay: today },
        lines,
      ),
    );
  }
  if (ending) {
    const type = policy.status === 'withdrawn' ? 'withdraw' : 'final';
    const key = `${policy.code}:${type}`;
    const lines = keys.has(key) ? [] : refundLines(policy, [...regular, ...out], earnedUntil, paid);
    // Made once there is something to pay back: nothing paid, nothing refunded yet.
    if (lines.length) {
      out.push(
        planned(
          key,
          type,
          {
            from: Math.min(earnedUntil, today),
            to: Math.max(earnedUntil, today),
            dueDay: today + PAYMENT_TERM_DAYS,
            issuedDay: today,
          },
          lines,
        ),
      );
    }
  }
  return out;
}

/**
 * The refund of an ended policy: per item, what was invoiced beyond what was earned up to
 * `earnedUntil`, as negative lines; scaled down so that its gross never exceeds `paid`.
 */
export function refundLines(
  policy: Pick<BillingPolicy, 'slices' | 'taxRateBp'>,
  invoiced: readonly IssuedInvoice[],
  earnedUntil: number,
  paid: number,
): InvoiceLine[] {
  const start = policy.slices[0]?.from ?? earnedUntil;
  const earned = owedOver(policy.slices, start, earnedUntil);
  const billed = sumByName(invoiced);
  const over = new Map<string, number>();
  for (const [name, cents] of billed) {
    const extra = cents - (earned.get(name) ?? 0);
    if (extra > 0) over.set(name, extra);
  }
  const refund = [...over.values()].reduce((a, b) => a + b, 0);
  const gross = refund + taxOf(refund, policy.taxRateBp);
  const cap = Math.max(0, paid);
  if (gross > cap) {
    // Scaled per item to the share that was paid, each rounded down; then a cent at a time off
    // the largest item while tax rounding still lifts the gross over what was paid.
    for (const [name, cents] of over) over.set(name, Math.floor((cents * cap) / gross));
    const lines = () => linesOf(negated(over), policy.taxRateBp, 'refund');
    while (-totalsOf(lines()).grossAmount > cap) {
      const [name, cents] = [...over].sort((a, b) => b[1] - a[1])[0]!;
      over.set(name, cents - 1);
    }
  }
  return linesOf(negated(over), policy.taxRateBp, 'refund');
}

const negated = (m: ReadonlyMap<string, number>) =>
  new Map([...m].map(([name, cents]) => [name, -cents]));

/** An invoice a payment may be booked against: what is still due of it. */
export interface DueInvoice {
  id: number;
  gross: number;
  paid: number;
}

/**
 * A payment of `amount` cents over `invoices` in the order given: each takes what is still due
 * of it until the amount is spent; answers the allocations, what is left over (the credit) and
 * what was due in all. Invoices with nothing due (paid, or a refund) take nothing.
 */
export function allocatePayment(amount: number, invoices: readonly DueInvoice[]) {
  let left = amount;
  let due = 0;
  const allocations: { id: number; amount: number }[] = [];
  for (const invoice of invoices) {
    const open = Math.max(0, invoice.gross - invoice.paid);
    due += open;
    const take = Math.min(open, left);
    if (take > 0) {
      allocations.push({ id: invoice.id, amount: take });
      left -= take;
    }
  }
  return { allocations, credit: left, due };
}

/** An invoice's status by what was paid of it. */
export const paidStatusOf = (gross: number, paid: number) =>
  gross > 0 && paid >= gross ? 'paid' : paid > 0 ? 'partially-paid' : 'open';
