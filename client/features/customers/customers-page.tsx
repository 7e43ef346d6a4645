import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listAccounts, type Account } from '#client/api/accounts-client.ts';
import { formatDate } from '#client/ui/form/dates.ts';
import { InfiniteTable, type LoadTablePage, type TableColumn } from '#client/ui/infinite-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import type { TableQuery } from '#machines/infinite-table.machine.ts';
import { displayNameOf } from './customer-form.ts';
import { useCustomerAbilities } from './use-customer-abilities.ts';

// Table column -> the service's order field.
const ORDER_FIELDS: Record<string, string> = {
  name: 'lastName',
  number: 'accountNumber',
  city: 'city',
  created: 'createdAt',
};
const SEARCH_DEBOUNCE_MS = 300;

/**
 * The tenant's customers: a search over name, e-mail, number and place, a filter by kind and by
 * city, sortable columns; each name opens the customer.
 */
export default function CustomersPage() {
  const { t } = useTranslation('customers');
  usePageTitle(t('title'));
  const { accountIndex } = useCustomerAbilities();
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [cityText, setCityText] = useState('');
  const [city, setCity] = useState('');
  const [type, setType] = useState<Account['type'] | ''>('');
  // The table owns its sort, but a remount for a new toolbar filter must keep it.
  const [sortKept, setSortKept] = useState<TableQuery['sort']>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(searchText.trim());
      setCity(cityText.trim());
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, cityText]);

  const loadPage = useCallback<LoadTablePage<Account>>(
    async (input, signal) => {
      const sort = input.query.sort;
      setSortKept((kept) => (JSON.stringify(kept) === JSON.stringify(sort) ? kept : sort));
      const field = sort ? ORDER_FIELDS[sort.column] : undefined;
      const page = await listAccounts(
        accountIndex,
        {
          page: input.pageToken ? Number(input.pageToken) : 1,
          search,
          type: type || undefined,
          city: city || undefined,
          order:
            sort && field ? { field, direction: sort.direction === 'asc' ? 'ASC' : 'DESC' } : null,
        },
        signal,
      );
      return { rows: page.items, nextPageToken: page.nextPageToken };
    },
    [accountIndex, search, type, city],
  );

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
    { id: 'type', header: t('columns.type'), width: '8rem', cell: (a) => t(`types.${a.type}`) },
    {
      id: 'address',
      header: t('columns.address'),
      width: '2fr',
      cell: (a) => `${a.street} ${a.houseNumber}, ${a.zipCode}`.trim(),
    },
    { id: 'city', header: t('columns.city'), sortable: true, width: '1fr', cell: (a) => a.city },
    { id: 'email', header: t('columns.email'), width: '2fr', cell: (a) => a.email },
    {
      id: 'created',
      header: t('columns.created'),
      sortable: true,
      width: '7rem',
      cell: (a) => formatDate(a.createdAt.slice(0, 10)),
    },
  ];

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('title')}</h1>
      <div className="flex flex-wrap items-end gap-4">
        <ToolbarInput
          label={t('toolbar.search')}
          value={searchText}
          placeholder={t('toolbar.search_placeholder')}
          className="w-72"
          onChange={setSearchText}
        />
        <ToolbarSelect
          label={t('toolbar.type')}
          value={type}
          allLabel={t('toolbar.all')}
          options={(['person', 'org'] as const).map((v) => ({ value: v, label: t(`types.${v}`) }))}
          onChange={(v) => setType(v as Account['type'] | '')}
        />
        <ToolbarInput
          label={t('toolbar.city')}
          type="text"
          value={cityText}
          className="w-48"
          onChange={setCityText}
        />
      </div>
      <InfiniteTable
        key={JSON.stringify({ search, type, city })}
        initialQuery={{ filters: {}, sort: sortKept }}
        label={t('table.label')}
        columns={columns}
        minWidth="64rem"
        loadPage={loadPage}
        rowKey={(a) => String(a.id)}
        emptyMessage={t('table.empty')}
      />
    </div>
  );
}
