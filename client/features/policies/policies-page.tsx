import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { POLICY_STATUSES, policiesParams, type PolicyStatus } from '#client/api/policies-client.ts';
import type { Product } from '#client/api/products-client.ts';
import { productQueries } from '#client/api/products-queries.ts';
import {
  columnOrderChoices,
  ListFrame,
  orderChoiceOf,
  queryWithOrderChoice,
} from '#client/entities/list-view/list-page.tsx';
import { ListActions } from '#client/entities/list-view/list-views.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import {
  PoliciesTable,
  POLICY_SORT_COLUMNS,
  policySort,
} from '#client/entities/policy/policies-table.tsx';
import { policyStatusKey } from '#client/entities/policy/policy-status-badge.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { loadStateOf, type LoadState } from '#client/ui/load-state.ts';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { filtersFromSearch, statusesParam } from './list-filters.ts';
import { usePolicyAbilities } from '#client/api/use-policy-abilities.ts';

/**
 * The tenant's policies (spec route /policies): filters by status, product, a search and the
 * order, all in the address so that a link, a saved view and the CSV export repeat the list.
 */
export default function PoliciesPage() {
  const { t } = useTranslation('policies');
  usePageTitle(t('list.title'));
  const { accountIndex, canViewProducts } = usePolicyAbilities();
  // A sorted column (`sort=premium:desc`) is kept in the address like the filters; it wins over
  // `order`, which orders by age when no column is sorted.
  const url = useUrlFilters(['status', 'product', 'q', 'order'], {
    typed: ['q'],
    sortColumns: SORT_COLUMNS,
  });
  // The address as the table's filters; read anew only when the address changes.
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(url.query)), [url.query]);

  const productsQuery = useQuery({
    ...productQueries.list(accountIndex),
    enabled: canViewProducts,
  });
  const products = {
    state: canViewProducts ? loadStateOf(productsQuery) : noProducts,
    retry: () => void productsQuery.refetch(),
  };

  const toggleStatus = (status: PolicyStatus, on: boolean) =>
    url.set(
      'status',
      statusesParam(
        on ? [...filters.statuses, status] : filters.statuses.filter((s) => s !== status),
      ),
    );

  return (
    <ListFrame
      title={t('list.title')}
      toolbar={
        <>
          <ToolbarInput
            label={t('toolbar.search')}
            value={url.drafts.q}
            placeholder={t('toolbar.search_placeholder')}
            className="w-72"
            onChange={(v) => url.setDraft('q', v)}
          />
          {canViewProducts ? (
            <ToolbarSelect
              label={t('toolbar.product')}
              value={filters.productSlug}
              allLabel={t('toolbar.all')}
              disabled={products.state.kind !== 'ready'}
              options={
                products.state.kind === 'ready'
                  ? products.state.value.map((p) => ({ value: p.slug, label: p.name }))
                  : []
              }
              onChange={(productSlug) => url.set('product', productSlug)}
            />
          ) : null}
          <ToolbarSelect
            label={t('toolbar.order')}
            // The same order as the column headers: a sorted column shows here, and a choice here
            // sorts the table anew (its header says so); the age order applies when none is.
            value={orderChoiceOf(url.sort, filters.order === 'oldest' ? 'oldest' : '')}
            allLabel={t('toolbar.newest')}
            options={[
              { value: 'oldest', label: t('toolbar.oldest') },
              ...columnOrderChoices(
                SORT_COLUMNS.map((column) => ({
                  column,
                  // The header's soft hyphens have no place in a list of choices.
                  label: t(`columns.${column}` as 'columns.number').replace(/\u00ad/g, ''),
                })),
                (name, direction) =>
                  direction === 'asc'
                    ? t('toolbar.column_asc', { column: name })
                    : t('toolbar.column_desc', { column: name }),
              ),
            ]}
            onChange={(choice) =>
              url.apply(queryWithOrderChoice(url.viewQuery, choice, { columns: SORT_COLUMNS }))
            }
          />
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 text-sm font-medium text-slate-800">
              {t('toolbar.status')}
            </legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1 py-2">
              {POLICY_STATUSES.map((status) => (
                <label key={status} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={filters.statuses.includes(status)}
                    onChange={(event) => toggleStatus(status, event.target.checked)}
                  />
                  {t(policyStatusKey(status))}
                </label>
              ))}
            </div>
          </fieldset>
        </>
      }
    >
      {products.state.kind === 'failed' ? (
        <LoadProblem
          error={products.state.error}
          failed={t('toolbar.products_failed')}
          onRetry={products.retry}
        />
      ) : null}
      <ListActions
        accountIndex={accountIndex}
        list="policies"
        query={url.viewQuery}
        onApply={url.apply}
        exportQuery={policiesParams({ ...filters, sort: policySort(url.sort) })}
      />
      <PoliciesTable
        filters={filters}
        sort={url.sort}
        onSort={url.keepSort}
        viewKey={url.generation}
        label={t('list.table')}
        emptyMessage={
          filters.statuses.length || filters.productSlug || filters.search
            ? t('list.empty_filtered')
            : t('list.empty')
        }
      />
    </ListFrame>
  );
}

/** The table's sortable columns; each is named as its header (`columns.<column>`). */
const SORT_COLUMNS = Object.keys(POLICY_SORT_COLUMNS);

/** A user who may not read products gets no product filter, and nothing is asked for. */
const noProducts: LoadState<Product[]> = { kind: 'ready', value: [] };
