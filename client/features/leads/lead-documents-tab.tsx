import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LEAD_DOCUMENTS_PAGE_SIZE,
  listEntityDocuments,
  type DocumentMeta,
} from '#client/api/documents-client.ts';
import { AlertBar } from '#client/ui/alert-bar.tsx';
import { Button } from '#client/ui/button.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useLoad } from '#client/ui/use-load.ts';
import { LEAD_ENTITY_TYPE } from '#common/leads.ts';

/** The kinds of file the back office names; anything else shows its media type. */
const KNOWN_TYPES: Record<string, 'pdf' | 'jpeg' | 'png' | 'docx'> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/**
 * The lead's documents (quotes, signed applications, uploads), newest first, 20 at a time (spec,
 * section 9) with a button for more. Read-only: uploads and downloads arrive with the claims.
 */
export function LeadDocumentsTab({
  accountIndex,
  leadCode,
}: {
  accountIndex: number;
  leadCode: string;
}) {
  const { t } = useTranslation('leads');
  const [pages, setPages] = useState(1);
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
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t('documents.caption')}</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className="py-2 pr-4">
              {t('documents.filename')}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t('documents.type')}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t('documents.description')}
            </th>
            <th scope="col" className="py-2">
              {t('documents.created')}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((document) => {
            const known = KNOWN_TYPES[document.contentType];
            return (
              <tr key={document.code} className="border-b border-slate-200">
                <td className="py-2 pr-4 font-medium text-slate-900">{document.filename}</td>
                <td className="py-2 pr-4">
                  {known ? t(`documents.types.${known}`) : document.contentType}
                </td>
                <td className="py-2 pr-4">{document.description}</td>
                <td className="py-2">{formatDateTime(document.createdAt)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {more ? (
        <Button variant="secondary" className="self-start" onClick={() => setPages((n) => n + 1)}>
          {t('documents.more')}
        </Button>
      ) : null}
    </div>
  );
}
