import dayjs from 'dayjs';
import type { FinanceRow } from '#client/api/billing-client.ts';

/**
 * The finance report's figures (docs/contracts.md, "Finance report"): the billing service sums
 * them per month and product in the database; the page only adds up the products shown, fills
 * the months without figures with zeros and writes the CSV. Amounts in cents.
 */

export const FINANCE_MEASURES = ['written', 'invoiced', 'paid', 'open', 'overdue'] as const;
export type FinanceMeasure = (typeof FINANCE_MEASURES)[number];

/** One month (YYYY-MM) and product, as the billing service sums them. */
export type { FinanceRow };

export type MonthTotals = Record<FinanceMeasure, number> & { month: string };

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export const isMonth = (text: string): boolean => MONTH.test(text);

/** The months from `from` to `to`, both included ('2026-01'…'2026-03'); empty when reversed. */
export function monthsBetween(from: string, to: string): string[] {
  if (!isMonth(from) || !isMonth(to)) return [];
  const months: string[] = [];
  let at = dayjs(`${from}-01`);
  const end = dayjs(`${to}-01`);
  // Bounded: a hand-written address asking for centuries stops at 20 years of months.
  while (!at.isAfter(end) && months.length < 240) {
    months.push(at.format('YYYY-MM'));
    at = at.add(1, 'month');
  }
  return months;
}

/** The last twelve months up to the one holding `today` (YYYY-MM-DD): the report's default. */
export function defaultRange(today: string): { from: string; to: string } {
  const end = dayjs(today).startOf('month');
  return { from: end.subtract(11, 'month').format('YYYY-MM'), to: end.format('YYYY-MM') };
}

/** Each month's sums over the rows of one product ('' = all products), zeros where none. */
export function monthTotals(
  rows: readonly FinanceRow[],
  months: readonly string[],
  productSlug = '',
): MonthTotals[] {
  const byMonth = new Map<string, MonthTotals>(
    months.map((month) => [
      month,
      { month, written: 0, invoiced: 0, paid: 0, open: 0, overdue: 0 },
    ]),
  );
  for (const row of rows) {
    if (productSlug && row.productSlug !== productSlug) continue;
    const sums = byMonth.get(row.month);
    if (!sums) continue;
    for (const measure of FINANCE_MEASURES) sums[measure] += row[measure];
  }
  return [...byMonth.values()];
}

/** The products of the rows, by name, once each. */
export function productsOf(rows: readonly FinanceRow[]): { slug: string; name: string }[] {
  const names = new Map(rows.map((row) => [row.productSlug, row.productName]));
  return [...names]
    .map(([slug, name]) => ({ slug, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The sums over all months shown (the table's last row). */
export function grandTotals(totals: readonly MonthTotals[]): Record<FinanceMeasure, number> {
  const sum = { written: 0, invoiced: 0, paid: 0, open: 0, overdue: 0 };
  for (const month of totals) for (const m of FINANCE_MEASURES) sum[m] += month[m];
  return sum;
}

/**
 * The table as CSV in the reader's language, as the BFF's list exports write it: German and
 * Polish spreadsheets take the semicolon and the decimal comma, English ones the comma and the
 * point; amounts are numbers in the currency (cents / 100), so a spreadsheet sums them.
 */
export function reportCsv(
  totals: readonly MonthTotals[],
  headers: { month: string } & Record<FinanceMeasure, string>,
  language: string,
): string {
  const comma = language.startsWith('en');
  const separator = comma ? ',' : ';';
  const amount = (cents: number) => {
    const sign = cents < 0 ? '-' : '';
    const abs = Math.abs(cents);
    const text = `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
    return comma ? text : text.replace('.', ',');
  };
  const cell = (text: string) => (/[",;\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = [
    [headers.month, ...FINANCE_MEASURES.map((m) => headers[m])].map(cell).join(separator),
    ...totals.map((row) =>
      [row.month, ...FINANCE_MEASURES.map((m) => amount(row[m]))].join(separator),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
