import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  docTemplates,
  previewDocTemplate,
  type DocPreviewRequest,
  type DocTemplateChanges,
  type FullDocTemplate,
} from '#client/api/doc-templates-client.ts';
import type { TemplateVariable } from '#client/api/template-calls.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { snippetOf } from './variable-snippet.ts';
import { SourceField, refusalOf } from './editor-parts.tsx';
import {
  TemplateEditorFrame,
  useTemplateEditor,
  type TemplateEditorState,
} from './template-editor.tsx';
import { insertAtCaret } from './variables-panel.tsx';
import { newestRecordsOf } from './preview-records.ts';
import { SelectInput } from '#client/ui/form/fields.tsx';

/*
 * The document template editor (issue 19): a doc-template's name, layout and Liquid body, the
 * variables of its kind, a PDF preview of the unsaved source and the versions, on the template
 * editor's frame. The document templates' page and the static documents' page (which adds
 * publishing, decision 020) both show it.
 */

/** A document kind (`policy`, `ipid`, …, docs/contracts.md) in the reader's language. */
export const documentKindLabel = (t: TFunction<'templates'>, kind: string): string =>
  t(`document_kinds.${kind}`, { defaultValue: kind });

const changesOf = (template: FullDocTemplate): DocTemplateChanges => ({
  name: template.name,
  layoutCode: template.layoutCode,
  bodyTemplate: template.bodyTemplate,
});

export function DocTemplateEditor({
  initial,
  variables,
  listPath,
  extra,
}: {
  initial: FullDocTemplate;
  variables: TemplateVariable[];
  /** Where the editor goes once the template is deleted. */
  listPath: string;
  /** A page's own buttons beside save, and what goes below them (a static document's publish). */
  extra?: (editor: TemplateEditorState<FullDocTemplate, DocTemplateChanges>) => {
    buttons?: ReactNode;
    belowButtons?: ReactNode;
  };
}) {
  const { t } = useTranslation('templates');
  const { accountIndex } = useAccountAccess();
  const id = useId();
  const field = useRef<HTMLTextAreaElement | null>(null);
  // The record the preview prints (its code); '' for the kind's sample record.
  const [record, setRecord] = useState('');
  const records = useQuery({
    queryKey: ['preview-records', accountIndex, initial.kind],
    queryFn: ({ signal }) => newestRecordsOf(initial.kind, accountIndex, signal),
  });
  const editor = useTemplateEditor({
    initial,
    changesOf,
    nameOf: (template) => template.name,
    keys: {
      list: ['doc-templates', accountIndex],
      versions: ['doc-template-versions', accountIndex, initial.code],
      layouts: ['doc-layouts', accountIndex],
    },
    listPath,
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
  const more = extra?.(editor) ?? {};
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
          ...(record ? { entityCode: record } : {}),
        }) satisfies DocPreviewRequest
      }
      previewWith={
        // Kinds without records, and readers who may not list them, keep the sample.
        records.data?.length ? (
          <SelectInput
            name="preview-record"
            label={t('documents.preview_with')}
            hint={t('documents.preview_with_hint')}
            placeholder={t('documents.preview_sample')}
            value={record}
            options={records.data.map((r) => ({ value: r.code, label: r.label }))}
            onChange={setRecord}
          />
        ) : null
      }
      previewBusyLabel={t('documents.preview_busy')}
      buttons={more.buttons}
      belowButtons={more.belowButtons}
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
      previewTitle={record ? t('documents.preview_title_record') : t('documents.preview_title')}
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
