import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentMeta } from '#client/api/documents-client.ts';
import { documentQueries } from '#client/api/documents-queries.ts';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { TimeFilter } from '#client/ui/time-filter.tsx';
import {
  ALL_DATES,
  isAllDates,
  toRange,
  type TimeFilterValue,
  type TimeRange,
} from '#client/ui/time-filter-range.ts';
import { loadStateOf } from '#client/ui/load-state.ts';
import { DocumentTable } from './document-table.tsx';
import { useDocumentDownload } from './use-document-download.tsx';
import { useIssuedDocuments } from './use-issued-documents.ts';
import { IssueDocumentButton, type IssuableKind } from './issue-document.tsx';

/**
 * One owner's documents (a customer's, a policy's) within the documents time filter, newest
 * first: loading, a failure with "Try again", "none" (in this period, or at all: `empty`), else
 * the table, whose file names download the files. The first page only (its size is the owner's
 * list's: `documentQueries`); an owner with more narrows the period.
 */
export function RangedDocuments<TKey extends QueryKey>({
  accountIndex,
  queryOf,
  caption,
  empty,
  withSource = false,
  issue,
}: {
  accountIndex: number;
  /** The list for a choice of the time filter (`documentQueries.ofCustomer`, `.ofPolicy`). */
  queryOf: (range: TimeRange) => UseQueryOptions<DocumentMeta[], Error, DocumentMeta[], TKey>;
  caption: string;
  /** What a list without documents says when no period narrows it. */
  empty: string;
  withSource?: boolean;
  /** The record whose documents are issued from templates ("Issue a document…"), if any. */
  issue?: { kind: IssuableKind; entityCode: string };
}) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation('common');
  const [time, setTime] = useState<TimeFilterValue>(ALL_DATES);
  const { download, alert, pending } = useDocumentDownload(accountIndex);
  // The range is taken once per choice, so the key stays put while the clock moves on.
  const range = useMemo(() => toRange(time), [time]);
  const query = useQuery(queryOf(range));
  useIssuedDocuments(documentQueries.all(accountIndex));
  const state = loadStateOf(query);
  const retry = () => void query.refetch();

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-end gap-3">
        {issue ? <IssueDocumentButton {...issue} /> : null}
        <TimeFilter value={time} onChange={setTime} />
      </div>
      {alert}
      {/* Always there, so that screen readers hear it when the text comes. */}
      <p role="status" className="text-sm text-slate-700 empty:hidden">
        {pending ? t('preparing') : ''}
      </p>
      {state.kind === 'loading' ? <Spinner label={t('loading')} /> : null}
      {state.kind === 'failed' ? (
        <LoadProblem error={state.error} failed={tc('messages.error')} onRetry={retry} />
      ) : null}
      {state.kind === 'ready' && !state.value.length ? (
        <p className="py-6 text-sm text-slate-700" data-testid="documents-empty">
          {isAllDates(time) ? empty : t('empty_range')}
        </p>
      ) : null}
      {state.kind === 'ready' && state.value.length ? (
        // Its own frame scrolls sideways: on a narrow screen the columns are wider than the page.
        // Relative, so that the sr-only caption is placed inside the frame.
        <div className="relative overflow-x-auto">
          <DocumentTable
            documents={state.value}
            caption={caption}
            onDownload={download}
            withSource={withSource}
          />
        </div>
      ) : null}
    </div>
  );
}
