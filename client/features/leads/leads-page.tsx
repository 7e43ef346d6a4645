import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listLeadStatuses, listLeads, type Lead } from '#client/api/leads-client.ts';
import { listProducts } from '#client/api/products-client.ts';
import { listAll } from '#client/api/tenant-admin-client.ts';
import { InfiniteTable, type LoadTablePage, type TableColumn } from '#client/ui/infinite-table.tsx';
import { useLeadColumns } from '#client/ui/lead-columns.tsx';
import { useLeadStatusLabel } from '#client/ui/lead-status.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { useLoad } from '#client/ui/use-load.ts';
import { serviceOrder } from '#client/ui/table-sort.ts';
import { useDebounced, useKeptSort } from '#client/ui/use-list-toolbar.ts';
import { NewApplicationButton } from './new-application.tsx';
import { applicantName } from './lead-names.ts';
import { useLeadAbilities } from './use-lead-abilities.ts';

// Table column -> the service's order field.
const ORDER_FIELDS: Record<string, string> = {
  number: 'leadNumber',
  status: 'status',
  created: 'createdAt',
};

/**
 * The tenant's leads (applications), newest first: a search over number, customer and product,
 * filters by status and product, sortable columns; each number opens the lead.
 */
export default function LeadsPage() {
  const { t } = useTranslation('leads');
  usePageTitle(t('title'));
  const abilities = useLeadAbilities();
  const { accountIndex, canViewProducts } = abilities;
  const statusLabel = useLeadStatusLabel();
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim());
  const [status, setStatus] = useState('');
  const [productSlug, setProductSlug] = useState('');
  const [sortKept, keepSort] = useKeptSort();

  const loadOptions = useCallback(
    async (signal: AbortSignal) => {
      const [statuses, products] = await Promise.all([
        listLeadStatuses(accountIndex, signal),
        canViewProducts
          ? listAll((page, s) => listProducts(accountIndex, { page }, s ?? signal), signal)
          : Promise.resolve([]),
      ]);
      return { statuses, products };
    },
    [accountIndex, canViewProducts],
  );
  const { state: options } = useLoad(loadOptions, 'lead filters');
  const statuses = options.kind === 'ready' ? options.value.statuses : [];
  const products = options.kind === 'ready' ? options.value.products : [];

  const loadPage = useCallback<LoadTablePage<Lead>>(
    async (input, signal) => {
      keepSort(input.query.sort);
      const page = await listLeads(
        accountIndex,
        {
          page: input.pageToken ? Number(input.pageToken) : 1,
          search,
          status: status || undefined,
          productSlug: productSlug || undefined,
          order: serviceOrder(input.query.sort, ORDER_FIELDS),
        },
        signal,
      );
      return { rows: page.items, nextPageToken: page.nextPageToken };
    },
    [accountIndex, search, status, productSlug, keepSort],
  );

  const common = useLeadColumns(
    accountIndex,
    {
      number: t('columns.number'),
      product: t('columns.product'),
      status: t('columns.status'),
      premium: t('columns.premium'),
      created: t('columns.created'),
    },
    statuses,
  );
  const columns: TableColumn<Lead>[] = [
    { ...common.number, sortable: true },
    { id: 'applicant', header: t('columns.applicant'), width: '2fr', cell: applicantName },
    common.product,
    { ...common.status, sortable: true },
    common.premium,
    { ...common.created, sortable: true },
  ];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{t('title')}</h1>
        <NewApplicationButton abilities={abilities} />
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <ToolbarInput
          label={t('toolbar.search')}
          value={searchText}
          placeholder={t('toolbar.search_placeholder')}
          className="w-72"
          onChange={setSearchText}
        />
        <ToolbarSelect
          label={t('toolbar.status')}
          value={status}
          allLabel={t('toolbar.all')}
          options={statuses.map((s) => ({ value: s.slug, label: statusLabel(s.slug, s.name) }))}
          onChange={setStatus}
        />
        {canViewProducts ? (
          <ToolbarSelect
            label={t('toolbar.product')}
            value={productSlug}
            allLabel={t('toolbar.all')}
            options={products.map((p) => ({ value: p.slug, label: p.name }))}
            onChange={setProductSlug}
          />
        ) : null}
      </div>
      <InfiniteTable
        key={JSON.stringify({ search, status, productSlug })}
        initialQuery={{ filters: {}, sort: sortKept }}
        label={t('table.label')}
        columns={columns}
        minWidth="60rem"
        loadPage={loadPage}
        rowKey={(l) => String(l.id)}
        emptyMessage={t('table.empty')}
      />
    </div>
  );
}
