import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  listDecisionTables,
  type DecisionTableSummary,
} from '#client/api/decision-tables-client.ts';
import { Button } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import type { TableColumn } from '#client/ui/infinite-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { serviceOrder } from '#client/ui/table-sort.ts';
import { ToolbarInput } from '#client/ui/toolbar-field.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { ListFrame, ServiceListTable } from '#client/entities/list-view/list-page.tsx';
import { usePersonNames } from '#client/entities/person/person-name.ts';
import { CreateTableDialog } from './create-table-dialog.tsx';
import { useDecisionTableAbilities } from './use-decision-table-abilities.ts';

// Table column -> the service's order field (the service sorts by name or by id, newest first).
const ORDER_FIELDS: Record<string, 'name' | 'id'> = { name: 'name' };

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

/**
 * The tenant's decision tables, newest first: a search over code and name and the sort by name,
 * both kept in the address; a row opens the table's latest version. "New decision table" (the
 * create right) opens the new table once the service created it.
 */
export default function DecisionTablesPage() {
  const { t } = useTranslation('decision_tables');
  usePageTitle(t('list.title'));
  const navigate = useNavigate();
  const { accountIndex, canCreate } = useDecisionTableAbilities();
  const [creating, setCreating] = useState(false);
  const nameOf = usePersonNames();
  const url = useUrlFilters(['search'], {
    typed: ['search'],
    sortColumns: Object.keys(ORDER_FIELDS),
  });
  const search = url.values.search.trim();
  const tablePath = (code: string) =>
    `/u/${accountIndex}/management/decision-tables/${encodeURIComponent(code)}`;

  const columns = useMemo<TableColumn<DecisionTableSummary>[]>(
    () => [
      {
        id: 'name',
        header: t('columns.name'),
        sortable: true,
        width: '2fr',
        cell: (table) => (
          <Link
            to={`/u/${accountIndex}/management/decision-tables/${encodeURIComponent(table.code)}`}
            className={linkClass}
          >
            {table.name}
          </Link>
        ),
      },
      { id: 'code', header: t('columns.code'), width: '1.5fr', cell: (table) => table.code },
      {
        id: 'updated',
        header: t('columns.updated'),
        width: '12rem',
        cell: (table) => formatDateTime(table.updatedAt),
      },
      {
        id: 'updated_by',
        header: t('columns.updated_by'),
        width: '1fr',
        cell: (table) => nameOf(table.updatedBy).label,
      },
    ],
    [t, accountIndex, nameOf],
  );

  return (
    <ListFrame
      title={t('list.title')}
      action={
        canCreate ? <Button onClick={() => setCreating(true)}>{t('actions.new')}</Button> : null
      }
      toolbar={
        <ToolbarInput
          label={t('list.search')}
          placeholder={t('list.search_placeholder')}
          value={url.drafts.search}
          onChange={(value) => url.setDraft('search', value)}
          className="w-72"
        />
      }
    >
      <ServiceListTable
        url={url}
        restartKey={search}
        fetchPage={(query, pageToken, signal) =>
          listDecisionTables(
            accountIndex,
            {
              pageToken,
              search,
              order: serviceOrder(query.sort, ORDER_FIELDS) as {
                field: 'name' | 'id';
                direction: 'ASC' | 'DESC';
              } | null,
            },
            signal,
          )
        }
        totalLabel={(count, total) => t('list.total', { count, total })}
        label={t('list.table')}
        columns={columns}
        emptyMessage={search ? t('list.empty_filtered') : t('list.empty')}
        minWidth="40rem"
      />
      {creating ? (
        <CreateTableDialog
          accountIndex={accountIndex}
          onClose={(created) => {
            setCreating(false);
            if (created) void navigate(tablePath(created.code));
          }}
        />
      ) : null}
    </ListFrame>
  );
}
