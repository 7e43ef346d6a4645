import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useId, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { fromPromise } from 'xstate';
import {
  TEMPLATE_LANGUAGES,
  TEMPLATE_PARTS,
  deleteTemplate,
  getTemplate,
  listLayouts,
  listTemplateVersions,
  previewTemplate,
  saveTemplate,
  sendTestMail,
  type NotificationTemplate,
  type PreviewRequest,
  type TemplateChanges,
  type TemplateLanguage,
  type TemplatePart,
  type TemplateVariable,
} from '#client/api/templates-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BackLink, RecordPage } from '#client/ui/record-page.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useToast } from '#client/ui/toast.tsx';
import { useUnsavedChangesGuard } from '#client/ui/use-unsaved-guard.ts';
import {
  emailTemplateEditorMachine,
  type RenderedPreview,
  type TemplateRefusal,
} from '#machines/email-template-editor.machine.ts';
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
import { templateName } from './template-name.ts';

/**
 * A refused call as the machine keeps it. A preview is of one language's sources (`body.html`):
 * its problems are placed at that language's fields like a save's (`bodies.de.html`).
 */
const mailRefusalOf = (error: unknown, previewed?: TemplateLanguage): TemplateRefusal =>
  previewed
    ? refusalOf(error, 'preview', (issue) => ({
        ...issue,
        path: issue.path.replace(/^body\./, `bodies.${previewed}.`),
      }))
    : refusalOf(error);

const textareaClass =
  'w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-sm text-slate-900';

/**
 * One e-mail template (route `/editor/emails/:templateCode`, issue 19): its sources per language
 * (subject, HTML, text) and layout, the variables its kind may use, a preview of the unsaved
 * sources with the kind's sample record, saving (a refusal names each problem at its field, line
 * and column), a test e-mail to oneself and the versions.
 */
export default function TemplateEditorPage() {
  const { t } = useTranslation('templates');
  const code = useParams().templateCode ?? '';
  const { accountIndex } = useAccountAccess();
  const template = useQuery({
    queryKey: ['notification-template', accountIndex, code],
    queryFn: ({ signal }) => getTemplate(accountIndex, code, signal),
    // The editor starts from one read; a refetch must not replace what is being edited.
    staleTime: Infinity,
  });
  const listPath = `/u/${accountIndex}/editor/emails`;
  usePageTitle(template.data ? templateName(t, template.data.template) : t('editor.title'));
  return (
    <RecordPage
      state={loadStateOf(template)}
      back={<BackLink to={listPath}>{t('editor.back')}</BackLink>}
      texts={{
        loading: t('editor.loading'),
        title: t('editor.title'),
        notFound: t('editor.not_found'),
        failed: t('editor.load_failed'),
      }}
      onRetry={() => void template.refetch()}
    >
      {({ template: initial, variables }) => (
        <TemplateEditor key={code} initial={initial} variables={variables} />
      )}
    </RecordPage>
  );
}

/** What the editor edits: the name as the reader sees it (`templateName`), layout and sources. */
const changesOf = (t: TFunction<'templates'>, template: NotificationTemplate): TemplateChanges => ({
  name: templateName(t, template),
  layoutCode: template.layoutCode,
  bodies: template.bodies,
});

function TemplateEditor({
  initial,
  variables,
}: {
  initial: NotificationTemplate;
  variables: TemplateVariable[];
}) {
  const { t } = useTranslation('templates');
  const { accountIndex, may } = useAccountAccess();
  const canUpdate = may('document-management', 'templates', 'update');
  // The sandbox sends its system e-mails itself: their templates can be changed, not deleted.
  const canDelete = !initial.isSystem && may('document-management', 'templates', 'delete');
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const [saved, setSaved] = useState(initial);
  const { deleted, remove } = useTemplateDelete({
    name: templateName(t, saved),
    message: t('delete.message', { name: templateName(t, saved) }),
    action: () => deleteTemplate(accountIndex, saved.code),
    listKey: ['notification-templates', accountIndex],
    listPath: `/u/${accountIndex}/editor/emails`,
  });
  const [draft, setDraft] = useState<TemplateChanges>(() => changesOf(t, initial));
  const [language, setLanguage] = useState<TemplateLanguage>('de');
  const [testMail, setTestMail] = useState<
    { kind: 'sending' } | { kind: 'sent'; to: string } | { kind: 'failed' } | null
  >(null);
  const fields = useRef<Partial<Record<TemplatePart, HTMLTextAreaElement | null>>>({});
  const focused = useRef<TemplatePart>('html');

  const layouts = useQuery({
    queryKey: ['mail-layouts', accountIndex],
    queryFn: ({ signal }) => listLayouts(accountIndex, signal),
  });
  const versions = useQuery({
    queryKey: ['notification-template-versions', accountIndex, initial.code],
    queryFn: ({ signal }) => listTemplateVersions(accountIndex, initial.code, signal),
  });

  // A system template's name shown translated and left as it is stays the sandbox's own name.
  const asStored = useRef((changes: TemplateChanges) => changes);
  asStored.current = (changes) =>
    changes.name === templateName(t, saved) ? { ...changes, name: saved.name } : changes;

  // The machine's actions are set once: what they call is read through a ref.
  const onSaved = useRef<(template: NotificationTemplate) => void>(() => {});
  onSaved.current = (template) => {
    setSaved(template);
    toast({ message: t('editor.saved', { version: template.version }), tone: 'success' });
    void versions.refetch();
    void queryClient.invalidateQueries({ queryKey: ['notification-templates', accountIndex] });
  };
  const actor = useActorRef(
    emailTemplateEditorMachine.provide({
      actors: {
        renderPreview: fromPromise<RenderedPreview, unknown>(async ({ input, signal }) => {
          try {
            return await previewTemplate(accountIndex, input as PreviewRequest, signal);
          } catch (error) {
            throw mailRefusalOf(error, (input as PreviewRequest).language);
          }
        }),
        saveTemplate: fromPromise<{ version: number }, unknown>(async ({ input, signal }) => {
          try {
            const template = await saveTemplate(
              accountIndex,
              initial.code,
              asStored.current(input as TemplateChanges),
              signal,
            );
            onSaved.current(template);
            return { version: template.version };
          } catch (error) {
            throw mailRefusalOf(error);
          }
        }),
      },
    }),
  );
  const state = useSelector(actor, (s) => s.value as string);
  const { preview, refusal } = useSelector(actor, (s) => s.context);
  const busy = state === 'previewing' || state === 'saving';
  const dirty = JSON.stringify(draft) !== JSON.stringify(changesOf(t, saved));
  useUnsavedChangesGuard(dirty && !deleted, {
    title: t('leave.title'),
    message: t('leave.message'),
    confirmLabel: t('leave.confirm'),
  });

  const edit = (next: TemplateChanges) => {
    setDraft(next);
    actor.send({ type: 'edit' });
  };
  const setPart = (part: TemplatePart, value: string) =>
    edit({
      ...draft,
      bodies: { ...draft.bodies, [language]: { ...draft.bodies[language], [part]: value } },
    });

  /** Inserts at the caret of the field last focused, and puts the caret after the insertion. */
  const insert = (path: string) => {
    const part = focused.current;
    const field = fields.current[part];
    insertAtCaret(field, draft.bodies[language][part], snippetOf(path), (next) =>
      setPart(part, next),
    );
  };

  const issues = refusal?.kind === 'invalid' ? refusal.issues : [];
  const issueText = useIssueText();
  const whereOf = (path: string) => {
    const [, lang, part] = path.split('.') as [string, TemplateLanguage?, TemplatePart?];
    return lang && part ? `${t(`languages.${lang}`)} · ${t(`parts.${part}`)}` : path;
  };

  const sendTest = () => {
    setTestMail({ kind: 'sending' });
    sendTestMail(accountIndex, initial.code, language).then(
      (sent) => setTestMail({ kind: 'sent', to: sent.sentTo }),
      () => setTestMail({ kind: 'failed' }),
    );
  };

  const body = draft.bodies[language];
  return (
    <div className="flex flex-col gap-6">
      <EditorHeading
        name={templateName(t, saved)}
        versionInfo={t('editor.version_info', {
          version: saved.version,
          slug: saved.slug,
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
        noLayout
        onChange={(next) => edit({ ...draft, ...next })}
      />

      <div className="grid gap-6 lg:grid-cols-[1fr_16rem]">
        <div className="flex flex-col gap-3">
          <div role="tablist" aria-label={t('editor.languages')} className="flex gap-2">
            {TEMPLATE_LANGUAGES.map((lang) => (
              <button
                key={lang}
                type="button"
                role="tab"
                id={`${id}-tab-${lang}`}
                aria-selected={lang === language}
                aria-controls={`${id}-panel`}
                className={`rounded-t-md border-b-2 px-4 py-2 text-sm font-semibold ${
                  lang === language
                    ? 'border-blue-800 text-blue-900'
                    : 'border-transparent text-slate-700'
                }`}
                onClick={() => setLanguage(lang)}
              >
                {t(`languages.${lang}`)}
              </button>
            ))}
          </div>
          <div
            role="tabpanel"
            id={`${id}-panel`}
            aria-labelledby={`${id}-tab-${language}`}
            className="flex flex-col gap-4"
          >
            {TEMPLATE_PARTS.map((part) => {
              const fieldIssues = issues.filter(
                (issue) => issue.path === `bodies.${language}.${part}`,
              );
              const errorId = `${id}-${part}-errors`;
              return (
                <div key={part} className="flex flex-col gap-1">
                  <label htmlFor={`${id}-${part}`} className="text-sm font-medium text-slate-800">
                    {t(`parts.${part}`)}
                  </label>
                  <textarea
                    id={`${id}-${part}`}
                    ref={(element) => {
                      fields.current[part] = element;
                    }}
                    className={textareaClass}
                    rows={part === 'subject' ? 2 : 10}
                    spellCheck={false}
                    value={body[part]}
                    readOnly={!canUpdate}
                    aria-invalid={fieldIssues.length > 0 || undefined}
                    aria-describedby={fieldIssues.length ? errorId : undefined}
                    onFocus={() => {
                      focused.current = part;
                    }}
                    onChange={(event) => setPart(part, event.target.value)}
                  />
                  {fieldIssues.length ? (
                    <ul id={errorId} className="text-sm text-red-800">
                      {fieldIssues.map((issue, index) => (
                        <li key={index}>{issueText(issue)}</li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              );
            })}
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
                    layoutCode: draft.layoutCode,
                    language,
                    body,
                  } satisfies PreviewRequest,
                })
              }
            >
              {t('actions.preview')}
            </Button>
            {canUpdate ? (
              <Button
                disabled={busy || !dirty}
                onClick={() => actor.send({ type: 'save', request: draft })}
              >
                {state === 'saving' ? t('actions.saving') : t('actions.save')}
              </Button>
            ) : null}
            <Button variant="secondary" disabled={testMail?.kind === 'sending'} onClick={sendTest}>
              {t('actions.test_mail')}
            </Button>
          </div>
          {dirty && testMail === null ? (
            <p className="text-sm text-slate-700">{t('editor.test_mail_saved_only')}</p>
          ) : null}
          {testMail?.kind === 'sent' ? (
            <Alert tone="success">{t('editor.test_mail_sent', { address: testMail.to })}</Alert>
          ) : null}
          {testMail?.kind === 'failed' ? (
            <Alert tone="danger">{t('editor.test_mail_failed')}</Alert>
          ) : null}
        </div>

        <VariablesPanel id={id} variables={variables} disabled={!canUpdate} onInsert={insert} />
      </div>

      {preview && 'html' in preview ? (
        <PreviewSection
          id={id}
          title={t('preview.title')}
          onClose={() => actor.send({ type: 'preview.close' })}
        >
          <p className="text-sm" data-testid="preview-subject">
            <span className="font-semibold">{t('parts.subject')}:</span> {preview.subject}
          </p>
          {/* The rendered HTML runs nothing and reaches nothing of the page: an empty sandbox. */}
          <iframe
            title={t('preview.html')}
            sandbox=""
            srcDoc={preview.html}
            className="h-80 w-full rounded-md border border-slate-300 bg-white"
          />
          <h3 className="text-sm font-semibold text-slate-800">{t('preview.text')}</h3>
          <pre className="whitespace-pre-wrap rounded-md border border-slate-300 bg-slate-50 p-3 text-sm">
            {preview.text}
          </pre>
        </PreviewSection>
      ) : null}

      <TemplateVersions id={id} versions={versions.data} />
    </div>
  );
}
