import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { accountsParams, listAccounts, type Account } from '#client/api/accounts-client.ts';
import { displayNameOf } from '#client/api/accounts-client.ts';
import { formatDate } from '#client/ui/form/dates.ts';
import type { TableColumn } from '#client/ui/infinite-table.tsx';
import { ListPage } from '#client/entities/list-view/list-page.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { useCustomerAbilities } from './use-customer-abilities.ts';

// Table column -> the service's order field.
const ORDER_FIELDS: Record<string, string> = {
  name: 'lastName',
  number: 'accountNumber',
  type: 'type',
  city: 'city',
  email: 'email',
  created: 'createdAt',
};

/**
 * The tenant's customers: a search over name, e-mail, number and place, a filter by kind and by
 * city, sortable columns; each name opens the customer.
 */
export default function CustomersPage() {
  const { t } = useTranslation('customers');
  usePageTitle(t('title'));
  const { accountIndex, canCreate } = useCustomerAbilities();
  const filters = useUrlFilters(['search', 'type', 'city'], {
    typed: ['search', 'city'],
    sortColumns: Object.keys(ORDER_FIELDS),
  });
  const { search, city } = filters.values;
  const type: Account['type'] | '' =
    filters.values.type === 'person' || filters.values.type === 'org' ? filters.values.type : '';

  const columns: TableColumn<Account>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      sortable: true,
      width: '2fr',
      cell: (account) => (
        <Link
          to={`/u/${accountIndex}/customers/${account.code}`}
          className="font-medium text-blue-800 underline-offset-2 hover:underline"
        >
          {displayNameOf(account)}
        </Link>
      ),
    },
    {
      id: 'number',
      header: t('columns.number'),
      sortable: true,
      width: '8rem',
      cell: (a) => a.accountNumber,
    },
    {
      id: 'type',
      header: t('columns.type'),
      sortable: true,
      width: '8rem',
      cell: (a) => t(`types.${a.type}`),
    },
    {
      id: 'address',
      header: t('columns.address'),
      width: '2fr',
      cell: (a) => `${a.street} ${a.houseNumber}, ${a.zipCode}`.trim(),
    },
    { id: 'city', header: t('columns.city'), sortable: true, width: '1fr', cell: (a) => a.city },
    {
      id: 'email',
      header: t('columns.email'),
      sortable: true,
      width: '2fr',
      cell: (a) => a.email,
    },
    {
      id: 'created',
      header: t('columns.created'),
      sortable: true,
      width: '7rem',
      cell: (a) => formatDate(a.createdAt),
    },
  ];

  return (
    <ListPage
      title={t('title')}
      newLink={
        canCreate ? { to: `/u/${accountIndex}/customers/new`, label: t('actions.new') } : null
      }
      search={{
        label: t('toolbar.search'),
        placeholder: t('toolbar.search_placeholder'),
      }}
      toolbar={
        <>
          <ToolbarSelect
            label={t('toolbar.type')}
            value={type}
            allLabel={t('toolbar.all')}
            options={(['person', 'org'] as const).map((v) => ({
              value: v,
              label: t(`types.${v}`),
            }))}
            onChange={(v) => filters.set('type', v)}
          />
          <ToolbarInput
            label={t('toolbar.city')}
            type="text"
            value={filters.drafts.city}
            className="w-48"
            onChange={(v) => filters.setDraft('city', v)}
          />
        </>
      }
      service={{ orderFields: ORDER_FIELDS, params: accountsParams, fetchPage: listAccounts }}
      url={filters}
      totalLabel={(count, total) => t('list.total', { count, total })}
      accountIndex={accountIndex}
      list="customers"
      filters={{ search, type, city }}
      label={t('table.label')}
      columns={columns}
      minWidth="64rem"
      emptyMessage={t('table.empty')}
    />
  );
}
