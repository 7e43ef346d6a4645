import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { fromPromise } from 'xstate';
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
  EditorHeading,
  NameAndLayout,
  PreviewSection,
  RefusalSummary,
  TemplateVersions,
  refusalOf,
  useTemplateDelete,
} from '#client/entities/template/editor-parts.tsx';
import {
  VariablesPanel,
  insertAtCaret,
  useIssueText,
} from '#client/entities/template/variables-panel.tsx';
import { Button } from '#client/ui/button.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BackLink, RecordPage } from '#client/ui/record-page.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useToast } from '#client/ui/toast.tsx';
import { useUnsavedChangesGuard } from '#client/ui/use-unsaved-guard.ts';
import {
  emailTemplateEditorMachine,
  type RenderedPreview,
} from '#machines/email-template-editor.machine.ts';
import { documentKindLabel, documentsPath } from './document-kind.ts';

type SavedTemplate = DocTemplate & { bodyTemplate: string };

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
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const issueText = useIssueText();
  const [saved, setSaved] = useState(initial);
  const { deleted, remove } = useTemplateDelete({
    name: saved.name,
    message: t('documents.delete_message', { name: saved.name }),
    action: () => deleteDocTemplate(accountIndex, saved.code),
    listKey: ['doc-templates', accountIndex],
    listPath: documentsPath(accountIndex),
  });
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

  const errorId = `${id}-body-errors`;
  return (
    <div className="flex flex-col gap-6">
      <EditorHeading
        name={saved.name}
        versionInfo={t('documents.version_info', {
          version: saved.version,
          kind: documentKindLabel(t, saved.kind),
          origin: saved.isSystem ? t('origin.system') : t('origin.own'),
        })}
        dirty={dirty}
        busy={busy}
        onDelete={canDelete ? () => void remove() : undefined}
      />
      <RefusalSummary refusal={refusal} canUpdate={canUpdate} whereOf={whereOf} />

      <NameAndLayout
        name={draft.name}
        layoutCode={draft.layoutCode}
        layouts={layouts.data ?? []}
        readOnly={!canUpdate}
        noLayout={draft.layoutCode === null}
        onChange={(next) => edit({ ...draft, ...next })}
      />

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
        <PreviewSection
          id={id}
          title={t('documents.preview_title')}
          onClose={() => actor.send({ type: 'preview.close' })}
        >
          <iframe
            title={t('documents.preview_frame')}
            src={pdfUrl}
            className="h-[40rem] w-full rounded-md border border-slate-300 bg-white"
          />
        </PreviewSection>
      ) : null}

      <TemplateVersions id={id} versions={versions.data} />
    </div>
  );
}
