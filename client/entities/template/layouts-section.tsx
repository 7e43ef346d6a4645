import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { useToast } from '#client/ui/toast.tsx';
import type { TemplateIssue } from '#machines/template-editor.machine.ts';
import { SourceField } from './editor-parts.tsx';

/** What the section reads of a layout of either service. */
export interface ListedLayout {
  code: string;
  name: string;
  updatedAt: string;
  updatedByName: string | null;
}

/** The layout calls of a template client (`templateCalls(…).layout` and `.layouts`). */
export interface LayoutCalls<L extends ListedLayout> {
  list: (signal: AbortSignal) => Promise<L[]>;
  get: (code: string, signal: AbortSignal) => Promise<L>;
  create: (fields: Record<string, string>) => Promise<L>;
  save: (code: string, fields: Record<string, string>) => Promise<L>;
  remove: (code: string) => Promise<void>;
}

/**
 * The layouts a workspace's templates sit in (issue 19; the spec names their calls, not their
 * screen): below the template list, a table of the layouts (the standard one first, as the
 * service sorts them: oldest first) with who changed each last; a layout opens in a dialog with
 * its name and sources, saved with each refused source's problems at its field (line and
 * column); a new layout starts from the standard one's sources. The standard layout stays (it is
 * every template's fallback); a layout that templates use is not deleted: the service says how
 * many use it and the user reads it here.
 */
export function LayoutsSection<L extends ListedLayout>({
  queryKey,
  calls,
  sources,
  isStandard,
  intro,
  hint,
}: {
  queryKey: QueryKey;
  calls: LayoutCalls<L>;
  /** The layout's sources: its field in the API and its label. */
  sources: readonly { field: string; label: string; rows: number }[];
  isStandard: (layout: L) => boolean;
  intro: string;
  /** Below the sources in the dialog: how they are written. */
  hint?: string;
}) {
  const { t } = useTranslation('templates');
  const { may } = useAccountAccess();
  const confirm = useConfirm();
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState<{ code: string | null } | null>(null);
  const layouts = useQuery({ queryKey, queryFn: ({ signal }) => calls.list(signal) });
  const canUpdate = may('document-management', 'templates', 'update');
  const canDelete = may('document-management', 'templates', 'delete');
  const refresh = () => void queryClient.invalidateQueries({ queryKey });

  const remove = async (layout: L) => {
    const done = await confirm({
      title: t('layouts.delete_title'),
      message: t('layouts.delete_message', { name: layout.name }),
      confirmLabel: t('delete.confirm'),
      tone: 'danger',
      action: () =>
        calls.remove(layout.code).catch((error: unknown) => {
          // The confirm dialog shows a thrown string as it is: the service's reason, translated.
          throw layoutRefusal(t, error);
        }),
    });
    if (!done) return;
    toast({ tone: 'success', message: t('layouts.deleted', { name: layout.name }) });
    refresh();
  };

  return (
    <section aria-labelledby={`${id}-layouts`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-layouts`} className="text-lg font-semibold text-slate-900">
          {t('layouts.title')}
        </h2>
        {may('document-management', 'templates', 'create') ? (
          <Button variant="secondary" onClick={() => setOpen({ code: null })}>
            {t('layouts.create')}
          </Button>
        ) : null}
      </div>
      <p className="text-sm text-slate-700">{intro}</p>
      {layouts.isPending ? <Spinner label={t('layouts.loading')} /> : null}
      {layouts.isError ? (
        <RetryAlert message={t('layouts.load_failed')} onRetry={() => void layouts.refetch()} />
      ) : null}
      {layouts.data ? (
        <DataTable
          caption={t('layouts.title')}
          rows={layouts.data}
          rowKey={(layout) => layout.code}
          columns={[
            {
              id: 'name',
              header: t('columns.name'),
              cell: (layout) => (
                <>
                  {layout.name}
                  {isStandard(layout) ? (
                    <span className="ml-2 text-xs text-slate-700">({t('layouts.standard')})</span>
                  ) : null}
                </>
              ),
            },
            {
              id: 'changed',
              header: t('columns.changed'),
              cell: (layout) =>
                t('list.changed_by', {
                  name: layout.updatedByName ?? t('list.system'),
                  at: formatDateTime(layout.updatedAt),
                }),
            },
            {
              id: 'actions',
              header: t('layouts.actions'),
              cell: (layout) => (
                <div className="flex gap-2">
                  <Button variant="ghost" onClick={() => setOpen({ code: layout.code })}>
                    {canUpdate
                      ? t('layouts.edit', { name: layout.name })
                      : t('layouts.show', { name: layout.name })}
                  </Button>
                  {canDelete && !isStandard(layout) ? (
                    <Button variant="ghost" onClick={() => void remove(layout)}>
                      {t('layouts.delete', { name: layout.name })}
                    </Button>
                  ) : null}
                </div>
              ),
            },
          ]}
        />
      ) : null}
      {open ? (
        <LayoutDialog
          code={open.code}
          standard={layouts.data?.find(isStandard)?.code ?? null}
          calls={calls}
          sources={sources}
          hint={hint}
          readOnly={open.code !== null && !canUpdate}
          onClose={(saved) => {
            setOpen(null);
            if (!saved) return;
            toast({ tone: 'success', message: t('layouts.saved', { name: saved.name }) });
            refresh();
          }}
        />
      ) : null}
    </section>
  );
}

/** A refused layout call in the reader's words. */
function layoutRefusal(t: TFunction<'templates'>, error: unknown) {
  if (!(error instanceof ApiError)) return t('errors.failed');
  if (error.status === 403) return t('errors.forbidden');
  if (error.code === 'layout_in_use') {
    const used = (error.body as { templates?: number } | null)?.templates;
    return t('layouts.in_use', { count: used ?? 1 });
  }
  if (error.code === 'system_layout' || error.code === 'default_layout') return t('layouts.stays');
  // The field says why: the name is taken, or which source is refused where.
  if (error.code === 'name_taken') return t('layouts.name_refused');
  if (error.status === 400) return t('layouts.refused');
  return t('errors.failed');
}

/** One layout's name and sources: read first (a new one copies the standard's), then saved. */
function LayoutDialog<L extends ListedLayout>({
  code,
  standard,
  calls,
  sources,
  hint,
  readOnly,
  onClose,
}: {
  code: string | null;
  standard: string | null;
  calls: LayoutCalls<L>;
  sources: readonly { field: string; label: string; rows: number }[];
  hint: string | undefined;
  readOnly: boolean;
  onClose: (saved: L | null) => void;
}) {
  const { t } = useTranslation('templates');
  const id = useId();
  const from = code ?? standard;
  const loaded = useQuery({
    queryKey: ['layout-dialog', from],
    queryFn: ({ signal }) => calls.get(from!, signal),
    enabled: from !== null,
    staleTime: 0,
    gcTime: 0,
  });
  const [edited, setEdited] = useState<Record<string, string>>({});
  const [issues, setIssues] = useState<TemplateIssue[]>([]);
  const [nameError, setNameError] = useState<string[]>();
  const original = loaded.data as (L & Record<string, unknown>) | undefined;
  const valueOf = (field: string) =>
    edited[field] ?? (field === 'name' && code === null ? '' : String(original?.[field] ?? ''));

  const submit = () => {
    const name = valueOf('name').trim();
    setNameError(
      name ? undefined : [message('messages.fieldRequired', { field: t('fields.name') })],
    );
    if (!name || (from !== null && !original)) return false;
    const fields = Object.fromEntries([
      ['name', name],
      ...sources.map(({ field }) => [field, valueOf(field)]),
    ]);
    setIssues([]);
    return (code === null ? calls.create(fields) : calls.save(code, fields)).then(
      onClose,
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 400) {
          setIssues((error.body as { issues?: TemplateIssue[] } | null)?.issues ?? []);
        }
        if (error instanceof ApiError && error.code === 'name_taken')
          setNameError([t('layouts.name_taken')]);
        throw error;
      },
    );
  };

  const title = code === null ? t('layouts.create') : t('layouts.dialog_title');
  const body = loaded.isError ? (
    <Alert tone="danger">{t('layouts.load_failed')}</Alert>
  ) : from !== null && !original ? (
    <Spinner label={t('layouts.loading')} />
  ) : (
    <>
      <TextInput
        label={t('fields.name')}
        value={valueOf('name')}
        onChange={(value) => setEdited({ ...edited, name: value })}
        required
        maxLength={120}
        disabled={readOnly}
        errors={nameError}
      />
      {sources.map(({ field, label, rows }) => (
        <SourceField
          key={field}
          id={`${id}-${field}`}
          label={label}
          value={valueOf(field)}
          rows={rows}
          readOnly={readOnly}
          issues={issues.filter((issue) => issue.path === field)}
          onChange={(value) => setEdited({ ...edited, [field]: value })}
        />
      ))}
      {hint ? <p className="text-sm text-slate-700">{hint}</p> : null}
    </>
  );
  return readOnly ? (
    <SubmitDialog
      title={title}
      submitLabel={t('layouts.close')}
      submit={() => Promise.resolve(onClose(null))}
      failureMessage={() => t('errors.failed')}
      onCancel={() => onClose(null)}
      wide
    >
      {body}
    </SubmitDialog>
  ) : (
    <SubmitDialog
      title={title}
      submitLabel={t('actions.save')}
      busyLabel={t('actions.saving')}
      cancelLabel={t('create.cancel')}
      submit={submit}
      failureMessage={(error) => layoutRefusal(t, error)}
      onCancel={() => onClose(null)}
      wide
    >
      {body}
    </SubmitDialog>
  );
}
