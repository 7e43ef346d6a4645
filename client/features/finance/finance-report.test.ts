import { describe, expect, it } from 'vitest';
import {
  defaultRange,
  grandTotals,
  monthTotals,
  monthsBetween,
  productsOf,
  reportCsv,
  type FinanceRow,
} from './finance-report.ts';

const row = (month: string, productSlug: string, cents: number): FinanceRow => ({
  month,
  productSlug,
  productName: productSlug.toUpperCase(),
  written: cents,
  invoiced: cents,
  paid: cents - 100,
  open: 100,
  overdue: 0,
});

describe('finance report', () => {
  it('lists the months of a range, both ends included, and nothing for a reversed one', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
    expect(monthsBetween('2026-02', '2025-11')).toEqual([]);
    expect(monthsBetween('2026-13', '2026-14')).toEqual([]);
    expect(monthsBetween('1000-01', '9999-12')).toHaveLength(240);
  });

  it('defaults to the twelve months up to today', () => {
    expect(defaultRange('2026-11-27')).toEqual({ from: '2025-12', to: '2026-11' });
  });

  it('sums the products of a month, zero-fills months without rows and filters by product', () => {
    const rows = [
      row('2026-01', 'car', 10_000),
      row('2026-01', 'home', 5_055),
      row('2026-03', 'car', 1),
    ];
    const months = monthsBetween('2026-01', '2026-03');
    const all = monthTotals(rows, months);
    expect(all.map((m) => m.invoiced)).toEqual([15_055, 0, 1]);
    expect(monthTotals(rows, months, 'home').map((m) => m.invoiced)).toEqual([5_055, 0, 0]);
    expect(grandTotals(all).invoiced).toBe(15_056);
    // Rows outside the range do not leak in.
    expect(monthTotals([row('2025-12', 'car', 7)], months).every((m) => m.invoiced === 0)).toBe(
      true,
    );
    expect(productsOf(rows)).toEqual([
      { slug: 'car', name: 'CAR' },
      { slug: 'home', name: 'HOME' },
    ]);
  });

  it('writes CSV with the separators of the language and amounts from cents', () => {
    const totals = monthTotals([row('2026-01', 'car', 123_456)], ['2026-01']);
    const headers = {
      month: 'Monat',
      written: 'Geschrieben',
      invoiced: 'Berechnet',
      paid: 'Bezahlt',
      open: 'Offen',
      overdue: 'Überfällig; alt',
    };
    expect(reportCsv(totals, headers, 'de')).toBe(
      'Monat;Geschrieben;Berechnet;Bezahlt;Offen;"Überfällig; alt"\r\n2026-01;1234,56;1234,56;1233,56;1,00;0,00\r\n',
    );
    expect(reportCsv(totals, headers, 'en').split('\r\n')[1]).toBe(
      '2026-01,1234.56,1234.56,1233.56,1.00,0.00',
    );
    const refund = monthTotals([{ ...row('2026-01', 'car', 0), paid: -5 }], ['2026-01']);
    expect(reportCsv(refund, headers, 'en').split('\r\n')[1]).toContain('-0.05');
  });
});
