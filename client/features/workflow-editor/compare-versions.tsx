import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountKey } from '#client/api/query-keys.ts';
import { getWorkflow, getWorkflowVersion } from '#client/api/workflows-client.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { Button } from '#client/ui/button.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import type { LoadedWorkflow } from '#machines/workflow-editor.machine.ts';
import type { BpmnInstance } from './bpmn-canvas.tsx';
import {
  changedKeys,
  compareVersions,
  implementationText,
  type VersionChange,
} from './bpmn-conventions.ts';
import { kindKey } from './properties-panel.tsx';
import { versionDetails } from './version-details.ts';

const MARKER = 'wf-changed';

/**
 * "Compare with the previous version": what changed from the version before the one shown, in
 * words (tasks added, removed, renamed, of another type, doing other work: service type and
 * parameters, decision table, timer; flows added, removed, re-pointed, with another condition),
 * from the tasks and sequences the service derives from both saved versions and their BPMN, and
 * what is there now marked on the canvas (removed elements are only in the list: they are not
 * drawn).
 */
export function CompareVersions({
  accountIndex,
  loaded,
  instance,
}: {
  accountIndex: number;
  loaded: LoadedWorkflow;
  instance: BpmnInstance | null;
}) {
  const { t } = useTranslation('workflows');
  const [open, setOpen] = useState(false);
  const previous = loaded.versionNumber - 1;
  const query = useQuery({
    queryKey: [
      ...accountKey(accountIndex),
      'workflows',
      'compare',
      loaded.code,
      loaded.versionNumber,
    ],
    enabled: open && previous >= 1,
    queryFn: async ({ signal }) => {
      const workflow = await getWorkflow(accountIndex, loaded.code, signal);
      const codeOf = (n: number) => workflow.versions?.find((v) => v.versionNumber === n)?.code;
      const [before, now] = await Promise.all([
        getWorkflowVersion(accountIndex, codeOf(previous) ?? '', signal),
        getWorkflowVersion(accountIndex, codeOf(loaded.versionNumber) ?? '', signal),
      ]);
      const [detailsBefore, detailsNow] = await Promise.all([
        versionDetails(before.definition),
        versionDetails(now.definition),
      ]);
      return compareVersions(
        { ...before, details: detailsBefore },
        { ...now, details: detailsNow },
      );
    },
  });
  const changes = open ? query.data : undefined;

  // The marks follow the list: shown with it, gone with it (and with another version).
  useEffect(() => {
    if (!instance || !changes) return;
    const canvas = instance.get<{
      addMarker(id: string, marker: string): void;
      removeMarker(id: string, marker: string): void;
    }>('canvas');
    const registry = instance.get<{ get(id: string): unknown }>('elementRegistry');
    const keys = changedKeys(changes).filter((key) => registry.get(key));
    for (const key of keys) canvas.addMarker(key, MARKER);
    return () => {
      for (const key of keys) if (registry.get(key)) canvas.removeMarker(key, MARKER);
    };
  }, [instance, changes]);

  if (previous < 1) {
    return (
      <section aria-labelledby="wf-compare-title" className="flex flex-col gap-2">
        <h2 id="wf-compare-title" className="text-lg font-semibold text-slate-900">
          {t('compare.title')}
        </h2>
        <p className="text-sm text-slate-700">{t('compare.first_version')}</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="wf-compare-title" className="flex flex-col gap-2">
      <h2 id="wf-compare-title" className="text-lg font-semibold text-slate-900">
        {t('compare.title')}
      </h2>
      <Button variant="secondary" className="self-start" onClick={() => setOpen(!open)}>
        {open ? t('compare.hide') : t('compare.show', { previous })}
      </Button>
      {open && query.isPending ? <Spinner label={t('compare.loading')} /> : null}
      {open && query.isError ? (
        <RetryAlert message={t('compare.failed')} onRetry={() => void query.refetch()} />
      ) : null}
      {changes ? (
        changes.length === 0 ? (
          <p className="text-sm text-slate-800">{t('compare.none', { previous })}</p>
        ) : (
          <>
            <p className="text-sm text-slate-800">
              {t('compare.intro', { previous, version: loaded.versionNumber })}
            </p>
            <ul className="list-disc pl-5 text-sm text-slate-900" data-testid="wf-changes">
              {changes.map((change, i) => (
                <li key={i}>{changeText(t, change)}</li>
              ))}
            </ul>
          </>
        )
      ) : null}
    </section>
  );
}

type T = ReturnType<typeof useTranslation<'workflows'>>['t'];

function changeText(t: T, change: VersionChange): string {
  const kind = (type: string) =>
    t(`kinds.${kindKey(`bpmn:${type.charAt(0).toUpperCase()}${type.slice(1)}`)}` as 'kinds.task');
  switch (change.kind) {
    case 'task_added':
    case 'task_removed':
      return t(`compare.${change.kind}`, {
        name: change.name ?? change.key,
        kind: kind(change.type),
      });
    case 'task_renamed':
      return t('compare.task_renamed', {
        from: change.from ?? change.key,
        to: change.to ?? change.key,
      });
    case 'task_type_changed':
      return t('compare.task_type_changed', {
        name: change.name ?? change.key,
        from: kind(change.from),
        to: kind(change.to),
      });
    case 'implementation_changed':
      return t('compare.implementation_changed', {
        name: change.name ?? change.key,
        from: implementationText(change.from) || t('compare.nothing'),
        to: implementationText(change.to) || t('compare.nothing'),
      });
    case 'decision_table_changed':
    case 'timer_changed':
      return t(`compare.${change.kind}`, {
        name: change.name ?? change.key,
        from: change.from || t('compare.nothing'),
        to: change.to || t('compare.nothing'),
      });
    case 'sequence_added':
    case 'sequence_removed':
      return t(`compare.${change.kind}`, { source: change.source, target: change.target });
    case 'sequence_repointed':
      return t('compare.sequence_repointed', {
        fromSource: change.fromSource,
        fromTarget: change.fromTarget,
        source: change.source,
        target: change.target,
      });
    case 'condition_changed':
      return t('compare.condition_changed', {
        source: change.source,
        target: change.target,
        from: change.from || t('compare.nothing'),
        to: change.to || t('compare.nothing'),
      });
  }
}
