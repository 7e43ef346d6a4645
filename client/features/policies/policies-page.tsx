import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { POLICY_STATUSES, type PolicyStatus } from '#client/api/policies-client.ts';
import { listProducts, type Product } from '#client/api/products-client.ts';
import { listAll } from '#client/api/tenant-admin-client.ts';
import { PoliciesTable } from '#client/ui/policies-table.tsx';
import { policyStatusKey } from '#client/ui/policy-status-badge.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { filtersFromSearch, searchFromFilters } from './list-filters.ts';
import { usePolicyAbilities } from '#client/api/use-policy-abilities.ts';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The tenant's policies (spec route /policies): filters by status, product, a search and the
 * order, all in the address so that a link reproduces the list.
 */
export default function PoliciesPage() {
  const { t } = useTranslation('policies');
  usePageTitle(t('list.title'));
  const { accountIndex, canViewProducts } = usePolicyAbilities();
  const [params, setParams] = useSearchParams();
  // The controls answer at once from local state; the address follows it (replacing the entry,
  // so that typing is not a trail of history entries) and an address changed from outside (the
  // back button, a pasted link) resets the controls.
  const [filters, setFilters] = useState(() => filtersFromSearch(params));
  const [searchText, setSearchText] = useState(filters.search);
  const written = useRef(params.toString());
  useEffect(() => {
    const wanted = searchFromFilters(filters).toString();
    written.current = wanted;
    if (wanted !== params.toString()) setParams(wanted, { replace: true });
    // Only a change of the filters writes the address; reading it is the next effect's job.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filters]);
  useEffect(() => {
    const current = params.toString();
    if (current === written.current) return;
    written.current = current;
    const next = filtersFromSearch(params);
    setFilters(next);
    setSearchText(next.search);
  }, [params]);
  // The table follows the search box after a pause in typing.
  useEffect(() => {
    const text = searchText.trim();
    if (text === filters.search) return;
    const timer = setTimeout(() => setFilters((f) => ({ ...f, search: text })), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, filters.search]);

  const products = useProducts(accountIndex, canViewProducts);

  const toggleStatus = (status: PolicyStatus, on: boolean) =>
    setFilters((f) => ({
      ...f,
      statuses: on ? [...f.statuses, status] : f.statuses.filter((s) => s !== status),
    }));

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('list.title')}</h1>
      <div className="flex flex-wrap items-end gap-4">
        <ToolbarInput
          label={t('toolbar.search')}
          value={searchText}
          placeholder={t('toolbar.search_placeholder')}
          className="w-72"
          onChange={setSearchText}
        />
        {canViewProducts ? (
          <ToolbarSelect
            label={t('toolbar.product')}
            value={filters.productSlug}
            allLabel={products === 'failed' ? t('toolbar.products_failed') : t('toolbar.all')}
            disabled={products === 'failed'}
            options={
              Array.isArray(products)
                ? products.map((p) => ({ value: p.slug, label: p.name }))
                : // Until the products arrive, a product from the address is still shown.
                  filters.productSlug
                  ? [{ value: filters.productSlug, label: filters.productSlug }]
                  : []
            }
            onChange={(productSlug) => setFilters((f) => ({ ...f, productSlug }))}
          />
        ) : null}
        <ToolbarSelect
          label={t('toolbar.order')}
          value={filters.order === 'oldest' ? 'oldest' : ''}
          allLabel={t('toolbar.newest')}
          options={[{ value: 'oldest', label: t('toolbar.oldest') }]}
          onChange={(order) => setFilters((f) => ({ ...f, order: order ? 'oldest' : 'newest' }))}
        />
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-slate-800">{t('toolbar.status')}</legend>
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
      </div>
      <PoliciesTable
        filters={filters}
        label={t('list.table')}
        emptyMessage={
          filters.statuses.length || filters.productSlug || filters.search
            ? t('list.empty_filtered')
            : t('list.empty')
        }
      />
    </div>
  );
}

/** The tenant's products for the filter: loading (null), the list, or 'failed'. */
function useProducts(accountIndex: number, enabled: boolean): Product[] | null | 'failed' {
  const [products, setProducts] = useState<Product[] | null | 'failed'>(null);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    listAll(
      (page, signal) => listProducts(accountIndex, { page }, signal ?? controller.signal),
      controller.signal,
    )
      .then(setProducts)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('products for the policy filter failed', error);
        setProducts('failed');
      });
    return () => controller.abort();
  }, [accountIndex, enabled]);
  return products;
}
