import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { fromPromise } from 'xstate';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  deleteDocTemplate,
  getDocTemplate,
  listDocLayouts,
  listDocTemplateVersions,
  previewDocTemplate,
  saveDocTemplate,
  type DocPreviewRequest,
  type DocTemplate,
  type DocTemplateChanges,
} from '#client/api/doc-templates-client.ts';
import type { TemplateVariable } from '#client/api/templates-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { snippetOf } from '#client/entities/template/variable-snippet.ts';
import {
  VariablesPanel,
  insertAtCaret,
  useIssueText,
} from '#client/entities/template/variables-panel.tsx';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { DataTable } from '#client/ui/data-table.tsx';
import { BackLink, RecordPage } from '#client/ui/record-page.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useToast } from '#client/ui/toast.tsx';
import { useUnsavedChangesGuard } from '#client/ui/use-unsaved-guard.ts';
import {
  emailTemplateEditorMachine,
  type RenderedPreview,
  type TemplateIssue,
  type TemplateRefusal,
} from '#machines/email-template-editor.machine.ts';
import { documentKindLabel, documentsPath } from './document-kind.ts';

type SavedTemplate = DocTemplate & { bodyTemplate: string };

/** A refused call as the machine keeps it: the source's problems, or the error's code. */
const refusalOf = (error: unknown, on?: 'preview'): TemplateRefusal => {
  if (error instanceof ApiError) {
    const issues = (error.body as { issues?: TemplateIssue[] } | null)?.issues;
    if (error.status === 400 && issues?.length)
      return on ? { kind: 'invalid', on, issues } : { kind: 'invalid', issues };
    return { kind: 'failed', code: error.status === 403 ? 'forbidden' : error.code };
  }
  return { kind: 'failed', code: 'unknown' };
};

/**
 * One document template (route `/editor/documents/:templateCode`, issue 19): its name, layout
 * and body source, the variables its kind may use, a PDF preview of the unsaved source with the
 * kind's sample record, saving (a refusal names each problem with line and column) and the
 * versions. The flow is the e-mail template editor's machine.
 */
export default function DocTemplateEditorPage() {
  const { t } = useTranslation('templates');
  const code = useParams().templateCode ?? '';
  const { accountIndex } = useAccountAccess();
  const template = useQuery({
    queryKey: ['doc-template', accountIndex, code],
    queryFn: ({ signal }) => getDocTemplate(accountIndex, code, signal),
    // The editor starts from one read; a refetch must not replace what is being edited.
    staleTime: Infinity,
  });
  usePageTitle(template.data ? template.data.template.name : t('documents.editor_title'));
  return (
    <RecordPage
      state={loadStateOf(template)}
      back={<BackLink to={documentsPath(accountIndex)}>{t('documents.back')}</BackLink>}
      texts={{
        loading: t('editor.loading'),
        title: t('documents.editor_title'),
        notFound: t('documents.not_found'),
        failed: t('editor.load_failed'),
      }}
      onRetry={() => void template.refetch()}
    >
      {({ template: initial, variables }) => (
        <DocTemplateEditor key={code} initial={initial} variables={variables} />
      )}
    </RecordPage>
  );
}

const changesOf = (template: SavedTemplate): DocTemplateChanges => ({
  name: template.name,
  layoutCode: template.layoutCode,
  bodyTemplate: template.bodyTemplate,
});

function DocTemplateEditor({
  initial,
  variables,
}: {
  initial: SavedTemplate;
  variables: TemplateVariable[];
}) {
  const { t } = useTranslation('templates');
  const { accountIndex, may } = useAccountAccess();
  const canUpdate = may('document-management', 'templates', 'update');
  // The sandbox issues the policy schedule itself: it can be changed, not deleted.
  const canDelete = !initial.isSystem && may('document-management', 'templates', 'delete');
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [deleted, setDeleted] = useState(false);
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const issueText = useIssueText();
  const [saved, setSaved] = useState(initial);
  const [draft, setDraft] = useState<DocTemplateChanges>(() => changesOf(initial));
  const field = useRef<HTMLTextAreaElement | null>(null);

  const layouts = useQuery({
    queryKey: ['doc-layouts', accountIndex],
    queryFn: ({ signal }) => listDocLayouts(accountIndex, signal),
  });
  const versions = useQuery({
    queryKey: ['doc-template-versions', accountIndex, initial.code],
    queryFn: ({ signal }) => listDocTemplateVersions(accountIndex, initial.code, signal),
  });

  // The machine's actors are set once: what they call is read through a ref.
  const onSaved = useRef<(template: SavedTemplate) => void>(() => {});
  onSaved.current = (template) => {
    setSaved(template);
    toast({ message: t('editor.saved', { version: template.version }), tone: 'success' });
    void versions.refetch();
    void queryClient.invalidateQueries({ queryKey: ['doc-templates', accountIndex] });
  };
  const actor = useActorRef(
    emailTemplateEditorMachine.provide({
      actors: {
        renderPreview: fromPromise<RenderedPreview, unknown>(async ({ input, signal }) => {
          try {
            const pdf = await previewDocTemplate(accountIndex, input as DocPreviewRequest, signal);
            return { pdfUrl: URL.createObjectURL(pdf) };
          } catch (error) {
            throw refusalOf(error, 'preview');
          }
        }),
        saveTemplate: fromPromise<{ version: number }, unknown>(async ({ input, signal }) => {
          try {
            const template = await saveDocTemplate(
              accountIndex,
              initial.code,
              input as DocTemplateChanges,
              signal,
            );
            onSaved.current(template);
            return { version: template.version };
          } catch (error) {
            throw refusalOf(error);
          }
        }),
      },
    }),
  );
  const state = useSelector(actor, (s) => s.value as string);
  const { preview, refusal } = useSelector(actor, (s) => s.context);
  const pdfUrl = preview && 'pdfUrl' in preview ? preview.pdfUrl : null;
  // A preview replaced (or closed, or the page left) lets its PDF go.
  useEffect(() => (pdfUrl ? () => URL.revokeObjectURL(pdfUrl) : undefined), [pdfUrl]);
  const busy = state === 'previewing' || state === 'saving';
  const dirty = JSON.stringify(draft) !== JSON.stringify(changesOf(saved));
  useUnsavedChangesGuard(dirty && !deleted, {
    title: t('leave.title'),
    message: t('leave.message'),
    confirmLabel: t('leave.confirm'),
  });

  const edit = (next: DocTemplateChanges) => {
    setDraft(next);
    actor.send({ type: 'edit' });
  };
  const insert = (path: string) =>
    insertAtCaret(field.current, draft.bodyTemplate, snippetOf(path), (next) =>
      edit({ ...draft, bodyTemplate: next }),
    );

  const issues = refusal?.kind === 'invalid' ? refusal.issues : [];
  const bodyIssues = issues.filter((issue) => issue.path === 'bodyTemplate');
  const whereOf = (path: string) =>
    path === 'bodyTemplate' ? t('documents.body') : path === 'layoutId' ? t('fields.layout') : path;

  const remove = async () => {
    const done = await confirm({
      title: t('delete.title'),
      message: t('documents.delete_message', { name: saved.name }),
      confirmLabel: t('delete.confirm'),
      tone: 'danger',
      action: () => deleteDocTemplate(accountIndex, saved.code),
    });
    if (!done) return;
    toast({ tone: 'success', message: t('delete.done', { name: saved.name }) });
    void queryClient.invalidateQueries({ queryKey: ['doc-templates', accountIndex] });
    // Nothing is left to guard; the list opens once the guard has let go (an effect).
    setDeleted(true);
  };
  useEffect(() => {
    if (deleted) void navigate(documentsPath(accountIndex));
  }, [deleted, navigate, accountIndex]);

  const errorId = `${id}-body-errors`;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{saved.name}</h1>
          <p className="text-sm text-slate-700" data-testid="template-version">
            {t('documents.version_info', {
              version: saved.version,
              kind: documentKindLabel(t, saved.kind),
              origin: saved.isSystem ? t('origin.system') : t('origin.own'),
            })}
            {dirty ? <strong className="ml-2 text-amber-800">{t('editor.unsaved')}</strong> : null}
          </p>
        </div>
        {canDelete ? (
          <Button variant="danger" disabled={busy} onClick={() => void remove()}>
            {t('delete.action')}
          </Button>
        ) : null}
      </div>
      {!canUpdate ? <Alert tone="info">{t('editor.read_only')}</Alert> : null}
      {issues.length ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
          <p className="font-semibold">
            {refusal?.kind === 'invalid' && refusal.on === 'preview'
              ? t('editor.preview_refused')
              : t('editor.refused')}
          </p>
          <ul className="ml-5 list-disc">
            {issues.map((issue, index) => (
              <li key={index}>
                {whereOf(issue.path)}: {issueText(issue)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {refusal?.kind === 'failed' ? (
        <Alert tone="danger">
          {refusal.code === 'forbidden' ? t('errors.forbidden') : t('errors.failed')}
        </Alert>
      ) : null}

      <div className="grid gap-4 md:grid-cols-2">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
          {t('fields.name')}
          <input
            className="rounded-md border border-slate-400 px-3 py-2 font-normal"
            value={draft.name}
            readOnly={!canUpdate}
            onChange={(event) => edit({ ...draft, name: event.target.value })}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
          {t('fields.layout')}
          <select
            className="rounded-md border border-slate-400 px-3 py-2 font-normal"
            value={draft.layoutCode ?? ''}
            disabled={!canUpdate}
            onChange={(event) => edit({ ...draft, layoutCode: event.target.value || null })}
          >
            {draft.layoutCode === null ? <option value="">{t('fields.no_layout')}</option> : null}
            {(layouts.data ?? []).map((layout) => (
              <option key={layout.code} value={layout.code}>
                {layout.name}
              </option>
            ))}
          </select>
        </label>
      </div>

      <div className="grid gap-6 lg:grid-cols-[1fr_16rem]">
        <div className="flex flex-col gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-body`} className="text-sm font-medium text-slate-800">
              {t('documents.body')}
            </label>
            <textarea
              id={`${id}-body`}
              ref={field}
              className="w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm text-slate-900"
              rows={18}
              spellCheck={false}
              value={draft.bodyTemplate}
              readOnly={!canUpdate}
              aria-invalid={bodyIssues.length > 0 || undefined}
              aria-describedby={bodyIssues.length ? errorId : undefined}
              onChange={(event) => edit({ ...draft, bodyTemplate: event.target.value })}
            />
            {bodyIssues.length ? (
              <ul id={errorId} className="text-sm text-red-800">
                {bodyIssues.map((issue, index) => (
                  <li key={index}>{issueText(issue)}</li>
                ))}
              </ul>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() =>
                actor.send({
                  type: 'preview',
                  request: {
                    kind: saved.kind,
                    name: draft.name,
                    layoutCode: draft.layoutCode,
                    bodyTemplate: draft.bodyTemplate,
                  } satisfies DocPreviewRequest,
                })
              }
            >
              {state === 'previewing' ? t('documents.preview_busy') : t('actions.preview')}
            </Button>
            {canUpdate ? (
              <Button
                disabled={busy || !dirty}
                onClick={() => actor.send({ type: 'save', request: draft })}
              >
                {state === 'saving' ? t('actions.saving') : t('actions.save')}
              </Button>
            ) : null}
          </div>
        </div>
        <VariablesPanel id={id} variables={variables} disabled={!canUpdate} onInsert={insert} />
      </div>

      {pdfUrl ? (
        <section aria-labelledby={`${id}-preview`} className="flex flex-col gap-3">
          <div className="flex items-center justify-between">
            <h2 id={`${id}-preview`} className="text-lg font-semibold text-slate-900">
              {t('documents.preview_title')}
            </h2>
            <Button variant="ghost" onClick={() => actor.send({ type: 'preview.close' })}>
              {t('preview.close')}
            </Button>
          </div>
          <iframe
            title={t('documents.preview_frame')}
            src={pdfUrl}
            className="h-[40rem] w-full rounded-md border border-slate-300 bg-white"
          />
        </section>
      ) : null}

      <section aria-labelledby={`${id}-versions`} className="flex flex-col gap-2">
        <h2 id={`${id}-versions`} className="text-lg font-semibold text-slate-900">
          {t('versions.title')}
        </h2>
        {versions.data?.length ? (
          <div data-testid="template-versions">
            <DataTable
              caption={t('versions.title')}
              rows={versions.data}
              rowKey={(version) => version.version}
              columns={[
                {
                  id: 'version',
                  header: t('versions.version'),
                  cell: (version) => version.version,
                },
                {
                  id: 'by',
                  header: t('versions.by'),
                  cell: (version) => version.savedByName ?? t('list.system'),
                },
                {
                  id: 'at',
                  header: t('versions.at'),
                  cell: (version) => formatDateTime(version.savedAt),
                },
              ]}
            />
          </div>
        ) : (
          <p className="text-sm text-slate-700">{t('versions.empty')}</p>
        )}
      </section>
    </div>
  );
}
