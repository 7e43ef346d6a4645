import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LEAD_DOCUMENTS_PAGE_SIZE,
  downloadDocument,
  listEntityDocuments,
  type DocumentMeta,
} from '#client/api/documents-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { DocumentTable } from '#client/ui/document-table.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { useLoad } from '#client/ui/use-load.ts';
import { LEAD_ENTITY_TYPE } from '#common/leads.ts';

/**
 * The lead's documents (quotes, signed applications, uploads), newest first, 20 at a time (spec,
 * section 9) with a button for more; a file name downloads the file.
 */
export function LeadDocumentsTab({
  accountIndex,
  leadCode,
}: {
  accountIndex: number;
  leadCode: string;
}) {
  const { t } = useTranslation('leads');
  const { t: tc } = useTranslation('common');
  const [pages, setPages] = useState(1);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const download = (document: DocumentMeta) => {
    setDownloadFailed(false);
    void downloadDocument(accountIndex, document).then((ok) => setDownloadFailed(!ok));
  };
  const load = useCallback(
    async (signal: AbortSignal) => {
      const items: DocumentMeta[] = [];
      let more = false;
      for (let page = 1; page <= pages; page += 1) {
        const result = await listEntityDocuments(
          accountIndex,
          {
            entityType: LEAD_ENTITY_TYPE,
            entityId: leadCode,
            page,
            pageSize: LEAD_DOCUMENTS_PAGE_SIZE,
          },
          signal,
        );
        items.push(...result.items);
        more = result.nextPageToken !== null;
        if (!more) break;
      }
      return { items, more };
    },
    [accountIndex, leadCode, pages],
  );
  const { state, retry } = useLoad(load, 'lead documents');

  if (state.kind === 'loading') return <Spinner label={t('loading')} />;
  if (state.kind === 'failed') {
    return (
      <div className="flex flex-col items-start gap-2">
        <AlertBar tone="danger" dismissible={false}>
          {t('errors.documents_failed')}
        </AlertBar>
        <Button variant="secondary" onClick={retry}>
          {t('actions.retry')}
        </Button>
      </div>
    );
  }
  const { items, more } = state.value;
  if (!items.length) {
    return (
      <p className="py-6 text-sm text-slate-700" data-testid="documents-empty">
        {t('documents.empty')}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {downloadFailed ? (
        <AlertBar tone="danger" onDismiss={() => setDownloadFailed(false)}>
          {tc('messages.error')}
        </AlertBar>
      ) : null}
      <DocumentTable documents={items} caption={t('documents.caption')} onDownload={download} />
      {more ? (
        <Button variant="secondary" className="self-start" onClick={() => setPages((n) => n + 1)}>
          {t('documents.more')}
        </Button>
      ) : null}
    </div>
  );
}
