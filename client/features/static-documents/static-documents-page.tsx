import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { docTemplates } from '#client/api/doc-templates-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  downloadStaticDocument,
  getStaticDocument,
  listStaticDocuments,
  publishStaticDocument,
  staticDocumentKey,
  staticDocumentsKey,
  type StaticDocument,
  type StaticPublication,
} from '#client/api/static-documents-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { CreateTemplateDialog } from '#client/entities/template/create-template-dialog.tsx';
import {
  DocTemplateEditor,
  documentKindLabel,
} from '#client/entities/template/doc-template-editor.tsx';
import { TemplateRecordPage } from '#client/entities/template/template-editor.tsx';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { saveFile } from '#client/ui/save-file.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';

/**
 * The static document editor (spec route `/editor/static-documents`, issue 19, decision 020):
 * the workspace's documents of no record (terms, privacy notice, complaints rules) with their
 * newest publication; `?document={key}` opens one in the document template editor, with
 * "Publish" (behind the confirm dialog's statechart) and its published versions to download.
 * One route for list and editor: the shell's bundle pays for each route entry.
 */
export default function StaticDocumentsPage() {
  const [params] = useSearchParams();
  const key = params.get('document');
  return key ? <StaticDocumentEditor key={key} documentKey={key} /> : <StaticDocumentList />;
}

const listPath = (accountIndex: number) => `/u/${accountIndex}/editor/static-documents`;
const editorPath = (accountIndex: number, key: string) =>
  `${listPath(accountIndex)}?document=${encodeURIComponent(key)}`;

/** The document kinds of no record (the document service's STATIC_KINDS). */
const STATIC_KINDS = new Set(['terms', 'static', 'rules', 'mediation']);

function StaticDocumentList() {
  const { t } = useTranslation('templates');
  const { accountIndex, may } = useAccountAccess();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  usePageTitle(t('static_documents.title'));
  const list = useQuery({
    queryKey: staticDocumentsKey(accountIndex),
    queryFn: ({ signal }) => listStaticDocuments(accountIndex, signal),
  });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{t('static_documents.title')}</h1>
        {may('document-management', 'templates', 'create') ? (
          <Button onClick={() => setCreating(true)}>{t('static_documents.create_action')}</Button>
        ) : null}
      </div>
      {creating ? (
        <CreateTemplateDialog
          title={t('static_documents.create_action')}
          kindField={t('static_documents.create_kind')}
          withSlug
          kinds={{
            queryKey: ['doc-template-kinds', accountIndex, 'static'],
            load: async (signal) =>
              (await docTemplates.kinds(accountIndex, signal)).filter((k) =>
                STATIC_KINDS.has(k.kind),
              ),
          }}
          layouts={{
            queryKey: ['doc-layouts', accountIndex],
            load: (signal) => docTemplates.layouts(accountIndex, signal),
          }}
          kindLabel={(kind) => documentKindLabel(t, kind)}
          // The body starts with the name as its heading (as text: no markup, no Liquid).
          create={({ slug, name, kind, layoutCode }) =>
            docTemplates.create(accountIndex, {
              slug,
              name,
              kind,
              layoutCode,
              bodyTemplate: `<h1>${name.replace(/[<>&{}%]/g, '')}</h1>\n`,
            })
          }
          onClose={(created) => {
            setCreating(false);
            if (!created) return;
            void list.refetch();
            void navigate(editorPath(accountIndex, created.slug));
          }}
        />
      ) : null}
      <p className="text-sm text-slate-700">{t('static_documents.intro')}</p>
      {list.isPending ? <Spinner label={t('static_documents.loading')} /> : null}
      {list.isError ? (
        <RetryAlert
          message={t('static_documents.load_failed')}
          onRetry={() => void list.refetch()}
        />
      ) : null}
      {list.data?.length === 0 ? (
        <p className="text-slate-700">{t('static_documents.empty')}</p>
      ) : null}
      {list.data?.length ? (
        <DataTable
          caption={t('static_documents.title')}
          rows={list.data}
          rowKey={(document) => document.key}
          columns={[
            {
              id: 'name',
              header: t('columns.name'),
              cell: (document: StaticDocument) => (
                <Link
                  to={editorPath(accountIndex, document.key)}
                  className="font-medium text-blue-800 underline-offset-2 hover:underline"
                >
                  {document.name}
                </Link>
              ),
            },
            {
              id: 'key',
              header: t('columns.slug'),
              cell: (document) => <code>{document.key}</code>,
            },
            {
              id: 'kind',
              header: t('documents.column_kind'),
              cell: (document) => documentKindLabel(t, document.kind),
            },
            {
              id: 'published',
              header: t('static_documents.published_version'),
              cell: (document) =>
                document.publishedVersion === null
                  ? t('static_documents.not_published')
                  : t('static_documents.version', { version: document.publishedVersion }),
            },
            {
              id: 'publishedAt',
              header: t('static_documents.published'),
              cell: (document) =>
                document.publishedAt
                  ? t('list.changed_by', {
                      name: document.publishedByName ?? t('list.system'),
                      at: formatDateTime(document.publishedAt),
                    })
                  : '–',
            },
          ]}
        />
      ) : null}
    </div>
  );
}

/** Why a publication did not go through, in the reader's words (the confirm dialog shows it). */
function usePublishFailure() {
  const { t } = useTranslation('templates');
  return (error: unknown): string => {
    if (!(error instanceof ApiError)) return t('errors.failed');
    if (error.status === 400) return t('static_documents.publish_refused');
    if (error.status === 403) return t('errors.forbidden');
    if (error.code === 'pdf_unavailable') return t('errors.pdf_unavailable');
    if (error.code === 'pdf_timeout') return t('errors.pdf_timeout');
    return t('errors.failed');
  };
}

function StaticDocumentEditor({ documentKey }: { documentKey: string }) {
  const { t } = useTranslation('templates');
  const { accountIndex, may } = useAccountAccess();
  const confirm = useConfirm();
  const toast = useToast();
  const queryClient = useQueryClient();
  const failure = usePublishFailure();
  const canPublish = may('document-management', 'templates', 'update');
  const infoKey = staticDocumentKey(accountIndex, documentKey);

  const publish = (name: string, templateVersion: number) =>
    void confirm({
      title: t('static_documents.publish_title'),
      message: t('static_documents.publish_message', { name, version: templateVersion }),
      confirmLabel: t('static_documents.publish'),
      action: () =>
        publishStaticDocument(accountIndex, documentKey).catch((error: unknown) => {
          throw new Error(failure(error));
        }),
    }).then((done) => {
      if (!done) return;
      toast({ tone: 'success', message: t('static_documents.published_toast', { name }) });
      void queryClient.invalidateQueries({ queryKey: infoKey });
      void queryClient.invalidateQueries({ queryKey: staticDocumentsKey(accountIndex) });
    });

  return (
    <TemplateRecordPage
      queryKey={['static-document-template', accountIndex, documentKey]}
      load={async (signal) => {
        const { staticDocument } = await getStaticDocument(accountIndex, documentKey, signal);
        return docTemplates.get(accountIndex, staticDocument.templateCode, signal);
      }}
      titleOf={(template) => template.name}
      back={{ to: listPath(accountIndex), label: t('static_documents.back') }}
      texts={{
        loading: t('editor.loading'),
        title: t('static_documents.title'),
        notFound: t('static_documents.not_found'),
        failed: t('editor.load_failed'),
      }}
    >
      {(initial, variables) => (
        <div className="flex flex-col gap-6">
          <DocTemplateEditor
            initial={initial}
            variables={variables}
            listPath={listPath(accountIndex)}
            extra={(editor) =>
              canPublish
                ? {
                    buttons: (
                      <Button
                        variant="secondary"
                        disabled={editor.busy || editor.dirty}
                        onClick={() => publish(editor.saved.name, editor.saved.version)}
                      >
                        {t('static_documents.publish')}
                      </Button>
                    ),
                    belowButtons: editor.dirty ? (
                      <p className="text-sm text-slate-700">{t('static_documents.save_first')}</p>
                    ) : null,
                  }
                : {}
            }
          />
          <PublishedVersions accountIndex={accountIndex} documentKey={documentKey} />
        </div>
      )}
    </TemplateRecordPage>
  );
}

function PublishedVersions({
  accountIndex,
  documentKey,
}: {
  accountIndex: number;
  documentKey: string;
}) {
  const { t } = useTranslation('templates');
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const info = useQuery({
    queryKey: staticDocumentKey(accountIndex, documentKey),
    queryFn: ({ signal }) => getStaticDocument(accountIndex, documentKey, signal),
  });
  const download = async (publication: StaticPublication) => {
    setProblem(null);
    try {
      const file = await downloadStaticDocument(accountIndex, documentKey, publication.version);
      saveFile(file.blob, file.filename ?? publication.filename);
    } catch {
      setProblem(t('static_documents.download_failed'));
    }
  };
  return (
    <section aria-labelledby={`${id}-published`} className="flex flex-col gap-2">
      <h2 id={`${id}-published`} className="text-lg font-semibold text-slate-900">
        {t('static_documents.versions_title')}
      </h2>
      {problem ? (
        <AlertBar tone="danger" onDismiss={() => setProblem(null)}>
          {problem}
        </AlertBar>
      ) : null}
      {info.isPending ? <Spinner label={t('static_documents.versions_loading')} /> : null}
      {info.isError ? (
        <RetryAlert
          message={t('static_documents.versions_load_failed')}
          onRetry={() => void info.refetch()}
        />
      ) : null}
      {info.data?.versions.length === 0 ? (
        <p className="text-sm text-slate-700">{t('static_documents.versions_empty')}</p>
      ) : null}
      {info.data?.versions.length ? (
        <div data-testid="published-versions">
          <DataTable
            caption={t('static_documents.versions_title')}
            rows={info.data.versions}
            rowKey={(publication) => publication.version}
            columns={[
              {
                id: 'version',
                header: t('versions.version'),
                cell: (publication: StaticPublication) =>
                  t('static_documents.version', { version: publication.version }),
              },
              {
                id: 'template',
                header: t('static_documents.template_version'),
                cell: (publication) => publication.templateVersion,
              },
              {
                id: 'by',
                header: t('versions.by'),
                cell: (publication) => publication.publishedByName,
              },
              {
                id: 'at',
                header: t('versions.at'),
                cell: (publication) => formatDateTime(publication.publishedAt),
              },
              {
                id: 'download',
                header: t('static_documents.file'),
                cell: (publication) => (
                  <Button variant="secondary" onClick={() => void download(publication)}>
                    {t('static_documents.download')}
                    <span className="sr-only">
                      {' '}
                      {t('static_documents.version', { version: publication.version })}
                    </span>
                  </Button>
                ),
              },
            ]}
          />
        </div>
      ) : null}
    </section>
  );
}
