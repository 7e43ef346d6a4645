import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteDocxTemplate,
  docxTemplateDownloadUrl,
  docxTemplatesKey,
  listDocxTemplates,
  type DocxTemplate,
} from '#client/api/docx-templates-client.ts';
import { downloadDocument } from '#client/api/documents-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { DocxFillDialog } from './docx-fill-dialog.tsx';
import { entityLabel, failureText } from './docx-texts.ts';
import { DocxUploadDialog } from './docx-upload-dialog.tsx';

/**
 * The workspace's docx templates (route `/editor/docx-documents`, issue 19, decision 019): Word
 * files with tags, each for one kind of record; listed with their file, record kind and last
 * change; uploaded (checked by the service, refused with every problem placed), downloaded as
 * uploaded, filled with a record as DOCX or PDF, and deleted after the confirmation.
 */
export default function DocxTemplatesPage() {
  const { t } = useTranslation('templates');
  usePageTitle(t('docx.title'));
  const { accountIndex, may } = useAccountAccess();
  const confirm = useConfirm();
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = docxTemplatesKey(accountIndex);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => listDocxTemplates(accountIndex, signal),
  });
  const state = loadStateOf(query);
  const [uploading, setUploading] = useState(false);
  const [filling, setFilling] = useState<DocxTemplate | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const canCreate = may('document-management', 'templates', 'create');
  const canDelete = may('document-management', 'templates', 'delete');

  const closeUpload = useCallback(
    (uploaded: boolean) => {
      setUploading(false);
      if (!uploaded) return;
      toast({ message: t('docx.upload.done'), tone: 'success' });
      void queryClient.invalidateQueries({ queryKey: key });
    },
    // The key is made from the account alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [accountIndex, queryClient, toast, t],
  );

  const download = async (template: DocxTemplate) => {
    setProblem(null);
    const done = await downloadDocument(accountIndex, template, docxTemplateDownloadUrl);
    if (!done) setProblem(t('docx.download_failed'));
  };

  const remove = (template: DocxTemplate) =>
    void confirm({
      title: t('docx.delete.title'),
      message: t('docx.delete.message', { name: template.name }),
      tone: 'danger',
      confirmLabel: t('docx.delete.action'),
      action: () =>
        deleteDocxTemplate(accountIndex, template.code).catch((error: unknown) => {
          throw new Error(failureText(t, error));
        }),
    }).then((done) => {
      if (!done) return;
      toast({ message: t('docx.delete.done', { name: template.name }), tone: 'success' });
      void queryClient.invalidateQueries({ queryKey: key });
    });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{t('docx.title')}</h1>
        {canCreate ? (
          <Button onClick={() => setUploading(true)}>{t('docx.upload.action')}</Button>
        ) : null}
      </div>
      <p className="text-sm text-slate-700">{t('docx.intro')}</p>
      {uploading ? <DocxUploadDialog accountIndex={accountIndex} onClose={closeUpload} /> : null}
      {filling ? (
        <DocxFillDialog
          accountIndex={accountIndex}
          template={filling}
          onClose={() => setFilling(null)}
        />
      ) : null}
      {problem ? (
        <AlertBar tone="danger" onDismiss={() => setProblem(null)}>
          {problem}
        </AlertBar>
      ) : null}
      {state.kind === 'loading' ? <Spinner label={t('docx.loading')} /> : null}
      {state.kind === 'failed' ? (
        <RetryAlert message={t('docx.load_failed')} onRetry={() => void query.refetch()} />
      ) : null}
      {state.kind === 'ready' ? (
        <DocxTemplateTable
          templates={state.value.items}
          onDownload={(template) => void download(template)}
          onFill={setFilling}
          onDelete={canDelete ? remove : undefined}
        />
      ) : null}
    </div>
  );
}

/** The templates with their file (a download), record kind, last change and actions. */
function DocxTemplateTable({
  templates,
  onDownload,
  onFill,
  onDelete,
}: {
  templates: DocxTemplate[];
  onDownload: (template: DocxTemplate) => void;
  onFill: (template: DocxTemplate) => void;
  /** Absent for who may not delete templates. */
  onDelete: ((template: DocxTemplate) => void) | undefined;
}) {
  const { t } = useTranslation('templates');
  if (!templates.length) return <p className="text-slate-700">{t('docx.empty')}</p>;
  return (
    <DataTable
      caption={t('docx.title')}
      rows={templates}
      rowKey={(template) => template.code}
      columns={[
        {
          id: 'name',
          header: t('columns.name'),
          cell: (template) => <span className="font-medium">{template.name}</span>,
        },
        {
          id: 'filename',
          header: t('docx.columns.filename'),
          cell: (template) => (
            <button
              type="button"
              className="text-blue-800 underline underline-offset-2 hover:no-underline"
              onClick={() => onDownload(template)}
            >
              {template.filename}
              <span className="sr-only"> {t('docx.download')}</span>
            </button>
          ),
        },
        {
          id: 'entity',
          header: t('docx.columns.entity'),
          cell: (template) => entityLabel(t, template.entityType),
        },
        {
          id: 'changed',
          header: t('columns.changed'),
          cell: (template) =>
            t('list.changed_by', {
              name: template.updatedByName ?? t('list.system'),
              at: formatDateTime(template.updatedAt),
            }),
        },
        {
          id: 'actions',
          header: t('docx.columns.actions'),
          cellClassName: 'whitespace-nowrap',
          cell: (template) => (
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => onFill(template)}>
                {t('docx.fill.action')}
                <span className="sr-only"> {template.name}</span>
              </Button>
              {onDelete ? (
                <Button variant="danger" onClick={() => onDelete(template)}>
                  {t('docx.delete.action')}
                  <span className="sr-only"> {template.name}</span>
                </Button>
              ) : null}
            </div>
          ),
        },
      ]}
    />
  );
}
