import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import {
  batchActionMachine,
  countRows,
  type BatchChunk,
  type BatchRow,
  type BatchRowResult,
} from '#machines/batch-action.machine.ts';
import type { BatchOutcome } from './batch-summary.ts';

// Rows per call: the dialog shows progress between the calls.
const CHUNK_SIZE = 5;

export interface BatchDialogOptions {
  /** One call of the service for a chunk of rows; answers per id. */
  runChunk: (chunk: BatchChunk) => Promise<BatchRowResult[]>;
  /** The rows changed (all, or some before a failure): e.g. reload the list. */
  onChanged: () => void;
  /** Every row was done: e.g. a toast with the summary. */
  onAllDone: (outcome: BatchOutcome) => void;
  /** The translation key of a service error code. */
  errorKey: (code: string) => string;
}

export function outcomeOf(rows: readonly BatchRow[]): BatchOutcome {
  const failures = rows
    .filter((row) => row.state === 'failed')
    .map((row) => ({ key: row.label, error: row.error ?? 'generic' }));
  return { done: countRows(rows, 'done'), failed: failures.length, failures };
}

/**
 * A batch action over users driven by `batchActionMachine`: confirm, per-row progress, and after
 * a partial failure the failed rows with their reasons and a retry of only those.
 */
export function useBatchDialog(options: BatchDialogOptions) {
  const { t } = useTranslation('admin_users');
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const actor = useActorRef(
    batchActionMachine.provide({
      actors: {
        runChunk: fromPromise<BatchRowResult[], BatchChunk>(({ input }) =>
          latest.current.runChunk(input),
        ),
      },
      actions: { notifyDone: () => latest.current.onChanged() },
    }),
    { input: { chunkSize: CHUNK_SIZE } },
  );
  const state = useSelector(actor, (s) => s);
  // Who the confirmation names when it is about one user ("Disable Lea Fischer (lea@…)?").
  const names = useRef(new Map<number, string>());
  const { action, rows, error } = state.context;

  // Everything done: the dialog closes and the summary goes to a toast, as for one row.
  const allDone = state.matches('done');
  useEffect(() => {
    if (!allDone) return;
    latest.current.onAllDone(outcomeOf(actor.getSnapshot().context.rows));
    actor.send({ type: 'batch.close' });
  }, [allDone, actor]);

  const running = state.matches('running');
  const outcome = outcomeOf(rows);
  const summary = [
    t('result.summary', { done: outcome.done, failed: outcome.failed }),
    ...outcome.failures.map((f) =>
      t('result.failure', { who: f.key, reason: t(options.errorKey(f.error) as 'errors.generic') }),
    ),
  ].join(' · ');
  const key = (action ?? 'enable') as 'enable' | 'disable' | 'delete';

  const dialog =
    state.matches('idle') || allDone ? null : (
      <FormDialog
        title={t(`confirm.${key}_title`)}
        busy={running}
        onDismiss={() =>
          actor.send({ type: state.matches('confirming') ? 'batch.cancel' : 'batch.close' })
        }
      >
        <div className="flex flex-col gap-3">
          <p className="text-slate-700">
            {rows.length === 1
              ? t(`confirm.${key}_one_message`, { name: names.current.get(rows[0]!.id) })
              : t(`confirm.${key}_message`, { count: rows.length })}
          </p>
          {running ? (
            <Spinner
              label={t('batch.progress', {
                done: countRows(rows, 'done') + countRows(rows, 'failed'),
                total: rows.length,
              })}
            />
          ) : null}
          {state.matches('partial') ? <Alert tone="warning">{summary}</Alert> : null}
          {state.matches('failed') ? (
            <Alert tone="danger">{t(options.errorKey(error ?? '') as 'errors.generic')}</Alert>
          ) : null}
          {!state.matches('confirming') ? (
            <ul aria-label={t('batch.rows')} className="flex flex-col gap-1 text-sm">
              {rows.map((row) => (
                <li key={row.id} data-testid={`batch-row-${row.id}`} className="flex gap-2">
                  <span className="font-medium text-slate-900">{row.label}</span>
                  <span className="text-slate-700">{t(`batch.state.${row.state}`)}</span>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="mt-2 flex justify-end gap-3">
            {state.matches('confirming') ? (
              <>
                <Button variant="secondary" onClick={() => actor.send({ type: 'batch.cancel' })}>
                  {t('batch.cancel')}
                </Button>
                <Button
                  variant={action === 'enable' ? 'primary' : 'danger'}
                  onClick={() => actor.send({ type: 'batch.confirm' })}
                >
                  {t(`actions.${key}`)}
                </Button>
              </>
            ) : (
              <>
                <Button
                  variant="secondary"
                  disabled={running}
                  onClick={() => actor.send({ type: 'batch.close' })}
                >
                  {t('batch.close')}
                </Button>
                <Button
                  disabled={!state.can({ type: 'batch.retry' })}
                  onClick={() => actor.send({ type: 'batch.retry' })}
                >
                  {t('batch.retry')}
                </Button>
              </>
            )}
          </div>
        </div>
      </FormDialog>
    );

  return {
    start: (
      batch: 'enable' | 'disable' | 'delete',
      users: readonly { id: number; email: string; firstName?: string; lastName?: string }[],
    ) => {
      names.current = new Map(
        users.map((user) => {
          const name = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
          return [user.id, name ? `${name} (${user.email})` : user.email];
        }),
      );
      actor.send({
        type: 'batch.start',
        action: batch,
        rows: users.map((user) => ({ id: user.id, label: user.email })),
      });
    },
    dialog,
  };
}
