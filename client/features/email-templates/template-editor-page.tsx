import { useId, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import {
  TEMPLATE_LANGUAGES,
  TEMPLATE_PARTS,
  mailTemplates,
  previewTemplate,
  sendTestMail,
  type NotificationTemplate,
  type PreviewRequest,
  type TemplateChanges,
  type TemplateLanguage,
  type TemplatePart,
} from '#client/api/templates-client.ts';
import type { TemplateVariable } from '#client/api/template-calls.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import type { TemplateRefusal } from '#machines/template-editor.machine.ts';
import { snippetOf } from '#client/entities/template/variable-snippet.ts';
import { SourceField, refusalOf } from '#client/entities/template/editor-parts.tsx';
import {
  TemplateEditorFrame,
  TemplateRecordPage,
  useTemplateEditor,
} from '#client/entities/template/template-editor.tsx';
import { insertAtCaret } from '#client/entities/template/variables-panel.tsx';
import { emailsPath, templateName } from './template-name.ts';

/**
 * A preview is of one language's sources (`body.html`): its problems are placed at that
 * language's fields like a save's (`bodies.de.html`).
 */
const previewRefusalOf = (error: unknown, previewed: TemplateLanguage): TemplateRefusal =>
  refusalOf(error, 'preview', (issue) => ({
    ...issue,
    path: issue.path.replace(/^body\./, `bodies.${previewed}.`),
  }));

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
  return (
    <TemplateRecordPage
      queryKey={['notification-template', accountIndex, code]}
      load={(signal) => mailTemplates.get(accountIndex, code, signal)}
      titleOf={(template) => templateName(t, template)}
      back={{ to: emailsPath(accountIndex), label: t('editor.back') }}
      texts={{
        loading: t('editor.loading'),
        title: t('editor.title'),
        notFound: t('editor.not_found'),
        failed: t('editor.load_failed'),
      }}
    >
      {(initial, variables) => (
        <TemplateEditor key={code} initial={initial} variables={variables} />
      )}
    </TemplateRecordPage>
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
  const { accountIndex } = useAccountAccess();
  const id = useId();
  const [language, setLanguage] = useState<TemplateLanguage>('de');
  const fields = useRef<Partial<Record<TemplatePart, HTMLTextAreaElement | null>>>({});
  const focused = useRef<TemplatePart>('html');
  const editor = useTemplateEditor({
    initial,
    changesOf: (template) => changesOf(t, template),
    nameOf: (template) => templateName(t, template),
    keys: {
      list: ['notification-templates', accountIndex],
      versions: ['notification-template-versions', accountIndex, initial.code],
      layouts: ['mail-layouts', accountIndex],
    },
    listPath: emailsPath(accountIndex),
    deleteMessage: (name) => t('delete.message', { name }),
    calls: {
      layouts: (signal) => mailTemplates.layouts(accountIndex, signal),
      versions: (signal) => mailTemplates.versions(accountIndex, initial.code, signal),
      // A system template's name shown translated and left as it is stays the sandbox's own name.
      save: (changes, saved, signal) =>
        mailTemplates.save(
          accountIndex,
          initial.code,
          changes.name === templateName(t, saved) ? { ...changes, name: saved.name } : changes,
          signal,
        ),
      preview: async (request, signal) => {
        const mail = request as PreviewRequest;
        try {
          return await previewTemplate(accountIndex, mail, signal);
        } catch (error) {
          throw previewRefusalOf(error, mail.language);
        }
      },
      remove: () => mailTemplates.remove(accountIndex, initial.code),
      testMail: (request) => sendTestMail(accountIndex, initial.code, request as TemplateLanguage),
    },
  });
  const { draft, saved, issues, testMail } = editor;

  const setPart = (part: TemplatePart, value: string) =>
    editor.edit({
      ...draft,
      bodies: { ...draft.bodies, [language]: { ...draft.bodies[language], [part]: value } },
    });

  /** Inserts at the caret of the field last focused, and puts the caret after the insertion. */
  const insert = (path: string) => {
    const part = focused.current;
    insertAtCaret(fields.current[part], draft.bodies[language][part], snippetOf(path), (next) =>
      setPart(part, next),
    );
  };

  const whereOf = (path: string) => {
    const [, lang, part] = path.split('.') as [string, TemplateLanguage?, TemplatePart?];
    return lang && part ? `${t(`languages.${lang}`)} · ${t(`parts.${part}`)}` : path;
  };

  const body = draft.bodies[language];
  return (
    <TemplateEditorFrame
      editor={editor}
      id={id}
      versionInfo={t('editor.version_info', {
        version: saved.version,
        slug: saved.slug,
        origin: saved.isSystem ? t('origin.system') : t('origin.own'),
      })}
      whereOf={whereOf}
      noLayout
      variables={variables}
      onInsert={insert}
      previewRequest={() =>
        ({
          kind: saved.kind,
          layoutCode: draft.layoutCode,
          language,
          body,
        }) satisfies PreviewRequest
      }
      buttons={
        <Button
          variant="secondary"
          disabled={testMail?.kind === 'sending'}
          onClick={() => editor.actor.send({ type: 'testMail.send', request: language })}
        >
          {t('actions.test_mail')}
        </Button>
      }
      belowButtons={
        <>
          {editor.dirty && testMail === null ? (
            <p className="text-sm text-slate-700">{t('editor.test_mail_saved_only')}</p>
          ) : null}
          {testMail?.kind === 'sent' ? (
            <Alert tone="success">{t('editor.test_mail_sent', { address: testMail.to })}</Alert>
          ) : null}
          {testMail?.kind === 'failed' ? (
            <Alert tone="danger">{t('editor.test_mail_failed')}</Alert>
          ) : null}
        </>
      }
      sources={
        <>
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
            {TEMPLATE_PARTS.map((part) => (
              <SourceField
                key={part}
                id={`${id}-${part}`}
                label={t(`parts.${part}`)}
                value={body[part]}
                rows={part === 'subject' ? 2 : 10}
                readOnly={!editor.canUpdate}
                issues={issues.filter((issue) => issue.path === `bodies.${language}.${part}`)}
                onChange={(value) => setPart(part, value)}
                onFocus={() => {
                  focused.current = part;
                }}
                fieldRef={(element) => {
                  fields.current[part] = element;
                }}
              />
            ))}
          </div>
        </>
      }
      previewTitle={t('preview.title')}
      renderPreview={(rendered) =>
        'html' in rendered ? (
          <>
            <p className="text-sm" data-testid="preview-subject">
              <span className="font-semibold">{t('parts.subject')}:</span> {rendered.subject}
            </p>
            {/* The rendered HTML runs nothing and reaches nothing of the page: an empty sandbox. */}
            <iframe
              title={t('preview.html')}
              sandbox=""
              srcDoc={rendered.html}
              className="h-80 w-full rounded-md border border-slate-300 bg-white"
            />
            <h3 className="text-sm font-semibold text-slate-800">{t('preview.text')}</h3>
            <pre className="whitespace-pre-wrap rounded-md border border-slate-300 bg-slate-50 p-3 text-sm">
              {rendered.text}
            </pre>
          </>
        ) : null
      }
    />
  );
}
