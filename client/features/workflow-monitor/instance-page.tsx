import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { fromPromise } from 'xstate';
import {
  actOnWorkflowInstance,
  completeUserTask,
  getWorkflowInstance,
  type WorkflowInstance,
  type WorkflowStep,
} from '#client/api/workflows-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import {
  workflowInstanceActionsMachine,
  mayCancel,
  mayRetry,
  type ActionRefusal,
  type InstanceActionKind,
  type InstanceActionState,
} from '#machines/workflow-instance-actions.machine.ts';
import { Button } from '#client/ui/button.tsx';
import { ConfirmDialogView } from '#client/ui/confirm-dialog.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BackLink } from '#client/ui/record-page.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { InstanceDiagram } from './instance-diagram.tsx';
import { InstanceStatusBadge } from './instance-status.tsx';
import { executedPath, instanceError } from './instance-path.ts';
import { entityLink, monitorPath } from './monitor-filters.ts';

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';
const RUN_PERMISSION = 'process-management.workflows.run';
/** A variable's JSON longer than this is folded, its start shown. */
const LONG_VALUE = 120;

/** The names the BPMN gives its elements (`id` -> `name`), for the history and the buttons. */
function elementNames(definition: string | undefined): Map<string, string> {
  const names = new Map<string, string>();
  if (!definition || typeof DOMParser === 'undefined') return names;
  const doc = new DOMParser().parseFromString(definition, 'application/xml');
  for (const el of Array.from(doc.querySelectorAll('[id][name]'))) {
    names.set(el.getAttribute('id')!, el.getAttribute('name')!);
  }
  return names;
}

const queryKey = (accountIndex: number, code: string) =>
  ['workflow-monitor', accountIndex, 'instance', code] as const;

/**
 * One workflow instance (spec route /management/workflow-monitor/{workFlowCode}/{versionNumber}/
 * {instanceCode}): its version's diagram with the path it took, its status, entity, timer, its
 * variables and its history of steps; cancel, retry and "complete task" behind the confirm dialog
 * for a user who may run workflows (workflowInstanceActionsMachine).
 */
export default function WorkflowInstancePage() {
  const { t } = useTranslation('workflow_monitor');
  const { instanceCode = '', workflowCode = '', versionNumber = '' } = useParams();
  usePageTitle(t('instance.title', { code: instanceCode }));
  const { accountIndex, can } = useAccountAccess();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKey(accountIndex, instanceCode),
    queryFn: ({ signal }) => getWorkflowInstance(accountIndex, instanceCode, signal),
    retry: false,
  });
  const state = loadStateOf(query);
  const back = (
    <BackLink to={monitorPath(accountIndex, workflowCode, versionNumber, '')}>
      {t('instance.back')}
    </BackLink>
  );
  if (state.kind === 'loading')
    return <Spinner label={t('instance.title', { code: instanceCode })} />;
  if (state.kind === 'failed') {
    return (
      <div className="flex flex-col gap-4">
        {back}
        <LoadProblem
          error={state.error}
          title={t('instance.title', { code: instanceCode })}
          notFound={t('instance.not_found')}
          failed={t('instance.failed')}
          onRetry={() => void query.refetch()}
        />
      </div>
    );
  }
  return (
    <InstanceView
      instance={state.value}
      accountIndex={accountIndex}
      canRun={can(RUN_PERMISSION)}
      back={back}
      onAnswer={(answer) =>
        // The actions answer without the BPMN: the one loaded stays.
        queryClient.setQueryData<WorkflowInstance>(queryKey(accountIndex, instanceCode), (old) => ({
          ...answer,
          definition: answer.definition ?? old?.definition,
        }))
      }
      onReload={() => void query.refetch()}
    />
  );
}

function InstanceView({
  instance,
  accountIndex,
  canRun,
  back,
  onAnswer,
  onReload,
}: {
  instance: WorkflowInstance;
  accountIndex: number;
  canRun: boolean;
  back: ReactNode;
  onAnswer: (answer: WorkflowInstance) => void;
  onReload: () => void;
}) {
  const { t } = useTranslation('workflow_monitor');
  const path = useMemo(
    () => executedPath(instance.history, instance.status, instance.error),
    [instance.history, instance.status, instance.error],
  );
  const names = useMemo(() => elementNames(instance.definition), [instance.definition]);
  const nameOf = (key: string) => names.get(key) ?? key;
  const error = instanceError(instance.error);
  const entity = entityLink(accountIndex, instance.entityCode);

  const actions = useInstanceActions({
    instance,
    waitingTasks: path.waitingTasks,
    accountIndex,
    onAnswer,
    onReload,
    nameOf,
  });

  const monitorOf = (number: string) =>
    monitorPath(accountIndex, instance.workflow.code, number, '');

  return (
    <div className="flex flex-col gap-6">
      {back}
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold text-slate-900">
          {t('instance.title', { code: instance.code })}
        </h1>
        <InstanceStatusBadge status={instance.status} testId="instance-status" />
      </div>
      {actions.outcome}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          {instance.definition ? (
            <InstanceDiagram
              definition={instance.definition}
              path={path}
              errorMessage={error?.message ?? null}
            />
          ) : null}
        </div>
        <section aria-labelledby="instance-details" className="flex flex-col gap-3">
          <h2 id="instance-details" className="text-lg font-semibold text-slate-900">
            {t('instance.details')}
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-medium text-slate-700">{t('instance.fields.status')}</dt>
            <dd>
              <InstanceStatusBadge status={instance.status} />
            </dd>
            <dt className="font-medium text-slate-700">{t('instance.fields.workflow')}</dt>
            <dd>
              <Link to={monitorOf('')} className={linkClass}>
                {instance.workflow.name}
              </Link>
            </dd>
            <dt className="font-medium text-slate-700">{t('instance.fields.version')}</dt>
            <dd>
              <Link
                to={monitorOf(String(instance.workflowVersion.versionNumber))}
                className={linkClass}
              >
                {t('version_number', { number: instance.workflowVersion.versionNumber })}
              </Link>
            </dd>
            <dt className="font-medium text-slate-700">{t('instance.fields.entity')}</dt>
            <dd data-testid="instance-entity">
              {entity ? (
                <Link to={entity.to} className={linkClass}>
                  {instance.entityCode}
                </Link>
              ) : (
                (instance.entityCode ?? t('instance.none'))
              )}
            </dd>
            <dt className="font-medium text-slate-700">{t('instance.fields.timer_due')}</dt>
            <dd>
              {instance.timerDueAt ? formatDateTime(instance.timerDueAt) : t('instance.none')}
            </dd>
            <dt className="font-medium text-slate-700">{t('instance.fields.created')}</dt>
            <dd>{formatDateTime(instance.createdAt)}</dd>
            <dt className="font-medium text-slate-700">{t('instance.fields.updated')}</dt>
            <dd>{formatDateTime(instance.updatedAt)}</dd>
            {error ? (
              <>
                <dt className="font-medium text-slate-700">{t('instance.fields.failed_at')}</dt>
                <dd data-testid="instance-failed-at">
                  {error.taskKey ? nameOf(error.taskKey) : t('instance.none')}
                </dd>
                <dt className="font-medium text-slate-700">{t('instance.fields.error')}</dt>
                <dd data-testid="instance-error" className="text-red-800">
                  {error.message}
                </dd>
              </>
            ) : null}
          </dl>
          {canRun && actions.buttons ? (
            <div className="flex flex-col gap-2">
              <h2 className="text-lg font-semibold text-slate-900">
                {t('instance.actions.title')}
              </h2>
              <div className="flex flex-wrap gap-2" data-testid="instance-actions">
                {actions.buttons}
              </div>
            </div>
          ) : null}
        </section>
      </div>
      <Variables variables={instance.variables} />
      <History history={instance.history} nameOf={nameOf} />
      {actions.dialog}
    </div>
  );
}

/** Cancel, retry and complete-task through workflowInstanceActionsMachine and the confirm dialog. */
function useInstanceActions({
  instance,
  waitingTasks,
  accountIndex,
  onAnswer,
  onReload,
  nameOf,
}: {
  instance: WorkflowInstance;
  waitingTasks: string[];
  accountIndex: number;
  onAnswer: (answer: WorkflowInstance) => void;
  onReload: () => void;
  nameOf: (key: string) => string;
}) {
  const { t } = useTranslation('workflow_monitor');
  const latest = useRef({ instance, onAnswer, onReload });
  useEffect(() => {
    latest.current = { instance, onAnswer, onReload };
  });
  const [done, setDone] = useState<{ action: InstanceActionKind; status: string } | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const actor = useActorRef(
    workflowInstanceActionsMachine.provide({
      actors: {
        act: fromPromise<
          InstanceActionState,
          { action: InstanceActionKind; taskKey: string | null }
        >(async ({ input, signal }) => {
          const code = latest.current.instance.code;
          const answer =
            input.action === 'complete'
              ? await completeUserTask(accountIndex, code, input.taskKey!, {}, signal)
              : await actOnWorkflowInstance(accountIndex, code, input.action, signal);
          latest.current.onAnswer(answer);
          setDone({ action: input.action, status: answer.status });
          return {
            status: answer.status,
            waitingTasks: executedPath(answer.history, answer.status, answer.error).waitingTasks,
          };
        }),
      },
      actions: {
        notifyRefused: () => {
          setDone(null);
          latest.current.onReload();
        },
      },
    }),
    { input: { status: instance.status, waitingTasks } },
  );
  const waitingKey = waitingTasks.join(',');
  useEffect(() => {
    actor.send({
      type: 'instance.loaded',
      status: instance.status,
      waitingTasks: waitingKey ? waitingKey.split(',') : [],
    });
  }, [actor, instance.status, waitingKey]);
  const snapshot = useSelector(actor, (s) => s);
  const { action, taskKey, refusal } = snapshot.context;
  const acting = snapshot.matches('acting');
  const settled = snapshot.matches('refused') || snapshot.matches('failed');
  const open = snapshot.matches('confirming') || acting || settled;

  // After an action, focus goes to what it did: the button pressed is gone or disabled now.
  const shownDone = snapshot.matches('done') ? done : null;
  useEffect(() => {
    if (!shownDone) return;
    const frame = requestAnimationFrame(() => outcomeRef.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [shownDone]);

  const texts = (() => {
    const vars = { code: instance.code, name: taskKey ? nameOf(taskKey) : '' };
    switch (action) {
      case 'cancel':
        return {
          title: t('instance.confirm.cancel_title'),
          message: t('instance.confirm.cancel_message', vars),
          confirmLabel: t('instance.confirm.cancel_confirm'),
          tone: 'danger' as const,
        };
      case 'retry':
        return {
          title: t('instance.confirm.retry_title'),
          message: t('instance.confirm.retry_message', vars),
          confirmLabel: t('instance.confirm.retry_confirm'),
          tone: 'primary' as const,
        };
      case 'complete':
        return {
          title: t('instance.confirm.complete_title', vars),
          message: t('instance.confirm.complete_message', vars),
          confirmLabel: t('instance.confirm.complete_confirm'),
          tone: 'primary' as const,
        };
      default:
        return null;
    }
  })();

  const reason = (r: ActionRefusal | null) => {
    if (!r) return null;
    if (r.status === 403) return t('instance.refused_forbidden');
    if (r.status === 409 || r.status === 404) return t('instance.refused');
    return t('instance.action_failed');
  };

  const dismiss = () => {
    if (!acting) actor.send({ type: 'action.dismiss' });
  };
  const dialog = (
    <ConfirmDialogView
      open={open && texts !== null}
      busy={acting}
      title={texts?.title ?? ''}
      message={texts?.message ?? ''}
      error={settled ? reason(refusal) : null}
      confirmLabel={texts?.confirmLabel}
      tone={texts?.tone}
      canCancel={!acting}
      canConfirm={snapshot.can({ type: 'action.confirm' })}
      onCancel={dismiss}
      onClose={dismiss}
      onConfirm={() => actor.send({ type: 'action.confirm' })}
    />
  );

  const statusName = (status: string) =>
    ['active', 'failed', 'completed', 'cancelled'].includes(status)
      ? t(`statuses.${status as 'active'}`)
      : status;
  const outcome = shownDone ? (
    <p
      ref={outcomeRef}
      tabIndex={-1}
      role="status"
      data-testid="instance-outcome"
      className="rounded-md border border-green-300 bg-green-50 px-4 py-2 text-green-900"
    >
      {t(`instance.outcome.${shownDone.action}`, { status: statusName(shownDone.status) })}
    </p>
  ) : null;

  const status = instance.status;
  const buttons = [
    ...waitingTasks.map((key) => (
      <Button
        key={`complete-${key}`}
        onClick={() => actor.send({ type: 'action.complete', taskKey: key })}
      >
        {t('instance.actions.complete_task', { name: nameOf(key) })}
      </Button>
    )),
    mayRetry(status) ? (
      <Button key="retry" onClick={() => actor.send({ type: 'action.retry' })}>
        {t('instance.actions.retry')}
      </Button>
    ) : null,
    mayCancel(status) ? (
      <Button key="cancel" variant="danger" onClick={() => actor.send({ type: 'action.cancel' })}>
        {t('instance.actions.cancel')}
      </Button>
    ) : null,
  ].filter(Boolean);

  return { dialog, outcome, buttons: buttons.length ? buttons : null };
}

/** A titled part of the page under the diagram, or its "none" text when it has no rows. */
function Section({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  /** Shown instead of the content when set. */
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {empty === null ? children : <p className="text-slate-700">{empty}</p>}
    </section>
  );
}

function Variables({ variables }: { variables: Record<string, unknown> }) {
  const { t } = useTranslation('workflow_monitor');
  const rows = Object.entries(variables).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Section
      id="instance-variables"
      title={t('instance.variables.title')}
      empty={rows.length === 0 ? t('instance.variables.empty') : null}
    >
      <DataTable
        caption={t('instance.variables.title')}
        rows={rows}
        rowKey={([name]) => name}
        bodyTestId="instance-variables"
        columns={[
          {
            id: 'name',
            header: t('instance.variables.name'),
            rowHeader: true,
            className: 'w-48 align-top font-mono',
            cell: ([name]) => name,
          },
          {
            id: 'value',
            header: t('instance.variables.value'),
            cell: ([, value]) => <JsonValue value={value} />,
          },
        ]}
      />
    </Section>
  );
}

/** A value as JSON; a long one folded to its start, "Show all" unfolds it. */
function JsonValue({ value }: { value: unknown }) {
  const { t } = useTranslation('workflow_monitor');
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  if (text.length <= LONG_VALUE) {
    return <code className="font-mono break-all whitespace-pre-wrap">{text}</code>;
  }
  return (
    <details>
      <summary className="cursor-pointer">
        <code className="font-mono">{JSON.stringify(value).slice(0, LONG_VALUE - 20)}…</code>{' '}
        <span className="text-blue-800 underline">{t('instance.variables.show_all')}</span>
      </summary>
      <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs">
        {text}
      </pre>
    </details>
  );
}

function History({
  history,
  nameOf,
}: {
  history: readonly WorkflowStep[];
  nameOf: (key: string) => string;
}) {
  const { t } = useTranslation('workflow_monitor');
  const eventName = (event: string) =>
    ['start', 'end', 'wait', 'timer', 'take'].includes(event)
      ? t(`instance.events.${event as 'start'}`)
      : event;
  return (
    <Section
      id="instance-history"
      title={t('instance.history.title')}
      empty={history.length === 0 ? t('instance.history.empty') : null}
    >
      <DataTable
        caption={t('instance.history.title')}
        rows={history.map((step, index) => ({ ...step, index }))}
        rowKey={(step) => step.index}
        bodyTestId="instance-history"
        dense
        columns={[
          {
            id: 'at',
            header: t('instance.history.at'),
            className: 'w-48 whitespace-nowrap',
            cell: (step) => formatDateTime(step.at),
          },
          {
            id: 'element',
            header: t('instance.history.element'),
            rowHeader: true,
            cell: (step) => nameOf(step.key),
          },
          {
            id: 'event',
            header: t('instance.history.event'),
            cell: (step) => eventName(step.event),
          },
        ]}
      />
    </Section>
  );
}
