import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadDocument, type DocumentMeta } from '#client/api/documents-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';

/**
 * Downloading a document of a list (a customer's, a lead's, a policy's) through its signed
 * address, and the alert of a download that failed, shown (where the page puts `alert`) until it
 * is dismissed or the next download starts. `pending` while the address is asked for: an issued
 * document (a policy schedule) is printed on its first download, which takes a few seconds.
 */
export function useDocumentDownload(accountIndex: number) {
  const { t } = useTranslation('common');
  const [failed, setFailed] = useState(false);
  const [pending, setPending] = useState(0);
  const download = (document: DocumentMeta) => {
    setFailed(false);
    setPending((n) => n + 1);
    void downloadDocument(accountIndex, document).then((ok) => {
      setFailed(!ok);
      setPending((n) => n - 1);
    });
  };
  const alert = failed ? (
    <AlertBar tone="danger" onDismiss={() => setFailed(false)}>
      {t('messages.error')}
    </AlertBar>
  ) : null;
  return { download, alert, pending: pending > 0 };
}
