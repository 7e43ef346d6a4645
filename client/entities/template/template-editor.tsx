import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import type { TemplateVariable, TemplateVersion } from '#client/api/template-calls.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BackLink, RecordPage, type RecordTexts } from '#client/ui/record-page.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useUnsavedChangesGuard } from '#client/ui/use-unsaved-guard.ts';
import {
  isDirty,
  templateEditorMachine,
  type RenderedPreview,
  type SavedTemplate,
} from '#machines/template-editor.machine.ts';
import {
  EditorHeading,
  NameAndLayout,
  PreviewSection,
  RefusalSummary,
  TemplateVersions,
  refusalOf,
} from './editor-parts.tsx';
import { VariablesPanel } from './variables-panel.tsx';

/*
 * The e-mail and the document template editor (issue 19) are one editor: the same flow (the
 * template editor statechart: draft, preview, save, refusal, delete, test e-mail), the same page
 * frame and parts. A page brings its source fields, its preview and its calls.
 */

/** What the editor reads of any template. */
export interface EditableTemplate {
  code: string;
  kind: string;
  version: number;
  isSystem: boolean;
}

/** What the editor edits of any template, besides its sources. */
export interface EditableChanges {
  name: string;
  layoutCode: string | null;
}

/**
 * The editor's route: the template read once (a refetch must not replace what is being edited),
 * its loading and failure states under the back link, then the editor.
 */
export function TemplateRecordPage<T>({
  queryKey,
  load,
  titleOf,
  texts,
  back,
  children,
}: {
  queryKey: QueryKey;
  load: (signal: AbortSignal) => Promise<{ template: T; variables: TemplateVariable[] }>;
  titleOf: (template: T) => string;
  texts: RecordTexts;
  back: { to: string; label: string };
  children: (initial: T, variables: TemplateVariable[]) => ReactNode;
}) {
  const template = useQuery({
    queryKey,
    queryFn: ({ signal }) => load(signal),
    staleTime: Infinity,
  });
  usePageTitle(template.data ? titleOf(template.data.template) : texts.title);
  return (
    <RecordPage
      state={loadStateOf(template)}
      back={<BackLink to={back.to}>{back.label}</BackLink>}
      texts={texts}
      onRetry={() => void template.refetch()}
    >
      {({ template: initial, variables }) => children(initial, variables)}
    </RecordPage>
  );
}

export interface TemplateEditorSetup<T extends EditableTemplate, C extends EditableChanges> {
  initial: T;
  /** The template's sources as the editor shows them: what the draft starts from and is compared with. */
  changesOf: (template: T) => C;
  /** The name in the reader's language (the heading, the delete question). */
  nameOf: (template: T) => string;
  /** The query keys read again after a change: the list, the versions, the layouts. */
  keys: { list: QueryKey; versions: QueryKey; layouts: QueryKey };
  listPath: string;
  deleteMessage: (name: string) => string;
  calls: {
    layouts: (signal: AbortSignal) => Promise<readonly { code: string; name: string }[]>;
    versions: (signal: AbortSignal) => Promise<TemplateVersion[]>;
    /** `saved`: the template as last saved (a name shown translated is sent as stored). */
    save: (changes: C, saved: T, signal: AbortSignal) => Promise<T>;
    /** Throws the refusal as the editor shows it (a preview's issues placed at their fields). */
    preview: (request: unknown, signal: AbortSignal) => Promise<RenderedPreview>;
    remove: () => Promise<unknown>;
    /** E-mail templates only. */
    testMail?: (request: unknown) => Promise<{ sentTo: string }>;
  };
}

/**
 * The editor's state for a page: the statechart's (draft, saved template, preview, refusal, test
 * e-mail), the layouts and versions, and what the user may do. Leaving with unsaved changes is
 * guarded; once deleted, the list opens (after the render that lets the guard go).
 */
export function useTemplateEditor<T extends EditableTemplate, C extends EditableChanges>(
  setup: TemplateEditorSetup<T, C>,
) {
  const { t } = useTranslation('templates');
  const { may } = useAccountAccess();
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const canUpdate = may('document-management', 'templates', 'update');
  // The sandbox sends and issues its system templates itself: they can be changed, not deleted.
  const canDelete = !setup.initial.isSystem && may('document-management', 'templates', 'delete');

  const layouts = useQuery({
    queryKey: setup.keys.layouts,
    queryFn: ({ signal }) => setup.calls.layouts(signal),
  });
  const versions = useQuery({
    queryKey: setup.keys.versions,
    queryFn: ({ signal }) => setup.calls.versions(signal),
  });

  // The machine's actors and actions are set once: what they call is read through a ref.
  const latest = useRef({ setup, saved: setup.initial, refetchVersions: versions.refetch });
  const actor = useActorRef(
    templateEditorMachine.provide({
      actors: {
        renderPreview: fromPromise<RenderedPreview, unknown>(({ input, signal }) =>
          latest.current.setup.calls.preview(input, signal),
        ),
        saveTemplate: fromPromise<SavedTemplate, unknown>(async ({ input, signal }) => {
          const { setup: current, saved } = latest.current;
          try {
            const template = await current.calls.save(input as C, saved, signal);
            return { version: template.version, template, changes: current.changesOf(template) };
          } catch (error) {
            throw refusalOf(error);
          }
        }),
        deleteTemplate: fromPromise<boolean>(() => {
          const { setup: current, saved } = latest.current;
          return confirm({
            title: t('delete.title'),
            message: current.deleteMessage(current.nameOf(saved)),
            confirmLabel: t('delete.confirm'),
            tone: 'danger',
            action: current.calls.remove,
          });
        }),
        sendTestMail: fromPromise<{ sentTo: string }, unknown>(({ input }) => {
          const send = latest.current.setup.calls.testMail;
          return send ? send(input) : Promise.reject(new Error('no test e-mail here'));
        }),
      },
      actions: {
        notifySaved: ({ event }) => {
          const { version } = (event as unknown as { output: SavedTemplate }).output;
          toast({ message: t('editor.saved', { version }), tone: 'success' });
          void latest.current.refetchVersions();
          void queryClient.invalidateQueries({ queryKey: latest.current.setup.keys.list });
        },
        notifyDeleted: () => {
          const { setup: current, saved } = latest.current;
          toast({ tone: 'success', message: t('delete.done', { name: current.nameOf(saved) }) });
          void queryClient.invalidateQueries({ queryKey: current.keys.list });
        },
      },
    }),
    { input: { template: setup.initial, changes: setup.changesOf(setup.initial) } },
  );
  const state = useSelector(actor, (snapshot) => snapshot.value);
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const saved = context.saved as T;
  latest.current = { setup, saved, refetchVersions: versions.refetch };
  const dirty = isDirty(context);
  const deleted = state === 'deleted';

  useUnsavedChangesGuard(dirty && !deleted, {
    title: t('leave.title'),
    message: t('leave.message'),
    confirmLabel: t('leave.confirm'),
  });
  const { listPath } = setup;
  useEffect(() => {
    if (deleted) void navigate(listPath);
  }, [deleted, navigate, listPath]);

  return {
    actor,
    state,
    saved,
    nameOf: setup.nameOf,
    draft: context.draft as C,
    edit: (draft: C) => actor.send({ type: 'edit', draft }),
    dirty,
    busy: state === 'previewing' || state === 'saving' || state === 'deleting',
    refusal: context.refusal,
    issues: context.refusal?.kind === 'invalid' ? context.refusal.issues : [],
    preview: context.preview,
    testMail: context.testMail,
    layouts: layouts.data ?? [],
    versions: versions.data,
    canUpdate,
    canDelete,
  };
}

export type TemplateEditorState<T extends EditableTemplate, C extends EditableChanges> = ReturnType<
  typeof useTemplateEditor<T, C>
>;

/**
 * The editor's page: heading (version line, unsaved mark, delete), why the last call was refused,
 * name and layout, the page's source fields beside the variables, preview and save (and the
 * page's own buttons), the preview and the versions.
 */
export function TemplateEditorFrame<T extends EditableTemplate, C extends EditableChanges>({
  editor,
  id,
  versionInfo,
  whereOf,
  noLayout,
  sources,
  previewWith,
  previewRequest,
  previewBusyLabel,
  buttons,
  belowButtons,
  variables,
  onInsert,
  previewTitle,
  renderPreview,
}: {
  editor: TemplateEditorState<T, C>;
  id: string;
  versionInfo: string;
  /** Where a problem's path is, in words ("German · HTML body"). */
  whereOf: (path: string) => string;
  /** Offer "no layout". */
  noLayout: boolean;
  sources: ReactNode;
  /** What the preview prints the source with (a document template: a chosen record). */
  previewWith?: ReactNode;
  previewRequest: () => unknown;
  previewBusyLabel?: string;
  buttons?: ReactNode;
  belowButtons?: ReactNode;
  variables: TemplateVariable[];
  onInsert: (path: string) => void;
  previewTitle: string;
  /** The preview as shown, or null when the preview is not this page's kind. */
  renderPreview: (preview: RenderedPreview) => ReactNode;
}) {
  const { t } = useTranslation('templates');
  const { actor, draft, saved, dirty, busy, canUpdate } = editor;
  const rendered = editor.preview ? renderPreview(editor.preview) : null;
  return (
    <div className="flex flex-col gap-6">
      <EditorHeading
        name={editor.nameOf(saved)}
        versionInfo={versionInfo}
        dirty={dirty}
        busy={busy}
        onDelete={editor.canDelete ? () => actor.send({ type: 'delete' }) : undefined}
      />
      <RefusalSummary refusal={editor.refusal} canUpdate={canUpdate} whereOf={whereOf} />

      <NameAndLayout
        name={draft.name}
        layoutCode={draft.layoutCode}
        layouts={editor.layouts}
        readOnly={!canUpdate}
        noLayout={noLayout}
        onChange={(next) => editor.edit({ ...draft, ...next })}
      />

      <div className="grid gap-6 lg:grid-cols-[1fr_16rem]">
        <div className="flex flex-col gap-3">
          {sources}
          {previewWith}
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() => actor.send({ type: 'preview', request: previewRequest() })}
            >
              {editor.state === 'previewing' && previewBusyLabel
                ? previewBusyLabel
                : t('actions.preview')}
            </Button>
            {canUpdate ? (
              <Button
                disabled={busy || !dirty}
                onClick={() => actor.send({ type: 'save', request: draft })}
              >
                {editor.state === 'saving' ? t('actions.saving') : t('actions.save')}
              </Button>
            ) : null}
            {buttons}
          </div>
          {belowButtons}
        </div>
        <VariablesPanel id={id} variables={variables} disabled={!canUpdate} onInsert={onInsert} />
      </div>

      {rendered ? (
        <PreviewSection
          id={id}
          title={previewTitle}
          onClose={() => actor.send({ type: 'preview.close' })}
        >
          {rendered}
        </PreviewSection>
      ) : null}

      <TemplateVersions id={id} versions={editor.versions} />
    </div>
  );
}
