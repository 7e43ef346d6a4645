import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { listProducts, type Product } from '#client/api/products-client.ts';
import { Button } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import type { TableColumn } from '#client/ui/infinite-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { serviceOrder } from '#client/ui/table-sort.ts';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { ListTitle, ServiceListTable } from '#client/entities/list-view/list-page.tsx';
import { StatusBadge } from './page-parts.tsx';
import { ProductDialog } from './product-dialogs.tsx';
import { useProductAbilities } from './use-product-abilities.ts';
import { categoryKey } from './labels.ts';

// Table column -> the service's order field (the current version is no column of the product).
const ORDER_FIELDS: Record<string, string> = {
  name: 'name',
  slug: 'slug',
  category: 'category',
  updated: 'updatedAt',
};

/** The newest version a customer can buy (active), else the newest of all. */
function currentVersion(product: Product) {
  const versions = product.versions ?? [];
  return versions.findLast((v) => v.status === 'active') ?? versions.at(-1) ?? null;
}

/**
 * The tenant's products (spec route /management/product-list), searchable through the name
 * column's filter; "New product" opens the product once it is created.
 */
export default function ProductsPage() {
  const { t } = useTranslation('products');
  usePageTitle(t('list.title'));
  const navigate = useNavigate();
  const { accountIndex, canCreateProduct } = useProductAbilities();
  const [creating, setCreating] = useState(false);
  const productPath = (id: number) => `/u/${accountIndex}/management/product/${id}`;

  // The sorted column is kept in the address, as on the other lists.
  const url = useUrlFilters([], { sortColumns: Object.keys(ORDER_FIELDS) });

  const columns: TableColumn<Product>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      filterable: true,
      sortable: true,
      width: '2fr',
      cell: (product) => (
        <Link
          to={productPath(product.id)}
          className="font-medium text-blue-800 underline-offset-2 hover:underline"
        >
          {product.name}
        </Link>
      ),
    },
    { id: 'slug', header: t('columns.slug'), sortable: true, width: '1.5fr', cell: (p) => p.slug },
    {
      id: 'category',
      header: t('columns.category'),
      sortable: true,
      width: '1fr',
      cell: (p) => t(categoryKey(p.category)),
    },
    {
      id: 'version',
      header: t('columns.current_version'),
      width: '1.2fr',
      cell: (product) => {
        const version = currentVersion(product);
        return version ? (
          <span className="flex items-center gap-2">
            {t('version_number', { version: version.version })}
            <StatusBadge status={version.status} />
          </span>
        ) : (
          t('no_versions')
        );
      },
    },
    {
      id: 'updated',
      header: t('columns.updated'),
      sortable: true,
      width: '9rem',
      cell: (p) => formatDateTime(p.updatedAt),
    },
  ];

  return (
    <div className="flex flex-col gap-6">
      <ListTitle title={t('list.title')} />
      {canCreateProduct ? (
        <div>
          <Button onClick={() => setCreating(true)}>{t('actions.new_product')}</Button>
        </div>
      ) : null}
      <ServiceListTable
        url={url}
        fetchPage={(query, pageToken, signal) =>
          listProducts(
            accountIndex,
            {
              page: 1,
              // The token carries the total too.
              pageToken,
              search: query.filters.name ?? '',
              order: serviceOrder(query.sort, ORDER_FIELDS),
            },
            signal,
          )
        }
        totalLabel={(count, total) => t('list.total', { count, total })}
        label={t('list.table')}
        columns={columns}
        emptyMessage={t('list.empty')}
      />
      {creating ? (
        <ProductDialog
          accountIndex={accountIndex}
          onClose={(created) => {
            setCreating(false);
            if (created) void navigate(productPath(created.id));
          }}
        />
      ) : null}
    </div>
  );
}
