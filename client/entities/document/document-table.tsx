import { useTranslation } from 'react-i18next';
import type { DocumentMeta } from '#client/api/documents-client.ts';
import { formatDateTime } from '#client/ui/form/dates.ts';

/** The kinds of file the back office names; anything else shows its media type. */
const KNOWN_TYPES: Record<string, 'pdf' | 'jpeg' | 'png' | 'docx'> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/**
 * Documents as a table (a lead's, a customer's): the file name downloads the file through its
 * signed address (`downloadDocument`), then kind, description and when it was made.
 */
export function DocumentTable({
  documents,
  caption,
  onDownload,
}: {
  documents: readonly DocumentMeta[];
  caption: string;
  onDownload: (document: DocumentMeta) => void;
}) {
  const { t } = useTranslation('documents');
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="border-b border-slate-300 text-slate-700">
        <tr>
          <th scope="col" className="py-2 pr-4">
            {t('table.filename')}
          </th>
          <th scope="col" className="py-2 pr-4">
            {t('table.type')}
          </th>
          <th scope="col" className="py-2 pr-4">
            {t('table.description')}
          </th>
          <th scope="col" className="py-2">
            {t('table.created')}
          </th>
        </tr>
      </thead>
      <tbody>
        {documents.map((document) => {
          const known = KNOWN_TYPES[document.contentType];
          return (
            <tr key={document.code} className="border-b border-slate-200">
              <td className="py-2 pr-4">
                <button
                  type="button"
                  className="text-left font-medium text-sky-800 underline hover:text-sky-950"
                  aria-label={t('table.download', { filename: document.filename })}
                  onClick={() => onDownload(document)}
                >
                  {document.filename}
                </button>
              </td>
              <td className="py-2 pr-4">{known ? t(`types.${known}`) : document.contentType}</td>
              <td className="py-2 pr-4">{document.description}</td>
              <td className="py-2">{formatDateTime(document.createdAt)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
