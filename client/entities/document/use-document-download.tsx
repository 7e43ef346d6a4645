import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadDocument, type DocumentMeta } from '#client/api/documents-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';

/**
 * Downloading a document of a list (a customer's, a lead's) through its signed address, and the
 * alert of a download that failed, shown (where the page puts `alert`) until it is dismissed or
 * the next download starts.
 */
export function useDocumentDownload(accountIndex: number) {
  const { t } = useTranslation('common');
  const [failed, setFailed] = useState(false);
  const download = (document: DocumentMeta) => {
    setFailed(false);
    void downloadDocument(accountIndex, document).then((ok) => setFailed(!ok));
  };
  const alert = failed ? (
    <AlertBar tone="danger" onDismiss={() => setFailed(false)}>
      {t('messages.error')}
    </AlertBar>
  ) : null;
  return { download, alert };
}
