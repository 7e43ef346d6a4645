import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documentQueries } from '#client/api/documents-queries.ts';
import { DocumentTable } from '#client/entities/document/document-table.tsx';
import { useDocumentDownload } from '#client/entities/document/use-document-download.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { TimeFilter } from '#client/ui/time-filter.tsx';
import {
  ALL_DATES,
  isAllDates,
  toRange,
  type TimeFilterValue,
} from '#client/ui/time-filter-range.ts';
import { loadStateOf } from '#client/ui/load-state.ts';

/**
 * A customer's documents: those of their claims and policies and of their leads, newest first,
 * within the documents time filter; a file name downloads the file. The first 100 (decided: a
 * customer with more narrows the period).
 */
export function CustomerDocumentsTab({
  accountIndex,
  accountCode,
  name,
}: {
  accountIndex: number;
  accountCode: string;
  name: string;
}) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation('common');
  const [time, setTime] = useState<TimeFilterValue>(ALL_DATES);
  const { download, alert } = useDocumentDownload(accountIndex);
  // The range is taken once per choice, so the key stays put while the clock moves on.
  const range = useMemo(() => toRange(time), [time]);
  const query = useQuery(documentQueries.ofCustomer(accountIndex, accountCode, range));
  const state = loadStateOf(query);
  const retry = () => void query.refetch();

  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">
        <TimeFilter value={time} onChange={setTime} />
      </div>
      {alert}
      {state.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
      {state.kind === 'failed' ? (
        <LoadProblem error={state.error} failed={tc('messages.error')} onRetry={retry} />
      ) : null}
      {state.kind === 'ready' && !state.value.length ? (
        <p className="py-6 text-sm text-slate-700" data-testid="empty-documents">
          {isAllDates(time) ? t('customer.empty') : t('empty_range')}
        </p>
      ) : null}
      {state.kind === 'ready' && state.value.length ? (
        <DocumentTable
          documents={state.value}
          caption={t('customer.caption', { name })}
          onDownload={download}
        />
      ) : null}
    </div>
  );
}
