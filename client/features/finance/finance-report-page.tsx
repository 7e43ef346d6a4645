import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { billingQueries } from '#client/api/billing-queries.ts';
import { ListFrame } from '#client/entities/list-view/list-page.tsx';
import { useBillingAbilities } from '#client/entities/invoice/use-billing-abilities.ts';
import { Button } from '#client/ui/button.tsx';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useMoneyFormat } from '#client/ui/money.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { saveFile } from '#client/ui/save-file.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { FinanceChart, type ChartSeries } from './finance-chart.tsx';
import {
  defaultRange,
  FINANCE_MEASURES,
  grandTotals,
  isMonth,
  monthsBetween,
  monthTotals,
  productsOf,
  reportCsv,
  type FinanceMeasure,
} from './finance-report.ts';

const COLORS: Record<FinanceMeasure, string> = {
  written: '#475569',
  invoiced: '#1d4ed8',
  paid: '#15803d',
  open: '#b45309',
  overdue: '#b91c1c',
};

const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
const td = 'px-3 py-2 text-sm text-slate-800';
const num = `${td} text-right tabular-nums`;

/**
 * The finance report (spec routes /finance-management/finance-report and /finance-reports): per
 * month the premium written, invoiced, paid, open and overdue, for all products or one, as lines
 * and as the same numbers in a table, with a CSV of the table. The range and product live in
 * the address. Sums come from the billing service's database, never from paging invoices here.
 */
export default function FinanceReportPage() {
  const { t, i18n } = useTranslation('finance');
  usePageTitle(t('report.title'));
  const { accountIndex } = useBillingAbilities();
  const money = useMoneyFormat();
  const url = useUrlFilters(['from', 'to', 'product'] as const);
  const fallback = defaultRange(dayjs().format('YYYY-MM-DD'));
  const from = isMonth(url.values.from) ? url.values.from : fallback.from;
  const to = isMonth(url.values.to) ? url.values.to : fallback.to;
  const months = useMemo(() => monthsBetween(from, to), [from, to]);
  const query = useQuery({
    ...billingQueries.financeReport(accountIndex, from, to),
    enabled: months.length > 0,
  });
  const state = loadStateOf(query);
  const rows = useMemo(() => query.data?.rows ?? [], [query.data]);
  const currency = query.data?.currency ?? 'EUR';
  const products = useMemo(() => productsOf(rows), [rows]);
  const totals = useMemo(
    () => monthTotals(rows, months, url.values.product),
    [rows, months, url.values.product],
  );
  const sums = grandTotals(totals);
  const amount = useCallback((cents: number) => money(cents / 100, currency), [money, currency]);
  const monthFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { month: 'short', year: 'numeric' }),
    [i18n.language],
  );
  const monthLabel = useCallback(
    (month: string) => monthFormat.format(new Date(`${month}-15T12:00:00Z`)),
    [monthFormat],
  );
  const series = useMemo<ChartSeries[]>(
    () =>
      FINANCE_MEASURES.map((m) => ({
        label: t(`report.measures.${m}`),
        color: COLORS[m],
        values: totals.map((month) => month[m]),
      })),
    [t, totals],
  );

  const download = () => {
    const headers = {
      month: t('report.month'),
      ...Object.fromEntries(FINANCE_MEASURES.map((m) => [m, t(`report.measures.${m}`)])),
    } as { month: string } & Record<FinanceMeasure, string>;
    const csv = reportCsv(totals, headers, i18n.language);
    // A byte-order mark, so that a spreadsheet reads the umlauts as UTF-8.
    const blob = new Blob(['\ufeff', csv], { type: 'text/csv;charset=utf-8' });
    saveFile(blob, `finance-report-${from}-${to}.csv`);
  };

  return (
    <ListFrame
      title={t('report.title')}
      action={
        <Button variant="secondary" onClick={download} disabled={state.kind !== 'ready'}>
          {t('report.csv')}
        </Button>
      }
      toolbar={
        <>
          {(['from', 'to'] as const).map((key) => (
            <ToolbarInput
              key={key}
              label={t(`report.${key}`)}
              type="month"
              className="w-44"
              value={key === 'from' ? from : to}
              onChange={(value) => url.set(key, value)}
            />
          ))}
          <ToolbarSelect
            label={t('report.product')}
            value={url.values.product}
            allLabel={t('report.all_products')}
            options={products.map((p) => ({ value: p.slug, label: p.name }))}
            onChange={(value) => url.set('product', value)}
          />
        </>
      }
    >
      {months.length === 0 ? (
        <p className="text-sm text-slate-700" role="status">
          {t('report.bad_range')}
        </p>
      ) : state.kind === 'failed' ? (
        <RetryAlert message={t('report.failed')} onRetry={() => void query.refetch()} />
      ) : state.kind !== 'ready' ? (
        <Spinner label={t('report.loading')} />
      ) : (
        <>
          <figure className="flex flex-col gap-2">
            <FinanceChart
              months={months}
              series={series}
              monthLabel={monthLabel}
              amountLabel={amount}
            />
            <figcaption className="text-sm text-slate-600">
              {t('report.caption', { from: monthLabel(from), to: monthLabel(to) })}
            </figcaption>
          </figure>
          <div className="overflow-x-auto rounded-md border border-slate-200">
            <table className="w-full min-w-[44rem]" aria-label={t('report.table')}>
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>
                    {t('report.month')}
                  </th>
                  {FINANCE_MEASURES.map((m) => (
                    <th key={m} scope="col" className={`${th} text-right`}>
                      {t(`report.measures.${m}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {totals.map((month) => (
                  <tr key={month.month}>
                    <th scope="row" className={`${td} text-left font-medium`}>
                      {monthLabel(month.month)}
                    </th>
                    {FINANCE_MEASURES.map((m) => (
                      <td key={m} className={num}>
                        {amount(month[m])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
              <tfoot className="border-t-2 border-slate-300 bg-slate-50">
                <tr>
                  <th scope="row" className={`${td} text-left font-semibold`}>
                    {t('report.total')}
                  </th>
                  {FINANCE_MEASURES.map((m) => (
                    <td
                      key={m}
                      className={`${num} font-semibold`}
                      data-testid={`report-total-${m}`}
                    >
                      {amount(sums[m])}
                    </td>
                  ))}
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </ListFrame>
  );
}
