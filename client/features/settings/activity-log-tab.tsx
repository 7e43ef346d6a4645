import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ACTIVITY_FILTERS } from '#client/api/activity-log-client.ts';
import { useActivityLog, useChangeText } from '#client/entities/history/history-tab.tsx';
import { ExportLink } from '#client/entities/list-view/export-link.tsx';
import { Button } from '#client/ui/button.tsx';
import { ChangesTable } from '#client/ui/changes-table.tsx';
import { LoadProblem } from '#client/ui/load-problem.tsx';
import { Spinner } from '#client/ui/spinner.tsx';
import { ToolbarInput, ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { ADMIN_ENTITY_TYPES } from '#common/activity-kinds.ts';

/** The actions only administration records have: this screen's own texts. */
const ACTION_KEYS = ['tenant_settings:activity_log.actions.'];

/**
 * The tenant's activity log (issue 16): who changed which user, role, organisation or setting,
 * when (in the tenant's date display), and each field before and after. The filters live in the
 * address (`?entityType=role&actor=…`), beside the tab in the hash, so a link or a reload shows
 * the same entries; the export writes exactly the filtered log.
 */
export default function ActivityLogTab() {
  const { t } = useTranslation('tenant_settings');
  const accountIndex = Number(useParams().accountIndex ?? '0');
  // The filters keep the hash (the settings tab) as every list's do.
  const filters = useUrlFilters(ACTIVITY_FILTERS, { typed: ['actor', 'search'] });
  // The address holds other parameters too (none today): the service gets the filters only.
  const query = new URLSearchParams(
    ACTIVITY_FILTERS.flatMap((k) => (filters.values[k] ? [[k, filters.values[k]]] : [])),
  ).toString();
  const log = useActivityLog(accountIndex, query);

  return (
    <section className="flex flex-col gap-4" aria-labelledby="activity-log-heading">
      <h2 id="activity-log-heading" className="text-lg font-semibold text-slate-900">
        {t('activity_log.title')}
      </h2>
      <p className="max-w-3xl text-slate-700">{t('activity_log.intro')}</p>
      <div className="flex flex-wrap items-end gap-3" data-testid="activity-filters">
        <ToolbarSelect
          label={t('activity_log.kind')}
          value={filters.values.entityType}
          onChange={(value) => filters.set('entityType', value)}
          allLabel={t('activity_log.all_kinds')}
          options={ADMIN_ENTITY_TYPES.map((kind) => ({
            value: kind,
            label: t(`activity_log.kinds.${kind}`),
          }))}
        />
        <ToolbarInput
          label={t('activity_log.actor')}
          value={filters.drafts.actor}
          onChange={(value) => filters.setDraft('actor', value)}
          className="w-48"
        />
        {/* The browser's date input gives the day as the service takes it: YYYY-MM-DD. */}
        <ToolbarInput
          type="date"
          label={t('activity_log.from')}
          value={filters.values.from}
          onChange={(value) => filters.set('from', value)}
          className="w-44"
        />
        <ToolbarInput
          type="date"
          label={t('activity_log.to')}
          value={filters.values.to}
          onChange={(value) => filters.set('to', value)}
          className="w-44"
        />
        <ToolbarInput
          label={t('activity_log.search')}
          value={filters.drafts.search}
          onChange={(value) => filters.setDraft('search', value)}
        />
        <ExportLink accountIndex={accountIndex} list="activity_log" query={query} />
      </div>
      <ActivityEntries log={log} />
    </section>
  );
}

function ActivityEntries({ log }: { log: ReturnType<typeof useActivityLog> }) {
  const { t } = useTranslation('tenant_settings');
  const { valueText, fieldText, actionText, whenText } = useChangeText(undefined, ACTION_KEYS);

  if (log.isPending) return <Spinner label={t('activity_log.loading')} />;
  if (log.isError) {
    return (
      <LoadProblem
        error={log.error}
        failed={t('activity_log.failed')}
        onRetry={() => void log.refetch()}
      />
    );
  }
  const entries = log.data.pages.flatMap((p) => p.items);
  if (!entries.length) {
    return (
      <p className="py-6 text-sm text-slate-700" data-testid="activity-empty">
        {t('activity_log.empty')}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700" data-testid="activity-count">
        {t('activity_log.count', { count: log.data.pages[0]?.totalItems ?? entries.length })}
      </p>
      <ol className="flex flex-col gap-3" data-testid="activity-log">
        {entries.map((entry) => (
          <li
            key={entry.id}
            className="flex flex-col gap-2 rounded-md border border-slate-200 p-3"
            data-testid="activity-entry"
          >
            <p className="text-sm">
              <time dateTime={entry.at} className="font-medium">
                {whenText(entry.at)}
              </time>
              {' · '}
              <span data-testid="activity-actor">{entry.actorName}</span>
              {' · '}
              {t(`activity_log.kinds.${entry.entityType}`)}{' '}
              <span className="font-medium">{entry.entityLabel ?? entry.entityId}</span>
              {' · '}
              {actionText(entry)}
            </p>
            {entry.changes.length ? (
              <ChangesTable
                caption={t('activity_log.changes_caption')}
                testIdPrefix={`activity-${entry.id}`}
                headers={{
                  field: t('activity_log.field'),
                  before: t('activity_log.before'),
                  after: t('activity_log.after'),
                }}
                rows={entry.changes.map((change) => ({
                  id: change.field,
                  label: fieldText(change.field),
                  before: valueText(change.field, change.before),
                  after: valueText(change.field, change.after),
                }))}
              />
            ) : null}
          </li>
        ))}
      </ol>
      {log.hasNextPage ? (
        <Button
          variant="secondary"
          className="self-start"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {t('activity_log.more')}
        </Button>
      ) : null}
    </div>
  );
}
