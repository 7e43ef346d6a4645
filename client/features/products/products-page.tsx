import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { listProducts, type Product } from '#client/api/products-client.ts';
import { Button } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import {
  InfiniteTable,
  totalCountOf,
  type LoadTablePage,
  type TableColumn,
} from '#client/ui/infinite-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { StatusBadge } from './page-parts.tsx';
import { ProductDialog } from './product-dialogs.tsx';
import { useProductAbilities } from './use-product-abilities.ts';
import { categoryKey } from './labels.ts';

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

  const loadPage = useCallback<LoadTablePage<Product>>(
    async (input, signal) => {
      const page = await listProducts(
        accountIndex,
        {
          page: input.pageToken ? Number(input.pageToken) : 1,
          search: input.query.filters.name ?? '',
        },
        signal,
      );
      return {
        rows: page.items,
        nextPageToken: page.nextPageToken,
        ...totalCountOf(page.totalItems),
      };
    },
    [accountIndex],
  );

  const columns: TableColumn<Product>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      filterable: true,
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
    { id: 'slug', header: t('columns.slug'), width: '1.5fr', cell: (p) => p.slug },
    {
      id: 'category',
      header: t('columns.category'),
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
      width: '9rem',
      cell: (p) => formatDateTime(p.updatedAt),
    },
  ];

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('list.title')}</h1>
      {canCreateProduct ? (
        <div>
          <Button onClick={() => setCreating(true)}>{t('actions.new_product')}</Button>
        </div>
      ) : null}
      <InfiniteTable
        totalLabel={(count, total) => t('list.total', { count, total })}
        label={t('list.table')}
        columns={columns}
        loadPage={loadPage}
        rowKey={(product) => String(product.id)}
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
