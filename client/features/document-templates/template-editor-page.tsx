import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import {
  docTemplates,
  previewDocTemplate,
  type DocPreviewRequest,
  type DocTemplateChanges,
  type FullDocTemplate,
} from '#client/api/doc-templates-client.ts';
import type { TemplateVariable } from '#client/api/template-calls.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { snippetOf } from '#client/entities/template/variable-snippet.ts';
import { SourceField, refusalOf } from '#client/entities/template/editor-parts.tsx';
import {
  TemplateEditorFrame,
  TemplateRecordPage,
  useTemplateEditor,
} from '#client/entities/template/template-editor.tsx';
import { insertAtCaret } from '#client/entities/template/variables-panel.tsx';
import { documentKindLabel, documentsPath } from './document-kind.ts';

/**
 * One document template (route `/editor/documents/:templateCode`, issue 19): its name, layout
 * and body source, the variables its kind may use, a PDF preview of the unsaved source with the
 * kind's sample record, saving (a refusal names each problem with line and column) and the
 * versions. The flow and the frame are the e-mail template editor's.
 */
export default function DocTemplateEditorPage() {
  const { t } = useTranslation('templates');
  const code = useParams().templateCode ?? '';
  const { accountIndex } = useAccountAccess();
  return (
    <TemplateRecordPage
      queryKey={['doc-template', accountIndex, code]}
      load={(signal) => docTemplates.get(accountIndex, code, signal)}
      titleOf={(template) => template.name}
      back={{ to: documentsPath(accountIndex), label: t('documents.back') }}
      texts={{
        loading: t('editor.loading'),
        title: t('documents.editor_title'),
        notFound: t('documents.not_found'),
        failed: t('editor.load_failed'),
      }}
    >
      {(initial, variables) => (
        <DocTemplateEditor key={code} initial={initial} variables={variables} />
      )}
    </TemplateRecordPage>
  );
}

const changesOf = (template: FullDocTemplate): DocTemplateChanges => ({
  name: template.name,
  layoutCode: template.layoutCode,
  bodyTemplate: template.bodyTemplate,
});

function DocTemplateEditor({
  initial,
  variables,
}: {
  initial: FullDocTemplate;
  variables: TemplateVariable[];
}) {
  const { t } = useTranslation('templates');
  const { accountIndex } = useAccountAccess();
  const id = useId();
  const field = useRef<HTMLTextAreaElement | null>(null);
  const editor = useTemplateEditor({
    initial,
    changesOf,
    nameOf: (template) => template.name,
    keys: {
      list: ['doc-templates', accountIndex],
      versions: ['doc-template-versions', accountIndex, initial.code],
      layouts: ['doc-layouts', accountIndex],
    },
    listPath: documentsPath(accountIndex),
    deleteMessage: (name) => t('documents.delete_message', { name }),
    calls: {
      layouts: (signal) => docTemplates.layouts(accountIndex, signal),
      versions: (signal) => docTemplates.versions(accountIndex, initial.code, signal),
      save: (changes, _saved, signal) =>
        docTemplates.save(accountIndex, initial.code, changes, signal),
      preview: async (request, signal) => {
        try {
          const pdf = await previewDocTemplate(accountIndex, request as DocPreviewRequest, signal);
          return { pdfUrl: URL.createObjectURL(pdf) };
        } catch (error) {
          throw refusalOf(error, 'preview');
        }
      },
      remove: () => docTemplates.remove(accountIndex, initial.code),
    },
  });
  const { draft, saved, preview } = editor;
  const pdfUrl = preview && 'pdfUrl' in preview ? preview.pdfUrl : null;
  // A preview replaced (or closed, or the page left) lets its PDF go.
  useEffect(() => (pdfUrl ? () => URL.revokeObjectURL(pdfUrl) : undefined), [pdfUrl]);

  const edit = (bodyTemplate: string) => editor.edit({ ...draft, bodyTemplate });
  const whereOf = (path: string) =>
    path === 'bodyTemplate' ? t('documents.body') : path === 'layoutId' ? t('fields.layout') : path;

  return (
    <TemplateEditorFrame
      editor={editor}
      id={id}
      versionInfo={t('documents.version_info', {
        version: saved.version,
        kind: documentKindLabel(t, saved.kind),
        origin: saved.isSystem ? t('origin.system') : t('origin.own'),
      })}
      whereOf={whereOf}
      noLayout={draft.layoutCode === null}
      variables={variables}
      onInsert={(path) => insertAtCaret(field.current, draft.bodyTemplate, snippetOf(path), edit)}
      previewRequest={() =>
        ({
          kind: saved.kind,
          name: draft.name,
          layoutCode: draft.layoutCode,
          bodyTemplate: draft.bodyTemplate,
        }) satisfies DocPreviewRequest
      }
      previewBusyLabel={t('documents.preview_busy')}
      sources={
        <SourceField
          id={`${id}-body`}
          label={t('documents.body')}
          value={draft.bodyTemplate}
          rows={18}
          readOnly={!editor.canUpdate}
          issues={editor.issues.filter((issue) => issue.path === 'bodyTemplate')}
          onChange={edit}
          fieldRef={(element) => {
            field.current = element;
          }}
        />
      }
      previewTitle={t('documents.preview_title')}
      renderPreview={(rendered) =>
        'pdfUrl' in rendered ? (
          <iframe
            title={t('documents.preview_frame')}
            src={rendered.pdfUrl}
            className="h-[40rem] w-full rounded-md border border-slate-300 bg-white"
          />
        ) : null
      }
    />
  );
}
