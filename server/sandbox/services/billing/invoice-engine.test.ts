import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addMonths,
  allocatePayment,
  centsOf,
  dayOf,
  lineOf,
  owedOver,
  planInvoices,
  refundLines,
  roundDiv,
  taxOf,
  totalsOf,
  type BillingPolicy,
  type IssuedInvoice,
  type PlannedInvoice,
} from './invoice-engine.ts';

// The invoice engine's arithmetic (issue 18): integers only, lines sum to totals, net + tax =
// gross, refunds never above what was paid, and a run given its own answer plans nothing more.

const START = dayOf(Date.UTC(2025, 0, 15));
const UNITS = ['day', 'week', 'month', 'quarter', 'year', 'oneTimePayment'] as const;

const item = fc.record({
  name: fc.constantFrom('Base', 'Theft', 'Glass', 'Fee'),
  unit: fc.constantFrom(...UNITS),
  cents: fc.integer({ min: 0, max: 5_000_000 }),
});

/** A timeline of 1 to 3 slices from START, the last one open or closed. */
const policy = fc
  .record({
    lengths: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 3 }),
    items: fc.array(fc.uniqueArray(item, { selector: (i) => i.name, maxLength: 3 }), {
      minLength: 3,
      maxLength: 3,
    }),
    open: fc.boolean(),
    billingMonths: fc.constantFrom(1, 3, 6, 12),
    billingDay: fc.option(fc.integer({ min: 1, max: 28 }), { nil: null }),
    taxRateBp: fc.integer({ min: 0, max: 10_000 }),
    status: fc.constantFrom('live', 'terminated', 'withdrawn'),
    terminationAfter: fc.integer({ min: 0, max: 900 }),
  })
  .map((p): BillingPolicy => {
    let from = START;
    const slices: BillingPolicy['slices'][number][] = p.lengths.map((length, i) => {
      const slice = { from, to: from + length, items: p.items[i]! };
      from += length;
      return slice;
    });
    if (p.open) slices[slices.length - 1] = { ...slices[slices.length - 1]!, to: null };
    return {
      code: 'pol_x',
      slices,
      billingMonths: p.billingMonths,
      billingDay: p.billingDay,
      taxRateBp: p.taxRateBp,
      status: p.status as BillingPolicy['status'],
      terminationDay: p.status === 'terminated' ? START + p.terminationAfter : null,
    };
  });

const asIssued = (plans: PlannedInvoice[]): IssuedInvoice[] =>
  plans.map((p) => ({ key: p.key, type: p.type, from: p.from, to: p.to, lines: p.lines }));

const isInt = (n: number) => Number.isSafeInteger(n);

describe('invoice arithmetic', () => {
  it('rounds half away from zero, symmetric for refunds', () => {
    expect(roundDiv(5, 10)).toBe(1);
    expect(roundDiv(-5, 10)).toBe(-1);
    expect(roundDiv(14, 10)).toBe(1);
    expect(taxOf(10_000, 1900)).toBe(1900);
    expect(taxOf(-10_001, 1900)).toBe(-taxOf(10_001, 1900));
    expect(centsOf(12.345)).toBe(1235);
    expect(centsOf(0.1 + 0.2)).toBe(30);
  });

  it('adds calendar months, ending on the last day of a shorter month', () => {
    const jan31 = dayOf(Date.UTC(2024, 0, 31));
    expect(addMonths(jan31, 1)).toBe(dayOf(Date.UTC(2024, 1, 29)));
    expect(addMonths(jan31, 12)).toBe(dayOf(Date.UTC(2025, 0, 31)));
  });

  it('a line is integers with net + tax = gross; an invoice is the sum of its lines', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            quantity: fc.integer({ min: 0, max: 1000 }),
            price: fc.integer({ min: -1_000_000, max: 1_000_000 }),
            bp: fc.integer({ min: 0, max: 10_000 }),
          }),
          { maxLength: 20 },
        ),
        (specs) => {
          const lines = specs.map((s) => lineOf('x', s.quantity, s.price, s.bp));
          for (const l of lines) {
            expect([l.netAmount, l.taxAmount, l.grossAmount].every(isInt)).toBe(true);
            expect(l.netAmount + l.taxAmount).toBe(l.grossAmount);
          }
          const t = totalsOf(lines);
          expect(t.netAmount).toBe(lines.reduce((a, l) => a + l.netAmount, 0));
          expect(t.taxAmount).toBe(lines.reduce((a, l) => a + l.taxAmount, 0));
          expect(t.netAmount + t.taxAmount).toBe(t.grossAmount);
        },
      ),
    );
  });

  it('a yearly item billed monthly over a year comes to the year within a cent a month', () => {
    const year: BillingPolicy['slices'] = [
      {
        from: START,
        to: addMonths(START, 12),
        items: [{ name: 'B', unit: 'year', cents: 120_000 }],
      },
    ];
    const whole = owedOver(year, START, addMonths(START, 12)).get('B')!;
    expect(whole).toBe(120_000);
  });

  it('planned invoices: integer lines summing to totals, net + tax = gross, keys unique', () => {
    fc.assert(
      fc.property(policy, fc.integer({ min: 0, max: 1000 }), (p, after) => {
        const plans = planInvoices(p, [], START + after, 0);
        const keys = new Set(plans.map((i) => i.key));
        expect(keys.size).toBe(plans.length);
        for (const inv of plans) {
          expect(inv.from).toBeLessThanOrEqual(inv.to);
          const t = totalsOf(inv.lines);
          expect(t).toEqual({
            netAmount: inv.netAmount,
            taxAmount: inv.taxAmount,
            grossAmount: inv.grossAmount,
          });
          for (const l of inv.lines) {
            expect([l.netAmount, l.taxAmount, l.grossAmount, l.pricePerUnit].every(isInt)).toBe(
              true,
            );
            expect(l.netAmount + l.taxAmount).toBe(l.grossAmount);
          }
        }
      }),
    );
  });

  it('a run given what it issued plans nothing more on the same day (idempotent)', () => {
    fc.assert(
      fc.property(
        policy,
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (p, after, paid) => {
          const today = START + after;
          const first = planInvoices(p, [], today, paid);
          expect(planInvoices(p, asIssued(first), today, paid)).toEqual([]);
        },
      ),
    );
  });

  it('a later day plans only new periods, and then nothing again', () => {
    fc.assert(
      fc.property(policy, fc.integer({ min: 0, max: 500 }), (p, after) => {
        const first = planInvoices(p, [], START + after, 0);
        const later = planInvoices(p, asIssued(first), START + after + 200, 0);
        const all = asIssued([...first, ...later]);
        expect(new Set(all.map((i) => i.key)).size).toBe(all.length);
        expect(planInvoices(p, all, START + after + 200, 0)).toEqual([]);
      }),
    );
  });

  it('a pro-rata refund never exceeds what was paid, and is never a charge', () => {
    fc.assert(
      fc.property(
        policy,
        fc.integer({ min: 0, max: 900 }),
        fc.integer({ min: 0, max: 20_000_000 }),
        (p, earnedAfter, paid) => {
          const billed = asIssued(planInvoices({ ...p, status: 'live' }, [], START + 900, 0));
          const lines = refundLines(p, billed, START + earnedAfter, paid);
          const t = totalsOf(lines);
          expect(t.grossAmount).toBeLessThanOrEqual(0);
          expect(-t.grossAmount).toBeLessThanOrEqual(paid);
          expect(t.netAmount + t.taxAmount).toBe(t.grossAmount);
          for (const l of lines) expect(l.netAmount).toBeLessThan(0);
        },
      ),
    );
  });

  it('a terminated policy refunds what was invoiced beyond the termination, once', () => {
    const p: BillingPolicy = {
      code: 'pol_t',
      slices: [
        {
          from: START,
          to: addMonths(START, 12),
          items: [{ name: 'Base', unit: 'year', cents: 36_500 }],
        },
      ],
      billingMonths: 12,
      billingDay: null,
      taxRateBp: 1900,
      status: 'live',
      terminationDay: null,
    };
    const initial = planInvoices(p, [], START, 0);
    expect(initial.map((i) => [i.type, i.netAmount, i.taxAmount, i.grossAmount])).toEqual([
      ['initial', 36_500, 6935, 43_435],
    ]);
    const ended = { ...p, status: 'terminated' as const, terminationDay: START + 100 };
    const [final] = planInvoices(ended, asIssued(initial), START + 120, 43_435);
    // 265 of 365 days unearned: 265.00 net back, with its tax.
    expect(final).toMatchObject({ type: 'final', netAmount: -26_500, grossAmount: -31_535 });
    expect(planInvoices(ended, asIssued([...initial, final!]), START + 130, 43_435)).toEqual([]);
  });

  it('allocates a payment oldest first and leaves the rest as credit', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            gross: fc.integer({ min: -10_000, max: 100_000 }),
            paid: fc.integer({ min: 0, max: 100_000 }),
          }),
          { maxLength: 10 },
        ),
        fc.integer({ min: 1, max: 1_000_000 }),
        (raw, amount) => {
          const invoices = raw.map((r, id) => ({
            id,
            gross: r.gross,
            paid: Math.min(r.paid, Math.max(0, r.gross)),
          }));
          const { allocations, credit, due } = allocatePayment(amount, invoices);
          const allocated = allocations.reduce((a, x) => a + x.amount, 0);
          expect(allocated + credit).toBe(amount);
          expect(allocated).toBeLessThanOrEqual(due);
          expect(credit === 0 || allocated === due).toBe(true);
          for (const a of allocations) {
            const inv = invoices[a.id]!;
            expect(a.amount).toBeGreaterThan(0);
            expect(inv.paid + a.amount).toBeLessThanOrEqual(inv.gross);
          }
        },
      ),
    );
  });
});
