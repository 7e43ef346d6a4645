import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  currencyCode,
  listInvoices,
  type Invoice,
  type InvoiceStatus,
  type InvoicesQuery,
  textKey,
} from '#client/api/billing-client.ts';
import { formatDate } from '#client/ui/form/dates.ts';
import {
  InfiniteTable,
  totalCountOf,
  type LoadTablePage,
  type TableColumn,
} from '#client/ui/infinite-table.tsx';
import { prepareMoneyFormat, useMoneyFormat } from '#client/ui/money.ts';
import { serviceOrder } from '#client/ui/table-sort.ts';

const badge = 'inline-block rounded px-2 py-0.5 text-xs font-semibold';
const STATUS_STYLE: Record<InvoiceStatus | 'overdue', string> = {
  open: 'bg-sky-100 text-sky-900',
  'partially-paid': 'bg-amber-100 text-amber-900',
  paid: 'bg-green-100 text-green-900',
  refunded: 'bg-slate-200 text-slate-800',
  overdue: 'bg-red-100 text-red-900',
};

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

/** The invoice table's sortable columns and the billing service's field each sorts by. */
export const INVOICE_ORDER_FIELDS = {
  number: 'invoiceNumber',
  due: 'dueDate',
  gross: 'grossAmount',
  created: 'createdAt',
} as const;

/**
 * The invoice table's width below which it scrolls sideways: its fixed columns (64.5rem) and the
 * policy's 12rem when it shows, so that no column is squeezed.
 */
export const invoiceTableMinWidth = (showPolicy: boolean) => (showPolicy ? '77rem' : '65rem');

/** Where an invoice's page is. */
export const invoicePath = (accountIndex: number, code: string) =>
  `/u/${accountIndex}/finance-management/finance-invoices/${encodeURIComponent(code)}`;

/**
 * An invoice's policy by its number (`POL-001995`), which a clerk knows, rather than its code
 * (`pol_…`), which none does; the code when the service found no number. Linked to the policy's
 * page for whoever may see policies.
 */
export function InvoicePolicy({
  invoice,
  accountIndex,
  canViewPolicies,
}: {
  invoice: Pick<Invoice, 'policyCode' | 'policyNumber'>;
  accountIndex: number;
  canViewPolicies: boolean;
}) {
  const { policyCode } = invoice;
  if (!policyCode) return null;
  const text = invoice.policyNumber || policyCode;
  return canViewPolicies ? (
    <Link
      to={`/u/${accountIndex}/policies/${encodeURIComponent(policyCode)}`}
      className={linkClass}
    >
      {text}
    </Link>
  ) : (
    text
  );
}

/**
 * An invoice's status, and "overdue" beside it when it is open past its due date: the service
 * works that out on its clock (`isOverdue`), so every screen agrees on it.
 */
export function InvoiceStatusBadge({
  invoice,
}: {
  invoice: Pick<Invoice, 'status' | 'isOverdue'>;
}) {
  const { t } = useTranslation('finance');
  return (
    <span className="inline-flex flex-wrap gap-1">
      <span className={`${badge} ${STATUS_STYLE[invoice.status]}`}>
        {t(`statuses.${textKey(invoice.status)}`)}
      </span>
      {invoice.isOverdue ? (
        <span className={`${badge} ${STATUS_STYLE.overdue}`}>{t('statuses.overdue')}</span>
      ) : null}
    </span>
  );
}

/** An amount of cents in the invoice's currency, in the reader's language. */
export function useInvoiceMoney() {
  const money = useMoneyFormat();
  return useCallback(
    (cents: number, invoice: Pick<Invoice, 'currency'>) =>
      money(cents / 100, currencyCode(invoice.currency)),
    [money],
  );
}

/** A billing period as "01.01.2026 – 31.01.2026"; empty without one. */
export function periodOf(invoice: Pick<Invoice, 'billingIntervalFrom' | 'billingIntervalTo'>) {
  if (!invoice.billingIntervalFrom) return '';
  return `${formatDate(invoice.billingIntervalFrom)} – ${formatDate(invoice.billingIntervalTo)}`;
}

/**
 * The columns of an invoice table: the list page shows them all, a policy's billing tab leaves
 * the policy out. Stable while the language and links stay, since the table memoises its rows.
 */
export function useInvoiceColumns({
  accountIndex,
  showPolicy,
  canViewPolicies,
}: {
  accountIndex: number;
  showPolicy: boolean;
  canViewPolicies: boolean;
}): TableColumn<Invoice>[] {
  const { t } = useTranslation('finance');
  const amount = useInvoiceMoney();
  return useMemo(() => {
    const columns: (TableColumn<Invoice> | null)[] = [
      {
        id: 'number',
        header: t('columns.number'),
        sortable: true,
        width: '9.5rem',
        cell: (invoice) => (
          <Link to={invoicePath(accountIndex, invoice.code)} className={linkClass}>
            {invoice.invoiceNumber}
          </Link>
        ),
      },
      showPolicy
        ? {
            id: 'policy',
            header: t('columns.policy'),
            // Room for a policy code (pol_ and 16 characters): as a bare 1fr it got what the fixed
            // columns left, nothing below about 75rem, and its header broke letter by letter.
            width: 'minmax(12rem, 1fr)',
            cell: (invoice) => (
              <InvoicePolicy
                invoice={invoice}
                accountIndex={accountIndex}
                canViewPolicies={canViewPolicies}
              />
            ),
          }
        : null,
      {
        id: 'type',
        header: t('columns.type'),
        width: '8rem',
        cell: (invoice) => t(`types.${invoice.type}`),
      },
      {
        id: 'period',
        header: t('columns.period'),
        width: '13rem',
        cell: (invoice) => periodOf(invoice),
      },
      {
        id: 'due',
        header: t('columns.due'),
        sortable: true,
        width: '7rem',
        cell: (invoice) => formatDate(invoice.dueDate),
      },
      {
        id: 'gross',
        header: t('columns.gross'),
        sortable: true,
        width: '8rem',
        cell: (invoice) => (
          <span className="block text-right tabular-nums">
            {amount(invoice.grossAmount, invoice)}
          </span>
        ),
      },
      {
        id: 'open',
        header: t('columns.open'),
        width: '8rem',
        cell: (invoice) => (
          <span className="block text-right tabular-nums">
            {amount(invoice.openAmount, invoice)}
          </span>
        ),
      },
      {
        id: 'status',
        header: t('columns.status'),
        width: '11rem',
        cell: (invoice) => <InvoiceStatusBadge invoice={invoice} />,
      },
    ];
    return columns.filter((c): c is TableColumn<Invoice> => c !== null);
  }, [t, amount, accountIndex, showPolicy, canViewPolicies]);
}

/**
 * The invoices of one policy or one customer (their billing and invoices tabs), newest due date
 * first, in the infinite table; the list page has its filters and views, this has none.
 */
export function InvoicesTable({
  accountIndex,
  filter,
  label,
  canViewPolicies,
  height = 400,
}: {
  accountIndex: number;
  filter: Pick<InvoicesQuery, 'policyCode' | 'accountCode'>;
  label: string;
  canViewPolicies: boolean;
  height?: number;
}) {
  const { t, i18n } = useTranslation('finance');
  useEffect(() => prepareMoneyFormat(i18n.language), [i18n.language]);
  const showPolicy = filter.policyCode === undefined;
  const columns = useInvoiceColumns({ accountIndex, showPolicy, canViewPolicies });
  const { policyCode, accountCode } = filter;
  const loadPage = useCallback<LoadTablePage<Invoice>>(
    async (input, signal) => {
      const order = serviceOrder(input.query.sort, INVOICE_ORDER_FIELDS) as InvoicesQuery['order'];
      const page = await listInvoices(
        accountIndex,
        {
          ...(input.pageToken ? { pageToken: input.pageToken } : {}),
          pageSize: input.pageSize,
          policyCode,
          accountCode,
          order: order ?? { field: 'dueDate', direction: 'DESC' },
        },
        signal,
      );
      return {
        rows: page.items,
        nextPageToken: page.nextPageToken,
        ...totalCountOf(page),
      };
    },
    [accountIndex, policyCode, accountCode],
  );
  return (
    <InfiniteTable
      label={label}
      columns={columns}
      loadPage={loadPage}
      rowKey={(invoice) => invoice.code}
      height={height}
      minWidth={invoiceTableMinWidth(showPolicy)}
      emptyMessage={t('list.empty')}
      totalLabel={(count, total) => t('list.total', { count, total })}
    />
  );
}
