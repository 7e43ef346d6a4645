import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getHistory, type HistoryEntry } from '#client/api/history-client.ts';
import { getActivityLog } from '#client/api/activity-log-client.ts';
import { accountKey } from '#client/api/query-keys.ts';
import { Button } from '#client/ui/button.tsx';
import { DataTable } from '#client/ui/data-table.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { formatDate, formatDateTime, useDateDisplay } from '#client/ui/form/dates.ts';

/**
 * A record's history (issue 15, point 12): each change, newest first, with when (in the tenant's
 * date display, as every other date on screen), who by name, and what changed, field by field,
 * before → after. The service answers names only; no user id or code is shown.
 */

/** Fields whose values are amounts in cents, by the last part of their path. */
const MONEY = new Set(['reserve', 'payment', 'recourse', 'premium', 'reversedPayment']);
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** The history's name for a change's field: `customFields.damageLocation` → its last part. */
export type FieldLabel = (field: string) => string | undefined;

/**
 * A feature's reading of a stored value (a status slug as the tenant names it, a refusal code in
 * words); undefined leaves it to the common formats.
 */
export type ValueLabel = (field: string, value: unknown) => string | undefined;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Labels from a feature's own texts: the field's dotted path in snake_case, longest tail first
 * (`settlement.pendingPayment.payment` tries `pending_payment.payment` before `payment`, so a
 * nested field can read differently from its namesake), each tail with every `keys` prefix
 * (`customers:fields.` + `zip_code`); the first text found wins.
 */
export function useFieldLabels(keys: readonly string[]): FieldLabel {
  const { i18n } = useTranslation();
  return (field) => {
    const parts = field.split('.').map(snakeCase);
    const tails = parts.map((_, i) => parts.slice(i).join('.'));
    const key = tails
      .flatMap((tail) => keys.map((prefix) => prefix + tail))
      // The keys are the features' own, known only at run time: i18next's untyped lookup. A
      // tail naming a group of texts is no label.
      .find(
        (k) => i18n.exists(k) && typeof i18n.t(k as never, { returnObjects: true }) === 'string',
      );
    return key ? i18n.t(key as never) : undefined;
  };
}

/**
 * How a change reads: a value in the tenant's date display and the user's number format, a
 * field by its label, an action in words. Shared by a record's history and the activity log.
 */
export function useChangeText(
  labelOf?: FieldLabel,
  actionKeys: readonly string[] = [],
  valueLabel?: ValueLabel,
) {
  const { t, i18n } = useTranslation('ui');
  // Subscribed, so that a change of the tenant's display shows at once.
  useDateDisplay();
  const amount = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2 });

  const valueText = (field: string, value: unknown): string => {
    if (value === null || value === undefined || value === '') return t('history.empty_value');
    if (Array.isArray(value)) return value.map((v) => valueText(field, v)).join(', ');
    const own = valueLabel?.(field, value);
    if (own !== undefined) return own;
    if (typeof value === 'boolean') return t(value ? 'history.yes' : 'history.no');
    if (typeof value === 'number') {
      return MONEY.has(field.split('.').at(-1) ?? '')
        ? amount.format(value / 100)
        : value.toLocaleString(i18n.language);
    }
    if (typeof value === 'string') {
      if (ISO_DAY.test(value)) return formatDate(value);
      if (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))) {
        return formatDateTime(value);
      }
      return value;
    }
    return JSON.stringify(value);
  };
  const fieldText = (field: string) =>
    labelOf?.(field) ??
    (field.split('.').at(-1) ?? field).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

  // The actions of one kind of record only are the feature's own texts (`actionKeys` prefixes,
  // `claims:history_actions.`): the bundled ui namespace keeps the shared ones.
  const actionText = (entry: Pick<HistoryEntry, 'action'>) => {
    const own = actionKeys.map((prefix) => prefix + entry.action).find((k) => i18n.exists(k));
    if (own) return i18n.t(own as never);
    return t(`history.actions.${entry.action}` as 'history.actions.updated', {
      defaultValue: t('history.actions.other'),
    });
  };
  const whenText = (at: string) => formatDateTime(at);
  return { valueText, fieldText, actionText, whenText };
}

/**
 * The key of a record's history, or with no record of every history of the account: a page whose
 * own writes add to a history it keeps shown (a section, not a tab opened afresh) invalidates it.
 */
export const historyKey = (accountIndex: number, record?: string) =>
  record === undefined
    ? ([...accountKey(accountIndex), 'history'] as const)
    : ([...accountKey(accountIndex), 'history', record] as const);

export function HistoryTab({
  accountIndex,
  record,
  labelOf,
  actionKeys,
  valueLabel,
}: {
  accountIndex: number;
  /** The record's address below the API prefix: `claimservice/v1/claims/clm_…`. */
  record: string;
  labelOf?: FieldLabel;
  /** Prefixes of the feature's own action texts (`claims:history_actions.`), tried first. */
  actionKeys?: readonly string[];
  /** The feature's reading of its own values (statuses, codes), tried first. */
  valueLabel?: ValueLabel;
}) {
  const { t } = useTranslation('ui');
  const query = useInfiniteQuery({
    queryKey: historyKey(accountIndex, record),
    queryFn: ({ pageParam, signal }) => getHistory(accountIndex, record, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.nextPageToken ? Number(last.nextPageToken) : undefined),
    // Opening the tab shows what was saved up to now, also a save of a moment ago.
    staleTime: 0,
  });
  const { valueText, fieldText, actionText, whenText } = useChangeText(
    labelOf,
    actionKeys,
    valueLabel,
  );

  if (query.isPending) return <Spinner label={t('history.loading')} />;
  if (query.isError) {
    return (
      <LoadProblem
        error={query.error}
        failed={t('history.failed')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const entries = query.data.pages.flatMap((p) => p.items);
  if (!entries.length) {
    return (
      <p className="py-6 text-sm text-slate-700" data-testid="history-empty">
        {t('history.none')}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <DataTable
        caption={t('history.title')}
        rows={entries}
        rowKey={(entry) => entry.id}
        rowClassName="align-top"
        bodyTestId="history"
        columns={[
          {
            id: 'when',
            header: t('history.when'),
            cellClassName: 'whitespace-nowrap',
            cell: (entry) => <time dateTime={entry.at}>{whenText(entry.at)}</time>,
          },
          {
            id: 'who',
            header: t('history.who'),
            // The renewal run is no person: named as the system, in the reader's language.
            cell: (entry) => (entry.bySystem ? t('history.system') : entry.actorName),
          },
          {
            id: 'what',
            header: t('history.what'),
            cell: (entry) => (
              <>
                {actionText(entry)}
                {entry.entityLabel ? (
                  <span className="block font-medium">{entry.entityLabel}</span>
                ) : null}
              </>
            ),
          },
          {
            id: 'changes',
            header: t('history.changes'),
            cell: (entry) =>
              entry.changes.length ? (
                <ul className="flex flex-col gap-1">
                  {entry.changes.map((change) => (
                    <li key={change.field}>
                      <span className="font-medium">{fieldText(change.field)}</span>:{' '}
                      {valueText(change.field, change.before)}
                      <span aria-hidden="true"> → </span>
                      <span className="sr-only"> {t('history.became')} </span>
                      {valueText(change.field, change.after)}
                    </li>
                  ))}
                </ul>
              ) : null,
          },
        ]}
      />
      {query.hasNextPage ? (
        <Button
          variant="secondary"
          className="self-start"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t('history.more')}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The tenant's activity log (issue 16), page by page: `query` holds its filters. Here beside the
 * history it shares its query machinery with, so that the log's screen adds no chunk of its own
 * to the shell's preload lists.
 */
export function useActivityLog(accountIndex: number, query: string) {
  return useInfiniteQuery({
    queryKey: [...accountKey(accountIndex), 'activity-log', query],
    queryFn: ({ pageParam, signal }) => getActivityLog(accountIndex, query, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextPageToken ?? undefined,
    staleTime: 0,
  });
}

/** The tab's label, "History" in the user's language, for the pages' tab lists. */
export function useHistoryLabel(): string {
  return useTranslation('ui').t('history.tab');
}

/** The history as a section of its own, for the pages without tabs (policy, product version). */
export function HistorySection(props: Parameters<typeof HistoryTab>[0]) {
  const label = useHistoryLabel();
  return (
    <section aria-labelledby="history-heading" className="flex flex-col gap-3">
      <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
        {label}
      </h2>
      <HistoryTab {...props} />
    </section>
  );
}
