import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { fromPromise } from 'xstate';
import {
  decisionTableEditorMachine,
  type LoadFailure,
  type LoadedDecisionTable,
  type SaveRefusal,
  type SaveRequest,
} from '#machines/decision-table-editor.machine.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  getDecisionTable,
  getDecisionTableVersion,
  listDecisionTableVersions,
  renameDecisionTable,
  saveDecisionTableVersion,
  type DecisionLogic,
} from '#client/api/decision-tables-client.ts';
import { usePersonNames } from '#client/entities/person/person-name.ts';
import { Alert } from '#client/ui/alert.tsx';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BackLink } from '#client/ui/record-page.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useUnsavedChangesGuard } from '#client/ui/use-unsaved-guard.ts';
import { readTypeRefs, tableFromLogic, writeDmn, type EditableTable } from './dmn-table.ts';
import { refusalText } from './refusal-text.ts';
import { TableGrid } from './table-grid.tsx';
import { TryPanel } from './try-panel.tsx';
import { useDecisionTableAbilities } from './use-decision-table-abilities.ts';

const gridOf = (version: { table: DecisionLogic; definition: string }) =>
  tableFromLogic(version.table, readTypeRefs(version.definition));

/** A refusal of a load as the machine keeps it: the spec's "Can't load ..." as a 404. */
const loadFailureOf = (error: unknown): LoadFailure =>
  error instanceof ApiError && error.status === 404
    ? { kind: 'missing', message: error.message }
    : { kind: 'failed' };

const saveRefusalOf = (error: unknown): SaveRefusal =>
  error instanceof ApiError && error.status >= 400 && error.status < 500
    ? {
        kind: 'refused',
        code: error.status === 403 ? 'forbidden' : error.code,
        message: error.message,
      }
    : { kind: 'failed' };

/**
 * One decision table (route `/management/decision-tables/:tableCode/:versionNumber?`): the
 * latest version in the grid editor, or an older one read-only with a link to the latest. A
 * save uploads the grid as the table's next version; the table's name is renamed apart from
 * its versions. Beside it the versions (who saved each, when) and "Try it" on the latest.
 */
export default function DecisionTablePage() {
  const params = useParams();
  const code = params.tableCode ?? '';
  const version = params.versionNumber;
  // A version in the address that is no number opens as such a version, which does not exist.
  const versionNumber = version === undefined ? null : /^\d+$/.test(version) ? Number(version) : -1;
  // Another table or version is another edit: the editor starts anew.
  return <TableEditor key={`${code}/${versionNumber}`} code={code} versionNumber={versionNumber} />;
}

function TableEditor({ code, versionNumber }: { code: string; versionNumber: number | null }) {
  const { t } = useTranslation('decision_tables');
  const { accountIndex, canUpdate } = useDecisionTableAbilities();
  const toast = useToast();
  // Who saved: the user's own name, "system" for the seed, a neutral word for others (no codes).
  const nameOf = usePersonNames();
  const listPath = `/u/${accountIndex}/management/decision-tables`;
  const tablePath = `${listPath}/${encodeURIComponent(code)}`;

  const versions = useQuery({
    queryKey: ['decision-table-versions', accountIndex, code],
    queryFn: ({ signal }) => listDecisionTableVersions(accountIndex, code, signal),
  });
  // The machine's actions are set once: what they call is read through refs.
  const onSaved = useRef<(saved: LoadedDecisionTable) => void>(() => {});
  onSaved.current = (saved) => {
    toast({ message: t('editor.saved', { version: saved.versionNumber }), tone: 'success' });
    void versions.refetch();
  };

  const actor = useActorRef(
    decisionTableEditorMachine.provide({
      actors: {
        loadVersion: fromPromise<LoadedDecisionTable, { versionNumber: number | null }>(
          async ({ input, signal }) => {
            try {
              const latest = await getDecisionTable(accountIndex, code, signal);
              const shown =
                input.versionNumber === null || input.versionNumber === latest.version.versionNumber
                  ? latest.version
                  : await getDecisionTableVersion(accountIndex, code, input.versionNumber, signal);
              return {
                name: latest.name,
                versionNumber: shown.versionNumber,
                latestVersionNumber: latest.version.versionNumber,
                savedBy: shown.createdBy,
                savedAt: shown.createdAt,
                grid: gridOf(shown),
              };
            } catch (error) {
              throw loadFailureOf(error);
            }
          },
        ),
        saveVersion: fromPromise<LoadedDecisionTable, SaveRequest>(async ({ input, signal }) => {
          try {
            // Someone may have saved a newer version since this one was loaded: say so first,
            // unless the user chose to save over it.
            if (!input.force) {
              const now = await getDecisionTable(accountIndex, code, signal);
              if (now.version.versionNumber > input.baseVersionNumber)
                throw { kind: 'conflict', latestVersionNumber: now.version.versionNumber };
            }
            const grid = input.grid as EditableTable;
            const saved = await saveDecisionTableVersion(
              accountIndex,
              code,
              writeDmn(grid),
              signal,
            );
            return {
              name: saved.name,
              versionNumber: saved.version.versionNumber,
              latestVersionNumber: saved.version.versionNumber,
              savedBy: saved.version.createdBy,
              savedAt: saved.version.createdAt,
              // The grid as edited (its keys kept: the focus stays in its cell); the service
              // read the file back to the same table.
              grid,
            };
          } catch (error) {
            if ((error as { kind?: string }).kind === 'conflict') throw error;
            throw saveRefusalOf(error);
          }
        }),
      },
      actions: {
        notifySaved: ({ event }) =>
          onSaved.current((event as unknown as { output: LoadedDecisionTable }).output),
      },
    }),
    { input: { versionNumber } },
  );
  const snapshot = useSelector(actor, (s) => s);
  const { loaded, loadFailure, saveRefusal } = snapshot.context;
  const draft = snapshot.context.draft as EditableTable | null;
  const state = snapshot.value as string;
  const dirty = state === 'dirty' || state === 'saving' || state === 'conflict';
  usePageTitle(loaded?.name ?? t('editor.title'));

  useUnsavedChangesGuard(dirty, {
    title: t('leave.title'),
    message: t('leave.message'),
    confirmLabel: t('leave.confirm'),
  });

  if (state === 'loading' && !loaded)
    return (
      <div className="flex flex-col gap-4">
        <BackLink to={listPath}>{t('editor.back')}</BackLink>
        <Spinner label={t('editor.loading')} />
      </div>
    );
  if (state === 'failed' || !loaded)
    return (
      <div className="flex flex-col gap-4">
        <BackLink to={listPath}>{t('editor.back')}</BackLink>
        <h1 className="text-2xl font-bold text-slate-900">{t('editor.title')}</h1>
        {loadFailure?.kind === 'missing' ? (
          <AlertBar tone="warning" dismissible={false}>
            {/version/i.test(loadFailure.message)
              ? t('errors.version_not_found')
              : t('errors.table_not_found')}
          </AlertBar>
        ) : (
          <RetryAlert
            message={t('errors.load_failed')}
            onRetry={() => actor.send({ type: 'load.retry' })}
          />
        )}
      </div>
    );

  const viewing = state === 'viewing';
  // While saving, and while a conflict waits for the user's choice, the grid holds still: the
  // choice is about exactly these changes.
  const readOnly = viewing || !canUpdate || state === 'saving' || state === 'conflict';
  const grid = viewing ? null : draft;
  const shownGrid = grid ?? (loaded.grid as EditableTable);

  return (
    <div className="flex flex-col gap-6">
      <BackLink to={listPath}>{t('editor.back')}</BackLink>
      <TableTitle
        accountIndex={accountIndex}
        code={code}
        name={loaded.name}
        canRename={canUpdate}
        onRenamed={(name) => actor.send({ type: 'table.renamed', name })}
      />
      <p className="text-sm text-slate-700" data-testid="table-version">
        {t('editor.version_info', {
          version: loaded.versionNumber,
          by: nameOf(loaded.savedBy).label,
          at: formatDateTime(loaded.savedAt),
        })}
        {dirty ? <strong className="ml-2 text-amber-800">{t('editor.unsaved')}</strong> : null}
      </p>
      {viewing ? (
        <Alert tone="info">
          {t('editor.older_version', { version: loaded.versionNumber })}{' '}
          <Link to={tablePath} className="font-semibold text-blue-800 underline">
            {t('editor.open_latest', { version: loaded.latestVersionNumber })}
          </Link>
        </Alert>
      ) : null}
      {!viewing && !canUpdate ? <Alert tone="info">{t('editor.read_only')}</Alert> : null}
      {state === 'conflict' && saveRefusal?.kind === 'conflict' ? (
        <div
          role="alert"
          className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
        >
          <p className="font-semibold">{t('conflict.title')}</p>
          <p>
            {t('conflict.message', {
              version: saveRefusal.latestVersionNumber,
              base: loaded.versionNumber,
            })}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => actor.send({ type: 'conflict.reload' })}>
              {t('conflict.reload')}
            </Button>
            <Button onClick={() => actor.send({ type: 'conflict.saveAnyway' })}>
              {t('conflict.save_anyway')}
            </Button>
            <Button variant="ghost" onClick={() => actor.send({ type: 'conflict.dismiss' })}>
              {t('conflict.keep_editing')}
            </Button>
          </div>
        </div>
      ) : null}
      {saveRefusal && saveRefusal.kind !== 'conflict' ? (
        <AlertBar tone="danger" onDismiss={() => actor.send({ type: 'failure.dismiss' })}>
          {saveRefusal.kind === 'failed'
            ? t('errors.save_failed')
            : saveRefusal.code === 'invalid_dmn'
              ? t('errors.invalid_dmn', { detail: saveRefusal.message })
              : saveRefusal.code === 'forbidden'
                ? t('errors.forbidden')
                : t('errors.invalid_input', { detail: saveRefusal.message })}
        </AlertBar>
      ) : null}
      <TableGrid
        table={shownGrid}
        readOnly={readOnly}
        onChange={(next) => actor.send({ type: 'table.edit', grid: next })}
      />
      {viewing || !canUpdate ? null : (
        <div className="flex flex-wrap gap-2">
          <Button
            disabled={!snapshot.can({ type: 'table.save' })}
            onClick={() => actor.send({ type: 'table.save' })}
          >
            {state === 'saving' ? t('editor.saving') : t('editor.save')}
          </Button>
          <Button
            variant="secondary"
            disabled={!snapshot.can({ type: 'table.discard' })}
            onClick={() => actor.send({ type: 'table.discard' })}
          >
            {t('editor.discard')}
          </Button>
        </div>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        {viewing ? null : (
          <TryPanel
            accountIndex={accountIndex}
            code={code}
            table={loaded.grid as EditableTable}
            unsaved={dirty}
          />
        )}
        <section aria-labelledby="versions-title" className="flex flex-col gap-2">
          <h2 id="versions-title" className="text-lg font-semibold text-slate-900">
            {t('versions.title')}
          </h2>
          {versions.isError ? (
            <RetryAlert
              message={t('versions.load_failed')}
              onRetry={() => void versions.refetch()}
            />
          ) : versions.data ? (
            <table className="text-sm" aria-labelledby="versions-title">
              <thead>
                <tr className="text-left text-slate-700">
                  <th scope="col" className="py-1 pr-4">
                    {t('versions.version')}
                  </th>
                  <th scope="col" className="py-1 pr-4">
                    {t('versions.saved_by')}
                  </th>
                  <th scope="col" className="py-1">
                    {t('versions.saved_at')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...versions.data.items].reverse().map((v) => (
                  <tr key={v.id} className="border-t border-slate-200">
                    <td className="py-1 pr-4">
                      {v.versionNumber === loaded.versionNumber ? (
                        <span aria-current="page" className="font-semibold">
                          {t('versions.version_n', { version: v.versionNumber })}
                        </span>
                      ) : (
                        <Link
                          className="text-blue-800 underline"
                          to={
                            v.versionNumber === loaded.latestVersionNumber
                              ? tablePath
                              : `${tablePath}/${v.versionNumber}`
                          }
                        >
                          {t('versions.version_n', { version: v.versionNumber })}
                        </Link>
                      )}
                    </td>
                    <td className="py-1 pr-4">{nameOf(v.createdBy).label}</td>
                    <td className="py-1">{formatDateTime(v.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <Spinner label={t('versions.loading')} />
          )}
        </section>
      </div>
    </div>
  );
}

/** The table's name as the page's heading, and "Rename" for a user who may change the table. */
function TableTitle({
  accountIndex,
  code,
  name,
  canRename,
  onRenamed,
}: {
  accountIndex: number;
  code: string;
  name: string;
  canRename: boolean;
  onRenamed: (name: string) => void;
}) {
  const { t } = useTranslation('decision_tables');
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string[] | undefined>(undefined);

  // The dialog's flow (open, busy, refused with the name kept) is SubmitDialog's statechart.
  const submit = () => {
    if (!value.trim()) {
      // An encoded ui message: the field translates it (client/ui/form/messages.ts).
      setError([message('messages.fieldRequired', { field: t('rename.label') })]);
      return false;
    }
    setError(undefined);
    return renameDecisionTable(accountIndex, code, value.trim()).then((renamed) => {
      onRenamed(renamed.name);
      toast({ message: t('rename.done'), tone: 'success' });
      setEditing(false);
    });
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 className="text-2xl font-bold text-slate-900">{name}</h1>
      <span className="font-mono text-sm text-slate-700">{code}</span>
      {canRename ? (
        <Button
          variant="secondary"
          onClick={() => {
            setValue(name);
            setError(undefined);
            setEditing(true);
          }}
        >
          {t('rename.open')}
        </Button>
      ) : null}
      {editing ? (
        <SubmitDialog
          title={t('rename.open')}
          submitLabel={t('rename.save')}
          busyLabel={t('rename.saving')}
          cancelLabel={t('rename.cancel')}
          submit={submit}
          failureMessage={(refusal) => refusalText(t, refusal)}
          onCancel={() => setEditing(false)}
        >
          <TextInput
            label={t('rename.label')}
            value={value}
            onChange={setValue}
            required
            maxLength={200}
            errors={error}
          />
        </SubmitDialog>
      ) : null}
    </div>
  );
}
