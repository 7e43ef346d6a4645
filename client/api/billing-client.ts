import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';

/** A row of the finance report: one month and product, amounts in cents. */
export interface FinanceRow {
  month: string;
  productSlug: string;
  productName: string;
  written: number;
  invoiced: number;
  paid: number;
  open: number;
  overdue: number;
}

/**
 * Invoices and the finance report of the billing service through the BFF proxy (docs/contracts.md,
 * "Billing and payments"); the payments booked on them are in ./payments-client.ts. Amounts are
 * integer cents; a screen divides by 100 only to show them.
 */

export const INVOICE_TYPES = [
  'initial',
  'recurring',
  'correction',
  'estimated',
  'penalty',
  'other',
  'withdraw',
  'final',
] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

export const INVOICE_STATUSES = ['open', 'partially-paid', 'paid', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** `currency` is the ISO code, or its details with `expand=currency` (the service's default). */
export type InvoiceCurrency = string | { code: string; name?: string; symbol?: string };

export interface InvoiceItem {
  name: string;
  quantity: number;
  pricePerUnit: number;
  taxRate: number;
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
  unit?: string | null;
}

export interface Invoice {
  id: number;
  code: string;
  invoiceNumber: string;
  policyCode: string | null;
  /** The policy's number (`POL-001995`); null when the service found none (shown: the code). */
  policyNumber?: string | null;
  accountNumber: string | null;
  accountCode?: string | null;
  productSlug?: string | null;
  type: InvoiceType;
  status: InvoiceStatus;
  netAmount: number;
  taxAmount: number;
  creditAmount: number;
  grossAmount: number;
  paidAmount: number;
  openAmount: number;
  isOverdue: boolean;
  currency: InvoiceCurrency;
  dueDate: string;
  billingIntervalFrom: string | null;
  billingIntervalTo: string | null;
  invoiceItems: InvoiceItem[];
  statuses?: { status: InvoiceStatus; at: string; byName?: string | null; reason?: string }[];
  createdAt: string;
  createdByName?: string | null;
}

/** The locale key of a status or method: the service's kebab-case values as snake_case leaves. */
export const textKey = <T extends string>(value: T) =>
  value.replace(/-/g, '_') as T extends `${infer A}-${infer B}` ? `${A}_${B}` : T;

/** The ISO code of an invoice's currency, EUR when the service names none (the spec's default). */
export function currencyCode(currency: InvoiceCurrency | null | undefined): string {
  if (!currency) return 'EUR';
  return typeof currency === 'string' ? currency : currency.code || 'EUR';
}

export type InvoiceOrderField = 'dueDate' | 'createdAt' | 'invoiceNumber' | 'grossAmount';

/** Spec: lists default to 30. */
export const INVOICES_PAGE_SIZE = 30;

export interface InvoicesQuery {
  pageToken?: string;
  pageSize?: number;
  search?: string;
  status?: string;
  type?: string;
  overdue?: string;
  dueDateFrom?: string;
  dueDateTo?: string;
  policyCode?: string;
  accountCode?: string;
  order?: { field: InvoiceOrderField; direction: 'ASC' | 'DESC' } | null;
}

const base = (accountIndex: number) => `/api/${accountIndex}/billingservice/v1`;

/** The list's query string (the CSV export sends the same one). */
export function invoicesParams(query: InvoicesQuery): string {
  return listParams({
    pageSize: query.pageSize ?? INVOICES_PAGE_SIZE,
    ...(query.pageToken ? { pageToken: query.pageToken } : {}),
    filter: {
      status: query.status,
      type: query.type,
      overdue: query.overdue,
      dueDateFrom: query.dueDateFrom,
      dueDateTo: query.dueDateTo,
      policyCode: query.policyCode,
      accountCode: query.accountCode,
    },
    order: query.order ?? null,
    ...(query.search !== undefined ? { search: query.search } : {}),
    expand: ['currency'],
  });
}

export function listInvoices(
  accountIndex: number,
  query: InvoicesQuery,
  signal?: AbortSignal,
): Promise<Page<Invoice>> {
  return fetchJson(`${base(accountIndex)}/invoices?${invoicesParams(query)}`, {
    signal,
  });
}

/** `ref` is the invoice's code or id; a 404 means it does not exist (or is another tenant's). */
export async function getInvoice(accountIndex: number, ref: string, signal?: AbortSignal) {
  const res = await fetchJson<{ invoice: Invoice }>(
    `${base(accountIndex)}/invoices/${encodeURIComponent(ref)}?expand=currency`,
    { signal },
  );
  return res.invoice;
}

/**
 * The finance report (docs/contracts.md, "Finance report"): per month (YYYY-MM) and product the
 * premium written, invoiced, paid, open and overdue, in cents, summed by the billing service.
 */
export async function getFinanceReport(
  accountIndex: number,
  range: { from: string; to: string },
  signal?: AbortSignal,
) {
  const params = new URLSearchParams(range);
  const res = await fetchJson<{ rows: FinanceRow[]; currency?: string }>(
    `${base(accountIndex)}/reports/finance?${params}`,
    { signal },
  );
  return res;
}
