import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { apiErrorKey } from '#client/api/error-text.ts';
import {
  createListView,
  deleteListView,
  updateListView,
  type ListView,
} from '#client/api/list-views-client.ts';
import { listViewQueries } from '#client/api/list-views-queries.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { CheckboxInput, TextInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { ExportLink, type ExportList } from './export-link.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';

/** Two queries are the same view when they hold the same parameters, in whatever order. */
export function sameQuery(a: string, b: string): boolean {
  const norm = (q: string) => {
    const params = new URLSearchParams(q);
    params.sort();
    return params.toString();
  };
  return norm(a) === norm(b);
}

/**
 * The bar above an exportable list: its saved views on the left, the CSV export on the right.
 * `query` is the list's address query (what a view keeps); `exportQuery` the service query the
 * list sends for its first page (what the export repeats).
 */
export function ListActions({
  accountIndex,
  list,
  query,
  onApply,
  exportQuery,
}: {
  accountIndex: number;
  list: ExportList;
  query: string;
  onApply: (query: string) => void;
  exportQuery: string;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <ListViews accountIndex={accountIndex} list={list} query={query} onApply={onApply} />
      <ExportLink accountIndex={accountIndex} list={list} query={exportQuery} />
    </div>
  );
}

/**
 * Saved views of a list: named filters kept on the server (tenantservice list-views), the user's
 * own and those colleagues shared with the workspace. Choosing one applies its query; the user's
 * own view can be updated with the current filters, renamed with sharing switched, or deleted.
 * The list keeps its filters in its address (`query`), so a view is nothing but that query.
 */
export function ListViews({
  accountIndex,
  list,
  query,
  onApply,
}: {
  accountIndex: number;
  list: string;
  query: string;
  onApply: (query: string) => void;
}) {
  const { t } = useTranslation(['list_views', 'errors']);
  const confirm = useConfirm();
  const toast = useToast();
  const selectId = useId();
  const [selected, setSelected] = useState('');
  const [dialog, setDialog] = useState<null | { mode: 'create' | 'edit' }>(null);
  const queryClient = useQueryClient();
  const viewsQuery = listViewQueries.ofList(accountIndex, list);
  const viewsResult = useQuery(viewsQuery);
  const state = loadStateOf(viewsResult);
  const retry = () => void viewsResult.refetch();
  // After a change the list is fetched again while the current one stays shown.
  const reload = () => void queryClient.invalidateQueries({ queryKey: viewsQuery.queryKey });
  const views = state.kind === 'ready' ? state.value : null;

  const own = views?.filter((v) => v.isOwn) ?? [];
  const shared = views?.filter((v) => !v.isOwn) ?? [];
  // The chosen view, or the first view whose query the list shows right now.
  const current =
    views?.find((v) => v.code === selected) ?? views?.find((v) => sameQuery(v.query, query));
  const changed = current ? !sameQuery(current.query, query) : false;

  function choose(code: string) {
    setSelected(code);
    const view = views?.find((v) => v.code === code);
    if (view) onApply(view.query);
  }

  async function saveCurrentInto(view: ListView) {
    try {
      const saved = await updateListView(accountIndex, view.code, {
        name: view.name,
        query,
        shared: view.shared,
        version: view.version,
      });
      toast({ message: t('updated', { name: saved.name }), tone: 'success' });
    } catch (err) {
      toast({ message: t('errors.save', { message: t(apiErrorKey(err)) }), tone: 'danger' });
    }
    reload();
  }

  function remove(view: ListView) {
    void confirm({
      title: t('delete.title'),
      message: t('delete.message', { name: view.name }),
      confirmLabel: t('delete.confirm'),
      tone: 'danger',
      action: () => deleteListView(accountIndex, view.code),
    }).then(async (done) => {
      if (!done) return;
      setSelected('');
      toast({ message: t('deleted', { name: view.name }), tone: 'success' });
      reload();
    });
  }

  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
          {t('label')}
        </label>
        <select
          id={selectId}
          value={current?.code ?? ''}
          disabled={!views || views.length === 0}
          onChange={(event) => choose(event.target.value)}
          className="rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900"
        >
          <option value="">
            {views === null ? t('loading') : views.length ? t('none_chosen') : t('none_saved')}
          </option>
          {own.length ? (
            <optgroup label={t('group_own')}>
              {own.map((v) => (
                <option key={v.code} value={v.code}>
                  {v.shared ? t('shared_name', { name: v.name }) : v.name}
                </option>
              ))}
            </optgroup>
          ) : null}
          {shared.length ? (
            <optgroup label={t('group_shared')}>
              {shared.map((v) => (
                <option key={v.code} value={v.code}>
                  {t('by_owner', { name: v.name, owner: v.owner.name })}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </div>
      {current && changed ? (
        <Button variant="ghost" onClick={() => onApply(current.query)}>
          {t('reset', { name: current.name })}
        </Button>
      ) : null}
      {current?.isOwn && changed ? (
        <Button variant="secondary" onClick={() => void saveCurrentInto(current)}>
          {t('update', { name: current.name })}
        </Button>
      ) : null}
      <Button variant="secondary" onClick={() => setDialog({ mode: 'create' })}>
        {t('save_as')}
      </Button>
      {current?.isOwn ? (
        <>
          <Button variant="ghost" onClick={() => setDialog({ mode: 'edit' })}>
            {t('edit', { name: current.name })}
          </Button>
          <Button variant="ghost" onClick={() => remove(current)}>
            {t('delete.button', { name: current.name })}
          </Button>
        </>
      ) : null}
      {state.kind === 'failed' ? (
        <LoadProblem error={state.error} failed={t('errors.load')} onRetry={retry} />
      ) : null}
      {dialog ? (
        <ViewDialog
          accountIndex={accountIndex}
          list={list}
          query={query}
          editing={dialog.mode === 'edit' ? current : undefined}
          onDone={async (view) => {
            setDialog(null);
            if (!view) return;
            setSelected(view.code);
            toast({ message: t('saved', { name: view.name }), tone: 'success' });
            reload();
          }}
        />
      ) : null}
    </div>
  );
}

/** Save the current filters as a new view, or rename an own view and switch its sharing. */
function ViewDialog({
  accountIndex,
  list,
  query,
  editing,
  onDone,
}: {
  accountIndex: number;
  list: string;
  query: string;
  editing: ListView | undefined;
  onDone: (view: ListView | null) => void;
}) {
  const { t } = useTranslation(['list_views', 'errors']);
  const [name, setName] = useState(editing?.name ?? '');
  const [shared, setShared] = useState(editing?.shared ?? false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError(t('errors.name_required'));
    setBusy(true);
    setError(null);
    try {
      const view = editing
        ? await updateListView(accountIndex, editing.code, {
            name: name.trim(),
            query: editing.query,
            shared,
            version: editing.version,
          })
        : await createListView(accountIndex, { list, name: name.trim(), query, shared });
      onDone(view);
    } catch (err) {
      const code = err instanceof ApiError ? err.code : '';
      // Known refusals get their own sentence; anything else names the server's message.
      setError(
        code === 'name_taken'
          ? t('errors.name_taken')
          : code === 'version_conflict'
            ? t('errors.conflict')
            : t('errors.save', { message: t(apiErrorKey(err)) }),
      );
      setBusy(false);
    }
  }

  return (
    <FormDialog
      title={editing ? t('dialog.edit_title') : t('dialog.create_title')}
      busy={busy}
      onDismiss={() => onDone(null)}
    >
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <TextInput
          label={t('dialog.name')}
          value={name}
          maxLength={80}
          required
          onChange={setName}
        />
        <CheckboxInput
          label={t('dialog.shared')}
          hint={t('dialog.shared_hint')}
          checked={shared}
          onChange={setShared}
        />
        {error ? <Alert tone="danger">{error}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => onDone(null)}>
            {t('dialog.cancel')}
          </Button>
          <Button type="submit" disabled={busy}>
            {t('dialog.save')}
          </Button>
        </div>
      </form>
    </FormDialog>
  );
}
