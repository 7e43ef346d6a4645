import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documentQueries } from '#client/api/documents-queries.ts';
import { Button } from '#client/ui/button.tsx';
import { DocumentTable } from '#client/entities/document/document-table.tsx';
import { useDocumentDownload } from '#client/entities/document/use-document-download.tsx';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { TimeFilter } from '#client/ui/time-filter.tsx';
import {
  ALL_DATES,
  isAllDates,
  toRange,
  type TimeFilterValue,
} from '#client/ui/time-filter-range.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';

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
  const { t: td } = useTranslation('documents');
  const [pages, setPages] = useState(1);
  const [time, setTime] = useState<TimeFilterValue>(ALL_DATES);
  const { download, alert } = useDocumentDownload(accountIndex);
  // The range is taken once per choice, so the key stays put while the clock moves on.
  const range = useMemo(() => toRange(time), [time]);
  const query = useQuery(documentQueries.ofLead(accountIndex, leadCode, range, pages));
  const state = loadStateOf(query);
  const retry = () => void query.refetch();

  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">
        <TimeFilter
          value={time}
          onChange={(next) => {
            setTime(next);
            setPages(1);
          }}
        />
      </div>
      {alert}
      {state.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
      {state.kind === 'failed' ? (
        <RetryAlert message={t('errors.documents_failed')} onRetry={retry} />
      ) : null}
      {state.kind === 'ready' && !state.value.items.length ? (
        <p className="py-6 text-sm text-slate-700" data-testid="documents-empty">
          {isAllDates(time) ? t('documents.empty') : td('empty_range')}
        </p>
      ) : null}
      {state.kind === 'ready' && state.value.items.length ? (
        <>
          <DocumentTable
            documents={state.value.items}
            caption={t('documents.caption')}
            onDownload={download}
          />
          {state.value.more ? (
            <Button
              variant="secondary"
              className="self-start"
              onClick={() => setPages((n) => n + 1)}
            >
              {t('documents.more')}
            </Button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
