import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { partyName } from '#common/party-name.ts';
import { PREMIUM_UNITS, type PremiumUnit } from '#common/products.ts';
import {
  listPolicyRows,
  POLICY_STATUSES,
  type PolicyRow,
  type PolicySortField,
  type PolicyStatus,
} from '#client/api/policies-client.ts';
import { usePolicyAbilities } from '#client/api/use-policy-abilities.ts';
import {
  InfiniteTable,
  totalCountOf,
  type LoadTablePage,
  type TableColumn,
} from '#client/ui/infinite-table.tsx';
import { serviceOrder, type TableSort } from '#client/ui/table-sort.ts';
import { formatDate } from '#client/ui/form/dates.ts';
import { formatUtcDate } from './policy-display.ts';
import { formatMoney, prepareMoneyFormat } from '#client/ui/money.ts';
import { policyStatusClass, policyStatusKey } from './policy-status-badge.tsx';

export interface PolicyListFilters {
  statuses: readonly PolicyStatus[];
  productSlug: string;
  /** A customer's policies only (the customer's policies tab). */
  accountCode: string;
  search: string;
  order: 'newest' | 'oldest';
}

export const noPolicyFilters: PolicyListFilters = {
  statuses: [],
  productSlug: '',
  accountCode: '',
  search: '',
  order: 'newest',
};

/**
 * A policy as the table shows it. The texts that do not depend on the language are made once
 * when the page arrives, not on every render: a scrolling table renders its visible rows often.
 */
interface TableRow {
  /** The list's row of the policy, with its current premium (no timeline). */
  policy: PolicyRow;
  holder: string;
  start: string;
  created: string;
}

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

/** The table's sortable columns and the service's field each sorts by (issue 15). */
export const POLICY_SORT_COLUMNS: Readonly<Record<string, PolicySortField>> = {
  number: 'policyNumber',
  holder: 'holder',
  product: 'productName',
  status: 'status',
  start: 'policyStartDate',
  premium: 'premium',
};

/** The service's order for the table's sort; null (the `order` filter's id order) when unsorted. */
export const policySort = (sort: TableSort) =>
  serviceOrder(sort, POLICY_SORT_COLUMNS) as {
    field: PolicySortField;
    direction: 'ASC' | 'DESC';
  } | null;

/**
 * Policies in the infinite table (keyset pages of the service, more within 20 px of the bottom,
 * a retry button once automatic loading stops). Used by the policy list and the customer's
 * policies tab; a change of `filters` starts again from the first page. Texts come from the
 * `policies` namespace, which loads with the first screen that shows the table.
 */
export function PoliciesTable({
  filters,
  label,
  emptyMessage,
  showHolder = true,
  height,
  sort = null,
  onSort,
  viewKey,
}: {
  filters: PolicyListFilters;
  label: string;
  emptyMessage: string;
  showHolder?: boolean;
  height?: number;
  /** The sort the table starts with (a list page reads it from the address). */
  sort?: TableSort;
  /** Told the sort of each load, for a page that keeps it in the address. */
  onSort?: (sort: TableSort) => void;
  /** Changes when a saved view is applied: the table starts anew with the view's sort. */
  viewKey?: unknown;
}) {
  const { t, i18n } = useTranslation('policies');
  const { accountIndex, canViewCustomers } = usePolicyAbilities();
  // The policy's back link returns to this very list, filters included.
  const location = useLocation();
  const from = `${location.pathname}${location.search}`;

  useEffect(() => prepareMoneyFormat(i18n.language), [i18n.language]);

  const loadPage = useCallback<LoadTablePage<TableRow>>(
    async (input, signal) => {
      const page = await listPolicyRows(
        accountIndex,
        {
          pageToken: input.pageToken,
          pageSize: input.pageSize,
          statuses: filters.statuses,
          productSlug: filters.productSlug || undefined,
          accountCode: filters.accountCode || undefined,
          search: filters.search || undefined,
          order: filters.order,
          sort: policySort(input.query.sort),
        },
        signal,
      );
      const rows = page.items.map((policy) => ({
        policy,
        holder: partyName(policy.holder) || policy.accountCode || '',
        start: formatUtcDate(policy.policyStartDate),
        created: formatDate(policy.createdAt),
      }));
      return {
        rows,
        nextPageToken: page.nextPageToken,
        ...totalCountOf(page),
      };
    },
    [accountIndex, filters],
  );

  // Translated once per render of the table, not once per cell.
  const statusLabels = Object.fromEntries(
    POLICY_STATUSES.map((status) => [status, t(policyStatusKey(status))]),
  ) as Record<PolicyStatus, string>;
  const unitLabels = Object.fromEntries(
    PREMIUM_UNITS.map((unit) => [unit, t(`per_unit.${unitKey(unit)}`)]),
  ) as Record<PremiumUnit, string>;

  const columns: TableColumn<TableRow>[] = [
    {
      id: 'number',
      sortable: true,
      header: t('columns.number'),
      width: '9rem',
      cell: ({ policy }) => (
        <Link
          to={`/u/${accountIndex}/policies/${policy.code}`}
          state={{ policyList: from }}
          className={linkClass}
        >
          {policy.policyNumber}
        </Link>
      ),
    },
    {
      id: 'product',
      sortable: true,
      header: t('columns.product'),
      width: '1.5fr',
      cell: ({ policy }) => policy.productName,
    },
    ...(showHolder
      ? [
          {
            id: 'holder',
            header: t('columns.holder'),
            sortable: true,
            width: '1.5fr',
            cell: ({ policy, holder }: TableRow) =>
              canViewCustomers && policy.accountCode ? (
                <Link
                  to={`/u/${accountIndex}/customers/${policy.accountCode}`}
                  className={linkClass}
                >
                  {holder}
                </Link>
              ) : (
                holder
              ),
          },
        ]
      : []),
    {
      id: 'status',
      sortable: true,
      header: t('columns.status'),
      width: '8rem',
      cell: ({ policy }) => (
        <span className={policyStatusClass(policy.status)}>{statusLabels[policy.status]}</span>
      ),
    },
    {
      id: 'start',
      sortable: true,
      header: t('columns.start'),
      width: '7rem',
      cell: ({ start }) => start,
    },
    {
      id: 'premium',
      sortable: true,
      header: t('columns.premium'),
      width: '10rem',
      cell: ({ policy: { premium } }) =>
        premium ? (
          <span className="tabular-nums">
            {formatMoney(premium.grandTotal, premium.currency, i18n.language)}
            {premium.unit ? (
              <span className="text-slate-600"> {unitLabels[premium.unit]}</span>
            ) : null}
          </span>
        ) : (
          <span className="text-slate-600">{t('no_premium')}</span>
        ),
    },
    {
      id: 'created',
      header: t('columns.created'),
      width: '7rem',
      cell: ({ created }) => created,
    },
  ];

  return (
    <InfiniteTable
      key={JSON.stringify({ filters, viewKey })}
      initialQuery={{ filters: {}, sort }}
      {...(onSort ? { onSort } : {})}
      totalLabel={(count, total) => t('list.total', { count, total })}
      label={label}
      columns={columns}
      minWidth={showHolder ? '64rem' : '52rem'}
      loadPage={loadPage}
      rowKey={(row) => String(row.policy.id)}
      emptyMessage={emptyMessage}
      {...(height ? { height } : {})}
    />
  );
}

/** Locale leaf of a unit: camelCase values, snake_case leaves. */
export const unitKey = (unit: PremiumUnit) =>
  unit.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) as 'day' | 'one_time_payment';
