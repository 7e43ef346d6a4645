import { useTranslation } from 'react-i18next';
import type { DocumentMeta } from '#client/api/documents-client.ts';
import { DataTable } from '#client/ui/data-table.tsx';
import { formatDateTime } from '#client/ui/form/dates.ts';
import { documentSourceOf } from './document-source.ts';

/** The kinds of file the back office names; anything else shows its media type. */
const KNOWN_TYPES: Record<string, 'pdf' | 'jpeg' | 'png' | 'docx'> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/**
 * Documents as a table (a lead's, a customer's, a policy's): the file name downloads the file
 * through its signed address (`downloadDocument`), then kind, description, with `withSource`
 * where it came from (issued by the system, sent by the customer, uploaded by a user:
 * `documentSourceOf`), and when it was made.
 */
export function DocumentTable({
  documents,
  caption,
  onDownload,
  withSource = false,
}: {
  documents: readonly DocumentMeta[];
  caption: string;
  onDownload: (document: DocumentMeta) => void;
  withSource?: boolean;
}) {
  const { t } = useTranslation('documents');
  return (
    <DataTable
      caption={caption}
      rows={documents}
      rowKey={(document) => document.code}
      columns={[
        {
          id: 'filename',
          header: t('table.filename'),
          cell: (document) => (
            <button
              type="button"
              className="text-left font-medium text-sky-800 underline hover:text-sky-950"
              aria-label={t('table.download', { filename: document.filename })}
              onClick={() => onDownload(document)}
            >
              {document.filename}
            </button>
          ),
        },
        {
          id: 'type',
          header: t('table.type'),
          cell: (document) => {
            const known = KNOWN_TYPES[document.contentType];
            return known ? t(`types.${known}`) : document.contentType;
          },
        },
        {
          id: 'description',
          header: t('table.description'),
          cell: (document) => document.description,
        },
        withSource && {
          id: 'source',
          header: t('table.source'),
          cell: (document) => t(`sources.${documentSourceOf(document)}`),
        },
        {
          id: 'created',
          header: t('table.created'),
          cell: (document) => formatDateTime(document.createdAt),
        },
      ]}
    />
  );
}
