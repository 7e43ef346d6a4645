import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CLAIM_TYPES, claimsParams, listClaims, type Claim } from '#client/api/claims-client.ts';
import { claimQueries } from '#client/api/claims-queries.ts';
import { RetryAlert } from '#client/ui/load-problem.tsx';
import { formatDate, formatDateTime } from '#client/ui/form/dates.ts';
import type { TableColumn } from '#client/ui/infinite-table.tsx';
import { ListPage } from '#client/entities/list-view/list-page.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { partyName } from '#common/party-name.ts';
import { ToolbarSelect } from '#client/ui/toolbar-field.tsx';
import { loadStateOf } from '#client/ui/load-state.ts';
import { useUrlFilters } from '#client/ui/use-url-filters.ts';
import { ClaimStatusBadge } from './claim-status.tsx';
import {
  CLAIM_LIST_KEYS,
  CLAIM_ORDER_FIELDS,
  claimListFilters,
  toggledStatuses,
} from './claim-list.ts';
import { statusesByName } from './claim-workflow.ts';
import { withLabelNames } from '#common/name-labels.ts';
import { useClaimAbilities } from './use-claim-abilities.ts';

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

/**
 * The tenant's claims (spec route /claims), newest first: a search over title, number and policy
 * number, filters by status (several) and type, one sorted column; filters and sort live in the
 * address, so a link, a reload and a saved view reproduce the list, and the CSV export repeats it.
 */
export default function ClaimsPage() {
  const { t, i18n } = useTranslation('claims');
  usePageTitle(t('list.title'));
  const { accountIndex, canCreate, canViewPolicies } = useClaimAbilities();
  const url = useUrlFilters(CLAIM_LIST_KEYS, {
    typed: ['search'],
    sortColumns: Object.keys(CLAIM_ORDER_FIELDS),
  });
  const { statuses, claimType, search } = claimListFilters(url.values);
  const setParam = url.set;

  const statusQuery = useQuery(claimQueries.statuses(accountIndex));
  const statusState = loadStateOf(statusQuery);
  const retryStatuses = () => void statusQuery.refetch();
  const statusList = statusQuery.data;
  const shownStatuses = useMemo(
    () =>
      statusList ? statusesByName(withLabelNames(statusList, i18n.language), i18n.language) : [],
    [statusList, i18n.language],
  );

  const statusName = useCallback(
    (slug: string) => shownStatuses.find((s) => s.slug === slug)?.name,
    [shownStatuses],
  );
  // Stable while nothing they show changes: the table's rows are memoised on them.
  const columns = useMemo<TableColumn<Claim>[]>(
    () => [
      {
        id: 'number',
        header: t('columns.number'),
        sortable: true,
        width: '6.5rem',
        cell: (claim) => (
          <Link to={`/u/${accountIndex}/claims/${claim.code}`} className={linkClass}>
            {claim.claimNumber}
          </Link>
        ),
      },
      {
        id: 'title',
        header: t('columns.title'),
        sortable: true,
        width: '2fr',
        // Rows have one height, so a long title is cut: the title attribute shows it whole.
        cell: (c) => <span title={c.title}>{c.title}</span>,
      },
      {
        id: 'policy',
        header: t('columns.policy'),
        sortable: true,
        width: '7.5rem',
        cell: (c) =>
          canViewPolicies ? (
            <Link to={`/u/${accountIndex}/policies/${c.policyCode}`} className={linkClass}>
              {c.policyNumber}
            </Link>
          ) : (
            c.policyNumber
          ),
      },
      {
        id: 'holder',
        header: t('columns.holder'),
        sortable: true,
        width: '1.5fr',
        cell: (c) => {
          const holder = partyName(c.holder) || c.accountCode || '';
          return <span title={holder}>{holder}</span>;
        },
      },
      {
        id: 'status',
        header: t('columns.status'),
        sortable: true,
        width: '10rem',
        cell: (c) => <ClaimStatusBadge status={c.status} name={statusName(c.status)} />,
      },
      {
        id: 'damage',
        header: t('columns.damage_date'),
        sortable: true,
        width: '8rem',
        cell: (c) => formatDate(c.damageDate),
      },
      {
        id: 'created',
        header: t('columns.created'),
        sortable: true,
        // Date and time in full, in the longest display a tenant can choose ("28.10.2025
        // 09:05:12", "10/28/2025 09:05:12 PM"): 9rem cut the German time off at 1366 px.
        width: '12rem',
        cell: (c) => formatDateTime(c.createdAt),
      },
    ],
    [t, accountIndex, canViewPolicies, statusName],
  );

  const filtered = statuses.length > 0 || claimType !== '' || search !== '';
  return (
    <ListPage
      title={t('list.title')}
      newLink={canCreate ? { to: `/u/${accountIndex}/claims/new`, label: t('actions.new') } : null}
      search={{
        label: t('toolbar.search'),
        placeholder: t('toolbar.search_placeholder'),
      }}
      toolbar={
        <ToolbarSelect
          label={t('toolbar.type')}
          value={claimType}
          allLabel={t('toolbar.all')}
          options={CLAIM_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))}
          onChange={(value) => setParam('type', value)}
        />
      }
      notice={
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-slate-800">{t('toolbar.status')}</legend>
          {statusState.kind === 'failed' ? (
            <RetryAlert message={t('errors.statuses_failed')} onRetry={retryStatuses} />
          ) : (
            <div className="flex flex-wrap gap-x-4 gap-y-1 py-1">
              {shownStatuses.map((status) => (
                <label key={status.slug} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={statuses.includes(status.slug)}
                    onChange={(event) =>
                      setParam(
                        'status',
                        toggledStatuses(statuses, status.slug, event.target.checked, shownStatuses),
                      )
                    }
                  />
                  {status.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
      }
      service={{ orderFields: CLAIM_ORDER_FIELDS, params: claimsParams, fetchPage: listClaims }}
      url={url}
      totalLabel={(count, total) => t('list.total', { count, total })}
      accountIndex={accountIndex}
      list="claims"
      filters={{ statuses, claimType, search }}
      label={t('list.table')}
      columns={columns}
      // Fits 1280 px with the side menu open (about 59rem of room): the text columns share
      // what the fixed ones leave, and scroll sideways only on narrower screens.
      minWidth="56rem"
      emptyMessage={filtered ? t('list.empty_filtered') : t('list.empty')}
    />
  );
}
