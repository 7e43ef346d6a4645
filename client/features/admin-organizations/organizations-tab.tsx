import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  listOrganizations,
  organizationsParams,
  type Organization,
} from '#client/api/organizations-client.ts';
import { ListActions } from '#client/entities/list-view/list-views.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { InfiniteTable, type LoadTablePage, type TableColumn } from '#client/ui/infinite-table.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { keepInAddress, orderOf, pageQuery } from './table-order.ts';
import type { OrganizationAbilities } from './use-organization-context.ts';

// Table column -> the service's order field (it sorts by id and name).
const ORDER_FIELDS: Record<string, string> = { name: 'name', created: 'id' };
const SORT_COLUMNS = Object.keys(ORDER_FIELDS);

/**
 * The organisations, searchable through the name column's filter (the service matches name,
 * e-mail and city) and sortable by name or creation; each name opens the organisation.
 */
export function OrganizationsTab({ abilities }: { abilities: OrganizationAbilities }) {
  const { t } = useTranslation('admin_organizations');
  const { accountIndex, canCreate } = abilities;
  // The name column's filter (the service's search) and the sort live in the address.
  const filters = useUrlFilters(['search'], { sortColumns: SORT_COLUMNS });
  const { search } = filters.values;
  const { set, keepSort, sort } = filters;

  const loadPage = useCallback<LoadTablePage<Organization>>(
    async (input, signal) => {
      keepInAddress(input, 'name', { search, set: (v) => set('search', v), keepSort });
      const page = await listOrganizations(
        accountIndex,
        pageQuery(input, ORDER_FIELDS, 'name'),
        signal,
      );
      return { rows: page.items, nextPageToken: page.nextPageToken };
    },
    [accountIndex, search, set, keepSort],
  );

  const columns: TableColumn<Organization>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      sortable: true,
      filterable: true,
      width: '2fr',
      cell: (org) => (
        <Link
          to={`/u/${accountIndex}/admin/organizations/${org.id}`}
          className="font-medium text-blue-800 underline-offset-2 hover:underline"
        >
          {org.name}
        </Link>
      ),
    },
    {
      id: 'address',
      header: t('columns.address'),
      width: '2fr',
      cell: (org) =>
        [`${org.street} ${org.houseNumber}`.trim(), `${org.zipCode} ${org.city}`.trim()]
          .filter(Boolean)
          .join(', '),
    },
    { id: 'country', header: t('columns.country'), width: '1fr', cell: (org) => org.country },
    { id: 'email', header: t('columns.email'), width: '1.5fr', cell: (org) => org.email },
    {
      id: 'created',
      header: t('columns.created'),
      sortable: true,
      width: '9rem',
      cell: (org) => formatDateTime(org.createdAt),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      {canCreate ? (
        <div>
          <Link
            to={`/u/${accountIndex}/admin/organizations/new`}
            className="bg-brand inline-flex items-center rounded-md px-4 py-2 text-sm font-semibold text-slate-950 hover:brightness-95"
          >
            {t('actions.new')}
          </Link>
        </div>
      ) : null}
      <ListActions
        accountIndex={accountIndex}
        list="organizations"
        query={filters.viewQuery}
        onApply={filters.apply}
        exportQuery={organizationsParams({ search, order: orderOf(sort, ORDER_FIELDS) })}
      />
      <InfiniteTable
        // An applied view starts the table anew with its search and sort.
        key={filters.generation}
        initialQuery={{ filters: search ? { name: search } : {}, sort }}
        label={t('table.organizations')}
        columns={columns}
        loadPage={loadPage}
        rowKey={(org) => String(org.id)}
        emptyMessage={t('table.empty_organizations')}
      />
    </div>
  );
}
