import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  INVOICE_STATUSES,
  INVOICE_TYPES,
  invoicesParams,
  listInvoices,
  textKey,
} from '#client/api/billing-client.ts';
import { ListPage } from '#client/entities/list-view/list-page.tsx';
import {
  INVOICE_ORDER_FIELDS,
  invoiceTableMinWidth,
  useInvoiceColumns,
} from '#client/entities/invoice/invoice-parts.tsx';
import { useBillingAbilities } from '#client/entities/invoice/use-billing-abilities.ts';
import { prepareMoneyFormat } from '#client/ui/money.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { INVOICE_LIST_KEYS, invoiceListFilters } from './invoice-list.ts';

/**
 * The tenant's invoices (spec route /finance-management/finance-invoices): a search over invoice
 * and policy numbers, filters by status, type, overdue, due date range and policy, one sorted
 * column (due date, newest first, by default). Filters and sort live in the address, so a link,
 * a reload and a saved view reproduce the list, and the CSV export repeats it.
 */
export default function InvoicesPage() {
  const { t, i18n } = useTranslation('finance');
  usePageTitle(t('list.title'));
  const { accountIndex, canViewPolicies } = useBillingAbilities();
  useEffect(() => prepareMoneyFormat(i18n.language), [i18n.language]);
  const url = useUrlFilters(INVOICE_LIST_KEYS, {
    typed: ['search', 'policy'],
    sortColumns: Object.keys(INVOICE_ORDER_FIELDS),
  });
  const filters = invoiceListFilters(url.values);
  const columns = useInvoiceColumns({ accountIndex, showPolicy: true, canViewPolicies });
  const filtered = Object.values(filters).some((value) => value !== '');

  return (
    <ListPage
      title={t('list.title')}
      search={{ label: t('toolbar.search'), placeholder: t('toolbar.search_placeholder') }}
      toolbar={
        <>
          <ToolbarSelect
            label={t('toolbar.status')}
            value={filters.status}
            allLabel={t('toolbar.all')}
            options={INVOICE_STATUSES.map((s) => ({
              value: s,
              label: t(`statuses.${textKey(s)}`),
            }))}
            onChange={(value) => url.set('status', value)}
          />
          <ToolbarSelect
            label={t('toolbar.type')}
            value={filters.type}
            allLabel={t('toolbar.all')}
            options={INVOICE_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))}
            onChange={(value) => url.set('type', value)}
          />
          {(['due_from', 'due_to'] as const).map((key) => (
            <ToolbarInput
              key={key}
              label={t(`toolbar.${key}`)}
              type="date"
              className="w-44"
              value={key === 'due_from' ? filters.dueDateFrom : filters.dueDateTo}
              onChange={(value) => url.set(key, value)}
            />
          ))}
          <ToolbarInput
            label={t('toolbar.policy')}
            type="text"
            className="w-44"
            value={url.drafts.policy ?? ''}
            onChange={(value) => url.setDraft('policy', value)}
          />
          <label className="flex items-center gap-2 self-end py-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="size-4"
              checked={filters.overdue === 'true'}
              onChange={(event) => url.set('overdue', event.target.checked ? '1' : '')}
            />
            {t('toolbar.overdue')}
          </label>
        </>
      }
      service={{
        orderFields: INVOICE_ORDER_FIELDS,
        params: invoicesParams,
        fetchPage: listInvoices,
      }}
      url={url}
      totalLabel={(count, total) => t('list.total', { count, total })}
      accountIndex={accountIndex}
      list="invoices"
      filters={filters}
      label={t('list.table')}
      columns={columns}
      minWidth={invoiceTableMinWidth(true)}
      emptyMessage={filtered ? t('list.empty_filtered') : t('list.empty')}
    />
  );
}
