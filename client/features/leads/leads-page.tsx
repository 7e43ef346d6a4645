import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { applicantName } from '#common/party-name.ts';
import { leadsParams, listLeads, type Lead, type LeadStatus } from '#client/api/leads-client.ts';
import { leadQueries } from '#client/api/leads-queries.ts';
import type { Product } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import type { TableColumn } from '#client/ui/infinite-table.tsx';
import { useLeadColumns } from '#client/entities/lead/lead-columns.tsx';
import { useLeadStatusLabel } from '#client/entities/lead/lead-status.tsx';
import { ListPage } from '#client/entities/list-view/list-page.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { allLoaded, loadStateOf, retryFailed, type LoadState } from '#client/ui/load-state.ts';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { NewApplicationButton } from './new-application.tsx';
import { useLeadAbilities } from './use-lead-abilities.ts';

// Table column -> the service's order field.
const ORDER_FIELDS: Record<string, string> = {
  number: 'leadNumber',
  applicant: 'applicant',
  product: 'productName',
  status: 'status',
  premium: 'premium',
  created: 'createdAt',
};
const SORT_COLUMNS = Object.keys(ORDER_FIELDS);

/**
 * The tenant's leads (applications), newest first: a search over number, customer and product,
 * filters by status and product, sortable columns; each number opens the lead. The filters and
 * the sort live in the address, so that a link, a saved view and the CSV export repeat the list.
 */
export default function LeadsPage() {
  const { t } = useTranslation('leads');
  usePageTitle(t('title'));
  const abilities = useLeadAbilities();
  const { accountIndex, canViewProducts } = abilities;
  const statusLabel = useLeadStatusLabel();
  const filters = useUrlFilters(['search', 'status', 'product'], {
    typed: ['search'],
    sortColumns: SORT_COLUMNS,
  });
  const { search, status, product: productSlug } = filters.values;

  const optionQueries = useQueries({
    queries: [
      leadQueries.statuses(accountIndex),
      { ...productQueries.list(accountIndex), enabled: canViewProducts },
    ],
  });
  const [statusesQuery, productsQuery] = optionQueries;
  // Without the product view permission the product filter has no options, and asks for none.
  const noProducts: LoadState<Product[]> = { kind: 'ready', value: [] };
  const options = allLoaded<[LeadStatus[], Product[]]>([
    loadStateOf(statusesQuery),
    canViewProducts ? loadStateOf(productsQuery) : noProducts,
  ]);
  const retryOptions = () => retryFailed(optionQueries);
  const [statuses, products] = options.kind === 'ready' ? options.value : [[], []];

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
    {
      id: 'applicant',
      header: t('columns.applicant'),
      sortable: true,
      width: '2fr',
      cell: applicantName,
    },
    { ...common.product, sortable: true },
    { ...common.status, sortable: true },
    { ...common.premium, sortable: true },
    { ...common.created, sortable: true },
  ];

  return (
    <ListPage
      title={t('title')}
      action={<NewApplicationButton abilities={abilities} />}
      search={{
        label: t('toolbar.search'),
        placeholder: t('toolbar.search_placeholder'),
      }}
      toolbar={
        <>
          <ToolbarSelect
            label={t('toolbar.status')}
            value={status}
            allLabel={t('toolbar.all')}
            // Until the options arrive (or when they failed) only a status from the address shows.
            disabled={options.kind !== 'ready'}
            options={statuses.map((s) => ({ value: s.slug, label: statusLabel(s.slug, s) }))}
            onChange={(v) => filters.set('status', v)}
          />
          {canViewProducts ? (
            <ToolbarSelect
              label={t('toolbar.product')}
              value={productSlug}
              allLabel={t('toolbar.all')}
              disabled={options.kind !== 'ready'}
              options={products.map((p) => ({ value: p.slug, label: p.name }))}
              onChange={(v) => filters.set('product', v)}
            />
          ) : null}
        </>
      }
      notice={
        options.kind === 'failed' ? (
          <LoadProblem
            error={options.error}
            failed={t('errors.filters_failed')}
            onRetry={retryOptions}
          />
        ) : null
      }
      service={{ orderFields: ORDER_FIELDS, params: leadsParams, fetchPage: listLeads }}
      url={filters}
      totalLabel={(count, total) => t('list.total', { count, total })}
      accountIndex={accountIndex}
      list="leads"
      filters={{ search, status, productSlug }}
      label={t('table.label')}
      columns={columns}
      minWidth="60rem"
      emptyMessage={t('table.empty')}
    />
  );
}
