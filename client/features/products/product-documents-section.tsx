import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteProductDocument,
  listProductDocuments,
  productDocumentDownloadUrl,
  productDocumentsKey,
  requestProductUpload,
  type ProductDocument,
} from '#client/api/product-documents-client.ts';
import { downloadDocument, sendSignedUpload } from '#client/api/documents-client.ts';
import { useIssuedDocuments } from '#client/entities/document/use-issued-documents.ts';
import { PRODUCT_DOCUMENT_ENTITY_TYPE } from '#common/contracts/product-document.ts';
import { ACCEPT_ATTRIBUTE } from '#common/claim-documents.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { useFailureMessage } from './page-parts.tsx';

/**
 * The documents of a product (issue 19; docs/contracts.md, "Product documents"): listed with
 * name, time, the product version an issued IPID is of (decision 020) and requester for every
 * reader; uploaded (the signed form of claim documents) and deleted by who may edit the product.
 */
export function ProductDocumentsSection({
  accountIndex,
  slug,
  canEdit,
  versions,
}: {
  accountIndex: number;
  slug: string;
  canEdit: boolean;
  /** The product's versions, to name an IPID's by its number. */
  versions: readonly { id: number; version: number }[];
}) {
  const { t } = useTranslation('products');
  const toast = useToast();
  const confirm = useConfirm();
  const failureMessage = useFailureMessage();
  const queryClient = useQueryClient();
  const key = productDocumentsKey(accountIndex, slug);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => listProductDocuments(accountIndex, slug, signal),
  });
  const state = loadStateOf(query);
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: key });
  // An IPID the document service issues once a version went live (decision 020): listed when told.
  useIssuedDocuments(key, (frame) => frame.entityType === PRODUCT_DOCUMENT_ENTITY_TYPE);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const files = [...(input.files ?? [])];
    input.value = '';
    if (!files.length) return;
    setUploading(true);
    setProblem(null);
    try {
      for (const file of files) {
        const post = await requestProductUpload(accountIndex, slug, file.name);
        await sendSignedUpload(post, file, () => {});
      }
      toast({ message: t('documents.uploaded'), tone: 'success' });
    } catch (error) {
      setProblem(t('documents.upload_failed', { reason: failureMessage(error) }));
    } finally {
      setUploading(false);
      reload();
    }
  };

  const download = async (document: ProductDocument) => {
    const done = await downloadDocument(accountIndex, document, (index, code) =>
      productDocumentDownloadUrl(index, slug, code),
    );
    if (!done) setProblem(t('documents.download_failed'));
  };

  const remove = (document: ProductDocument) =>
    void confirm({
      title: t('documents.delete'),
      message: t('documents.confirm_delete', { name: document.filename }),
      tone: 'danger',
      confirmLabel: t('documents.delete'),
      action: () =>
        deleteProductDocument(accountIndex, slug, document.code).catch((error: unknown) => {
          throw new Error(failureMessage(error));
        }),
    }).then((done) => {
      if (!done) return;
      toast({ message: t('documents.deleted', { name: document.filename }), tone: 'success' });
      reload();
    });

  return (
    <section aria-labelledby="product-documents-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="product-documents-heading" className="text-lg font-semibold text-slate-900">
          {t('documents.title')}
        </h2>
        {canEdit ? (
          <label className="cursor-pointer rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-within:outline-2 focus-within:outline-blue-700">
            {uploading ? t('documents.uploading') : t('documents.upload')}
            <input
              type="file"
              multiple
              accept={ACCEPT_ATTRIBUTE}
              className="sr-only"
              disabled={uploading}
              onChange={(event) => void upload(event)}
            />
          </label>
        ) : null}
      </div>
      {problem ? (
        <AlertBar tone="danger" onDismiss={() => setProblem(null)}>
          {problem}
        </AlertBar>
      ) : null}
      {state.kind === 'loading' ? (
        <Spinner label={t('documents.loading')} />
      ) : state.kind === 'failed' ? (
        <AlertBar tone="danger" dismissible={false}>
          {t('documents.load_failed')}{' '}
          <Button onClick={() => void query.refetch()}>{t('documents.retry')}</Button>
        </AlertBar>
      ) : state.value.items.length === 0 ? (
        <p className="text-slate-700">{t('documents.empty')}</p>
      ) : (
        <DataTable
          caption={t('documents.title')}
          rows={state.value.items}
          rowKey={(document) => document.code}
          columns={[
            {
              id: 'filename',
              header: t('documents.filename'),
              cell: (document) => (
                <button
                  type="button"
                  className="font-medium text-blue-800 underline-offset-2 hover:underline"
                  onClick={() => void download(document)}
                >
                  {document.filename}
                </button>
              ),
            },
            {
              id: 'created',
              header: t('documents.created'),
              cell: (document) => formatDateTime(document.createdAt),
            },
            {
              id: 'version',
              header: t('documents.product_version'),
              cell: (document) => {
                const version = versions.find((v) => v.id === document.productVersionId);
                return version ? t('version_number', { version: version.version }) : '–';
              },
            },
            {
              id: 'requester',
              header: t('documents.requester'),
              cell: (document) => document.requester,
            },
            ...(canEdit
              ? [
                  {
                    id: 'actions',
                    header: t('documents.actions'),
                    cell: (document: ProductDocument) => (
                      <Button variant="danger" onClick={() => remove(document)}>
                        {t('documents.delete')}
                        <span className="sr-only"> {document.filename}</span>
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
    </section>
  );
}
