import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import {
  getWorkflow,
  listWorkflowInstances,
  listWorkflows,
  type WorkflowInstanceStatus,
  type WorkflowInstanceSummary,
} from '#client/api/workflows-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { ListFrame, servicePages } from '#client/entities/list-view/list-page.tsx';
import { formatDateTime, useDateDisplay } from '#client/ui/form/dates.ts';
import { DateInput } from '#client/ui/form/fields.tsx';
import { InfiniteTable, type TableColumn } from '#client/ui/infinite-table.tsx';
import { LoadProblem, RetryAlert } from '#client/ui/load-problem.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { serviceOrder } from '#client/ui/table-sort.ts';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { InstanceStatusBadge } from './instance-status.tsx';
import {
  MONITOR_KEYS,
  MONITOR_ORDER_FIELDS,
  STATUS_CHOICES,
  UNSELECTED,
  createdBounds,
  entityLink,
  instancePath,
  isIsoDay,
  monitorFilters,
  monitorPage,
  monitorPath,
  toggledStatus,
} from './monitor-filters.ts';

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

/**
 * The workflow monitor (spec routes /management/workflow-monitor and
 * /management/workflow-monitor/{workFlowCode}/{versionNumber}): the tenant's workflow instances,
 * newest first, filtered by status (several, or the spec's 'Unselected'), workflow and version
 * (the route's path), entity code and the days they were created on (the tenant's zone). Every
 * filter lives in the address, so a link and a reload show the same list.
 */
export default function WorkflowMonitorPage() {
  const { t } = useTranslation('workflow_monitor');
  usePageTitle(t('list.title'));
  const { accountIndex } = useAccountAccess();
  const { workflowCode = '', versionNumber = '' } = useParams();
  const navigate = useNavigate();
  const { timeZone } = useDateDisplay();
  const url = useUrlFilters(MONITOR_KEYS, {
    typed: ['entity'],
    sortColumns: Object.keys(MONITOR_ORDER_FIELDS),
  });
  const filters = monitorFilters(url.values);

  const workflowsQuery = useQuery({
    queryKey: ['workflow-monitor', accountIndex, 'workflows'],
    queryFn: ({ signal }) =>
      listWorkflows(accountIndex, { order: { field: 'name', direction: 'ASC' } }, signal),
  });
  const workflowQuery = useQuery({
    queryKey: ['workflow-monitor', accountIndex, 'workflow', workflowCode],
    queryFn: ({ signal }) => getWorkflow(accountIndex, workflowCode, signal),
    enabled: workflowCode !== '',
    retry: false,
  });
  const workflowState = loadStateOf(workflowQuery);
  const workflow = workflowCode ? workflowQuery.data : undefined;
  const version = versionNumber
    ? workflow?.versions?.find((v) => String(v.versionNumber) === versionNumber)
    : undefined;

  // The list waits for the workflow and version the path names: their ids are the filters.
  const ready =
    !workflowCode || (workflow !== undefined && (!versionNumber || version !== undefined));
  const { createdFrom, createdTo } = createdBounds(
    filters.reversed ? '' : filters.from,
    filters.reversed ? '' : filters.to,
    timeZone,
  );
  const unselected = filters.statuses.includes(UNSELECTED);
  const statuses = filters.statuses.filter((s): s is WorkflowInstanceStatus => s !== UNSELECTED);
  const query = {
    workflowId: workflow?.id,
    workflowVersionId: version?.id,
    entityCode: filters.entity || undefined,
    statuses,
    createdFrom,
    createdTo,
  };
  const tableKey = JSON.stringify({ ...query, unselected, generation: url.generation });

  const goTo = (code: string, number: string) =>
    void navigate(monitorPath(accountIndex, code, number, url.query));

  const columns = useMemo<TableColumn<WorkflowInstanceSummary>[]>(
    () => [
      {
        id: 'code',
        header: t('columns.code'),
        width: '1.4fr',
        cell: (i) => (
          <Link to={instancePath(accountIndex, i)} className={linkClass}>
            {i.code}
          </Link>
        ),
      },
      {
        id: 'workflow',
        header: t('columns.workflow'),
        width: '1.4fr',
        cell: (i) =>
          t('version_of', { name: i.workflow.name, number: i.workflowVersion.versionNumber }),
      },
      {
        id: 'entity',
        header: t('columns.entity'),
        width: '1.4fr',
        cell: (i) => {
          const link = entityLink(accountIndex, i.entityCode);
          return link ? (
            <Link
              to={link.to}
              className={linkClass}
              aria-label={t(`entity_kinds.${link.kind}`, { code: i.entityCode })}
            >
              {i.entityCode}
            </Link>
          ) : (
            (i.entityCode ?? '')
          );
        },
      },
      {
        id: 'status',
        header: t('columns.status'),
        width: '8rem',
        cell: (i) => <InstanceStatusBadge status={i.status} />,
      },
      {
        id: 'created',
        header: t('columns.created'),
        sortable: true,
        width: '11rem',
        cell: (i) => formatDateTime(i.createdAt),
      },
      {
        id: 'updated',
        header: t('columns.updated'),
        sortable: true,
        width: '11rem',
        cell: (i) => formatDateTime(i.updatedAt),
      },
    ],
    [t, accountIndex],
  );

  const workflows = workflowsQuery.data?.items ?? [];
  const filtered =
    filters.statuses.length > 0 ||
    filters.entity !== '' ||
    filters.from !== '' ||
    filters.to !== '' ||
    workflowCode !== '';

  let list;
  if (workflowCode && workflowState.kind === 'failed') {
    list = (
      <LoadProblem
        error={workflowState.error}
        notFound={t('errors.workflow_not_found', { code: workflowCode })}
        failed={t('errors.workflows_failed')}
        onRetry={() => void workflowQuery.refetch()}
      />
    );
  } else if (versionNumber && workflow && !version) {
    list = (
      <p role="alert" className="text-red-800">
        {t('errors.version_not_found', { code: workflowCode, number: versionNumber })}
      </p>
    );
  } else if (!ready) {
    list = <Spinner label={t('list.title')} />;
  } else {
    list = (
      <InfiniteTable<WorkflowInstanceSummary>
        key={tableKey}
        label={t('list.table')}
        columns={columns}
        rowKey={(i) => String(i.id)}
        initialQuery={{ filters: {}, sort: url.sort }}
        onSort={url.keepSort}
        loadPage={servicePages((_page, sort, signal, pageToken) =>
          // The spec's 'Unselected' status: nothing to ask, an empty list after its delay.
          monitorPage(unselected, signal, () =>
            listWorkflowInstances(
              accountIndex,
              {
                ...query,
                pageToken,
                order: serviceOrder(sort, MONITOR_ORDER_FIELDS) as never,
              },
              signal,
            ),
          ),
        )}
        totalLabel={(count, total) => t('list.total', { count, total })}
        minWidth="56rem"
        emptyMessage={filtered ? t('list.empty_filtered') : t('list.empty')}
      />
    );
  }

  return (
    <ListFrame
      title={t('list.title')}
      toolbar={
        <>
          <ToolbarSelect
            label={t('toolbar.workflow')}
            value={workflowCode}
            allLabel={t('toolbar.all_workflows')}
            options={workflows.map((w) => ({ value: w.code, label: w.name }))}
            onChange={(code) => goTo(code, '')}
          />
          <ToolbarSelect
            label={t('toolbar.version')}
            value={versionNumber}
            allLabel={t('toolbar.all_versions')}
            disabled={!workflowCode}
            options={(workflow?.versions ?? []).map((v) => ({
              value: String(v.versionNumber),
              label: t('version_number', { number: v.versionNumber }),
            }))}
            onChange={(number) => goTo(workflowCode, number)}
          />
          <ToolbarInput
            label={t('toolbar.entity')}
            value={url.drafts.entity}
            placeholder={t('toolbar.entity_placeholder')}
            onChange={(value) => url.setDraft('entity', value)}
          />
          <DayFilter
            label={t('toolbar.created_from')}
            value={filters.from}
            onChange={(day) => url.set('from', day)}
          />
          <DayFilter
            label={t('toolbar.created_to')}
            value={filters.to}
            onChange={(day) => url.set('to', day)}
          />
        </>
      }
    >
      {workflowsQuery.isError ? (
        <RetryAlert
          message={t('errors.workflows_failed')}
          onRetry={() => void workflowsQuery.refetch()}
        />
      ) : null}
      {filters.reversed ? (
        <p role="alert" className="text-sm text-red-800">
          {t('toolbar.range_reversed')}
        </p>
      ) : null}
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-sm font-medium text-slate-800">{t('toolbar.status')}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1 py-1">
          {STATUS_CHOICES.map((status) => (
            <label key={status} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="size-4"
                checked={filters.statuses.includes(status)}
                onChange={(event) =>
                  url.set('status', toggledStatus(filters.statuses, status, event.target.checked))
                }
              />
              {status === UNSELECTED ? t('toolbar.unselected') : t(`statuses.${status}`)}
            </label>
          ))}
        </div>
      </fieldset>
      {list}
    </ListFrame>
  );
}

/**
 * A day typed as DD.MM.YYYY: it reaches the address once it is a date (or cleared); until then
 * the box says that it is not one.
 */
function DayFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (day: string) => void;
}) {
  const [typed, setTyped] = useTypedDay(value);
  const invalid = typed !== '' && !isIsoDay(typed);
  return (
    <div className="w-48">
      <DateInput
        label={label}
        value={typed}
        errors={invalid ? ['messages.invalid_date'] : undefined}
        onChange={(next) => {
          setTyped(next);
          if (next === '' || isIsoDay(next)) onChange(next);
        }}
      />
    </div>
  );
}

/** What the date box holds: the address's day, or text typed since that is no day yet. */
function useTypedDay(value: string): [string, (next: string) => void] {
  const [typed, setTyped] = useState(value);
  // A new day in the address (the back button, a link) replaces what the box held.
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setTyped(value);
  }
  return [typed, setTyped];
}
