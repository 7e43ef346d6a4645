import { Link } from 'react-router';
import type { Lead, LeadStatus } from '#client/api/leads-client.ts';
import { formatDate } from '#client/ui/form/dates.ts';
import type { TableColumn } from '#client/ui/infinite-table.tsx';
import { LeadStatusBadge } from './lead-status.tsx';
import { useMoneyFormat } from '#client/ui/money.ts';

export type LeadColumnId = 'number' | 'product' | 'status' | 'premium' | 'created';

/**
 * The columns every list of leads shows (the leads page, a customer's leads tab): the number
 * opening the lead, product, status, premium and creation day. Headers come from the caller's
 * namespace; the tenant's status names, when loaded, label statuses without a translation.
 */
export function useLeadColumns(
  accountIndex: number,
  headers: Record<LeadColumnId, string>,
  statuses: readonly LeadStatus[] = [],
): Record<LeadColumnId, TableColumn<Lead>> {
  const money = useMoneyFormat();
  return {
    number: {
      id: 'number',
      header: headers.number,
      width: '9rem',
      cell: (lead) => (
        <Link
          to={`/u/${accountIndex}/leads/${lead.code}`}
          className="font-medium text-blue-800 underline-offset-2 hover:underline"
        >
          {lead.leadNumber}
        </Link>
      ),
    },
    product: { id: 'product', header: headers.product, width: '2fr', cell: (l) => l.productName },
    status: {
      id: 'status',
      header: headers.status,
      width: '9rem',
      cell: (l) => (
        <LeadStatusBadge status={l.status} named={statuses.find((s) => s.slug === l.status)} />
      ),
    },
    premium: {
      id: 'premium',
      header: headers.premium,
      width: '8rem',
      cell: (l) => money(l.premium.grandTotal, l.premium.currency),
    },
    created: {
      id: 'created',
      header: headers.created,
      width: '7rem',
      cell: (l) => formatDate(l.createdAt),
    },
  };
}
