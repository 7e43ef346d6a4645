import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  listWorkflows,
  type Workflow,
  type WorkflowOrderField,
} from '#client/api/workflows-client.ts';
import { ListFrame, ServiceListTable } from '#client/entities/list-view/list-page.tsx';
import { buttonClass } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import type { TableColumn } from '#client/ui/infinite-table.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { serviceOrder } from '#client/ui/table-sort.ts';
import { ToolbarInput } from '#client/ui/toolbar-field.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { useWorkflowAbilities } from './use-workflow-abilities.ts';

// Table column -> the service's order field (workflow-routes.ts WORKFLOW_LIST).
const ORDER_FIELDS = { name: 'name', created: 'createdAt', updated: 'updatedAt' } as const;
const LIST_KEYS = ['search', 'sort'] as const;
type WorkflowsOrder = { field: WorkflowOrderField; direction: 'ASC' | 'DESC' } | null;

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

/**
 * The tenant's workflows (spec route /management/workflow-editor), newest first: a search over
 * name and code, one sorted column, both kept in the address; each name opens the editor on the
 * workflow's latest version, and "New workflow" (for who may create) an empty one.
 */
export default function WorkflowsPage() {
  const { t } = useTranslation('workflows');
  usePageTitle(t('list.title'));
  const { accountIndex, canCreate } = useWorkflowAbilities();
  const url = useUrlFilters(LIST_KEYS, {
    typed: ['search'],
    sortColumns: Object.keys(ORDER_FIELDS),
  });
  const search = url.values.search.trim();

  const columns = useMemo<TableColumn<Workflow>[]>(
    () => [
      {
        id: 'name',
        header: t('columns.name'),
        sortable: true,
        width: '2fr',
        cell: (workflow) => (
          <Link
            to={`/u/${accountIndex}/management/workflow-editor/${encodeURIComponent(workflow.code)}`}
            className={linkClass}
          >
            {workflow.name}
          </Link>
        ),
      },
      { id: 'code', header: t('columns.code'), width: '1.5fr', cell: (w) => w.code },
      {
        id: 'created',
        header: t('columns.created'),
        sortable: true,
        width: '12rem',
        cell: (w) => formatDateTime(w.createdAt),
      },
      {
        id: 'updated',
        header: t('columns.updated'),
        sortable: true,
        width: '12rem',
        cell: (w) => formatDateTime(w.updatedAt),
      },
    ],
    [t, accountIndex],
  );

  return (
    <ListFrame
      title={t('list.title')}
      action={
        canCreate ? (
          <Link
            to={`/u/${accountIndex}/management/workflow-editor/new`}
            className={buttonClass('primary')}
          >
            {t('list.new')}
          </Link>
        ) : null
      }
      toolbar={
        <ToolbarInput
          label={t('list.search')}
          placeholder={t('list.search_placeholder')}
          value={url.drafts.search}
          className="w-72"
          onChange={(value) => url.setDraft('search', value)}
        />
      }
    >
      <ServiceListTable
        url={url}
        restartKey={search}
        fetchPage={(query, pageToken, signal) =>
          listWorkflows(
            accountIndex,
            {
              pageToken,
              search,
              order: serviceOrder(query.sort, ORDER_FIELDS) as WorkflowsOrder,
            },
            signal,
          )
        }
        totalLabel={(count, total) => t('list.total', { count, total })}
        label={t('list.table')}
        columns={columns}
        emptyMessage={search ? t('list.empty_filtered') : t('list.empty')}
      />
    </ListFrame>
  );
}
