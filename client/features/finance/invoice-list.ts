import {
  INVOICE_STATUSES,
  INVOICE_TYPES,
  type InvoiceStatus,
  type InvoiceType,
} from '#client/api/billing-client.ts';
import { isIsoDate } from '#client/ui/form/dates.ts';

/**
 * The invoice list's filters as the address keeps them (`?status=open&overdue=1&due_from=
 * 2026-01-01&sort=due:asc`), read back leniently: an unknown status, type or a date that is no
 * date falls back to "any", so a hand-edited address never breaks the list.
 */
export const INVOICE_LIST_KEYS = [
  'status',
  'type',
  'overdue',
  'due_from',
  'due_to',
  'policy',
  'search',
  'sort',
] as const;
export type InvoiceListKey = (typeof INVOICE_LIST_KEYS)[number];

/**
 * The applied filters as the billing service names them ('' = no filter). A type, not an
 * interface: an object type gets the implicit index signature ListFilters asks for, so ListPage's
 * query keeps these fields' own types and is a billing client's InvoicesQuery as it is.
 */
export type InvoiceListFilters = {
  status: InvoiceStatus | '';
  type: InvoiceType | '';
  overdue: 'true' | '';
  dueDateFrom: string;
  dueDateTo: string;
  policyCode: string;
  search: string;
};

export function invoiceListFilters(
  values: Readonly<Record<InvoiceListKey, string>>,
): InvoiceListFilters {
  const date = (text: string) => (isIsoDate(text) ? text : '');
  return {
    status: (INVOICE_STATUSES as readonly string[]).includes(values.status)
      ? (values.status as InvoiceStatus)
      : '',
    type: (INVOICE_TYPES as readonly string[]).includes(values.type)
      ? (values.type as InvoiceType)
      : '',
    overdue: values.overdue === '1' ? 'true' : '',
    dueDateFrom: date(values.due_from),
    dueDateTo: date(values.due_to),
    policyCode: values.policy.trim(),
    search: values.search.trim(),
  };
}
