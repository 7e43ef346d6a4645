import type { QueryObserverResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { HashTabs, type HashTab } from '#client/ui/hash-tabs.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { BackLink, RecordPage, type RecordTexts } from '#client/ui/record-page.tsx';
import {
  HistoryTab,
  useHistoryLabel,
  type FieldLabel,
  type ValueLabel,
} from '#client/entities/history/history-tab.tsx';

/** What a detail page shows of its record once it is loaded, top to bottom. */
export interface DetailLayout {
  /** The page's heading. */
  title: ReactNode;
  /** Beside the title: the record's status badge. */
  badge?: ReactNode;
  /** One line under the title (a customer's number and type). */
  subtitle?: ReactNode;
  /** Under the title: the record's facts (status, holder, amounts). */
  summary?: ReactNode;
  /** Between the header and the tabs: what may be done with the record (status moves). */
  actions?: ReactNode;
  /** The record's tabs, the active one in the hash as `#tab=…`; without them, `sections`. */
  tabs?: {
    label: string;
    items: readonly HashTab[];
    history?: HistoryOf;
    /** Tabs after the history (a customer's invoices, still to come). */
    later?: readonly HashTab[];
  };
  /** A page without tabs shows its sections one under the other. */
  sections?: ReactNode;
  /** After the tabs: the dialogs the page opens. */
  dialogs?: ReactNode;
}

/** The record's history, the last tab (`HistoryTab`). */
export interface HistoryOf {
  accountIndex: number;
  /** The record's address below the API prefix: `claimservice/v1/claims/clm_…`. */
  record: string;
  labelOf?: FieldLabel;
  /** Prefixes of the feature's own action texts (`claims:history_actions.`), tried first. */
  actionKeys?: readonly string[];
  /** The feature's reading of its own values (a status slug by its name), tried first. */
  valueLabel?: ValueLabel;
}

/**
 * The one frame of the record pages (a user, an organisation, a customer, a lead, a claim): the
 * back link, the record as it loads (spinner, or what went wrong), the document title, then the
 * heading with the record's summary, its actions and its tabs with the history last. The pages
 * say only what is theirs (`DetailLayout`), so they look and behave alike.
 */
export function DetailPage<T>({
  query,
  back,
  texts,
  pageTitle,
  children,
}: {
  query: Pick<QueryObserverResult<T>, 'status' | 'fetchStatus' | 'data' | 'error' | 'refetch'>;
  back: { to: string; label: string };
  texts: RecordTexts;
  /** The document title once the record is there; `texts.title` until then. */
  pageTitle: (record: T) => string;
  children: (record: T) => DetailLayout;
}) {
  const loaded = loadStateOf(query);
  usePageTitle(loaded.kind === 'ready' ? pageTitle(loaded.value) : texts.title);
  return (
    <RecordPage
      state={loaded}
      back={<BackLink to={back.to}>{back.label}</BackLink>}
      texts={texts}
      onRetry={() => void query.refetch()}
    >
      {(record) => <DetailBody {...children(record)} />}
    </RecordPage>
  );
}

function DetailBody({
  title,
  badge,
  subtitle,
  summary,
  actions,
  tabs,
  sections,
  dialogs,
}: DetailLayout) {
  const historyLabel = useHistoryLabel();
  return (
    <>
      <DetailHeader title={title} badge={badge} subtitle={subtitle} summary={summary} />
      {actions}
      {tabs ? (
        <HashTabs
          id="tab"
          label={tabs.label}
          tabs={[
            ...tabs.items,
            ...(tabs.history
              ? [
                  {
                    id: 'history',
                    label: historyLabel,
                    content: <HistoryTab {...tabs.history} />,
                  },
                ]
              : []),
            ...(tabs.later ?? []),
          ]}
        />
      ) : null}
      {sections}
      {dialogs}
    </>
  );
}

function DetailHeader({
  title,
  badge,
  subtitle,
  summary,
}: Pick<DetailLayout, 'title' | 'badge' | 'subtitle' | 'summary'>) {
  const heading = <h1 className="text-2xl font-bold text-slate-900">{title}</h1>;
  const top = badge ? (
    <div className="flex flex-wrap items-center gap-3">
      {heading}
      {badge}
    </div>
  ) : (
    heading
  );
  if (!subtitle && !summary) return top;
  return (
    <div className="flex flex-col gap-2">
      {subtitle ? (
        <div className="flex flex-col gap-1">
          {top}
          <p className="text-sm text-slate-700">{subtitle}</p>
        </div>
      ) : (
        top
      )}
      {summary}
    </div>
  );
}
