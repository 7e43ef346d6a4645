import type { Queryable } from '#server/sandbox/platform/db.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { iso, recordKey } from '#server/sandbox/platform/records.ts';
import type { InvoiceLine } from './invoice-engine.ts';

/** Invoices as stored and as answered (docs/contracts.md, "Billing and payments (issue 18)"). */

export const invoiceNotFound = () => new HttpError(404, 'not_found', 'Invoice does not exist');

/**
 * The next invoice numbers of a workspace, one per entry of `years` in that order
 * (`INV-2026-000042`): one counter per year, taken under the row's lock.
 */
export async function reserveInvoiceNumbers(
  tx: Queryable,
  tenantId: number,
  years: readonly number[],
): Promise<string[]> {
  const counts = new Map<number, number>();
  for (const y of years) counts.set(y, (counts.get(y) ?? 0) + 1);
  const next = new Map<number, number>();
  for (const [year, count] of counts) {
    const [row] = await tx.query<{ last_number: number }>(
      `INSERT INTO invoice_counters (tenant_id, year, last_number) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, year)
       DO UPDATE SET last_number = invoice_counters.last_number + EXCLUDED.last_number
       RETURNING last_number`,
      [tenantId, year, count],
    );
    next.set(year, row!.last_number - count + 1);
  }
  return years.map((year) => {
    const n = next.get(year)!;
    next.set(year, n + 1);
    return `INV-${year}-${String(n).padStart(6, '0')}`;
  });
}

/** What a payment reads of an invoice it books against. */
export interface PayableInvoiceRow {
  id: number;
  code: string;
  policy_code: string | null;
  account_number: string | null;
  currency: string;
  gross_amount: string;
}

export interface InvoiceRow {
  id: number;
  code: string;
  invoice_number: string;
  policy_code: string | null;
  /** The policy's number (`POL-001995`); null when the policy is not found in the workspace. */
  policy_number: string | null;
  account_number: string | null;
  account_code: string | null;
  product_slug: string | null;
  type: string;
  status: string;
  net_amount: string;
  tax_amount: string;
  credit_amount: string;
  gross_amount: string;
  paid_amount: string;
  is_overdue: boolean;
  currency: string;
  currency_name: string;
  currency_symbol: string;
  currency_minor_units: number;
  due_date: string;
  billing_interval_from: string | null;
  billing_interval_to: string | null;
  created_at: Date;
  created_by: string;
  created_by_name: string | null;
  items?: InvoiceLine[];
  statuses?: { status: string; at: string; byName: string | null; reason?: string }[];
}

/**
 * The invoice columns; `$2` is the sandbox clock's today (YYYY-MM-DD), for `isOverdue`. Dates as
 * text: a DATE turned into a JavaScript Date would shift with the time zone.
 */
export const SELECT_INVOICE = `
  SELECT i.id, i.code, i.invoice_number, i.policy_code, i.account_number, i.account_code,
         i.product_slug, i.type, i.status, i.net_amount, i.tax_amount, i.credit_amount,
         i.gross_amount, i.paid_amount,
         (i.status IN ('open', 'partially-paid') AND i.due_date < $2::date) AS is_overdue,
         i.currency, c.name AS currency_name, c.symbol AS currency_symbol,
         c.minor_units AS currency_minor_units, to_char(i.due_date, 'YYYY-MM-DD') AS due_date,
         to_char(i.billing_interval_from, 'YYYY-MM-DD') AS billing_interval_from,
         to_char(i.billing_interval_to, 'YYYY-MM-DD') AS billing_interval_to,
         i.created_at, i.created_by,
         (SELECT nullif(trim(u.first_name || ' ' || u.last_name), '') FROM users u
           WHERE u.code = i.created_by) AS created_by_name,
         -- The number a clerk knows the policy by (issue 18), read for the page's rows only: a
         -- subselect on the unique policies.code, so the list's keyset walk stays as it was.
         (SELECT p.policy_number FROM policies p
           WHERE p.tenant_id = i.tenant_id AND p.code = i.policy_code) AS policy_number
    FROM invoices i JOIN currencies c ON c.code = i.currency`;

/** The lines and the status history of these invoices, onto their rows. */
export async function withDetails(db: Queryable, rows: InvoiceRow[]): Promise<InvoiceRow[]> {
  if (!rows.length) return rows;
  const ids = rows.map((r) => r.id);
  const items = await db.query<{ invoice_id: number } & InvoiceLine>(
    `SELECT invoice_id, name, quantity, price_per_unit::float8 AS "pricePerUnit",
            tax_rate_bp AS "taxRateBp", net_amount::float8 AS "netAmount",
            tax_amount::float8 AS "taxAmount", gross_amount::float8 AS "grossAmount", unit
       FROM invoice_items WHERE invoice_id = ANY($1::int[]) ORDER BY invoice_id, position`,
    [ids],
  );
  const statuses = await db.query<{
    invoice_id: number;
    status: string;
    at: Date;
    by_name: string | null;
    reason: string | null;
  }>(
    `SELECT invoice_id, status, at, by_name, reason FROM invoice_statuses
      WHERE invoice_id = ANY($1::int[]) ORDER BY invoice_id, id`,
    [ids],
  );
  for (const r of rows) {
    r.items = items.filter((i) => i.invoice_id === r.id);
    r.statuses = statuses
      .filter((s) => s.invoice_id === r.id)
      .map((s) => ({
        status: s.status,
        at: iso(s.at),
        byName: s.by_name,
        ...(s.reason ? { reason: s.reason } : {}),
      }));
  }
  return rows;
}

/** The tax rate in percent from basis points: 1900 -> 19, 725 -> 7.25. */
const percent = (bp: number) => bp / 100;

export function presentInvoice(r: InvoiceRow, expandCurrency: boolean) {
  const gross = Number(r.gross_amount);
  const paid = Number(r.paid_amount);
  return {
    id: r.id,
    code: r.code,
    invoiceNumber: r.invoice_number,
    policyCode: r.policy_code,
    policyNumber: r.policy_number,
    accountNumber: r.account_number,
    accountCode: r.account_code,
    productSlug: r.product_slug,
    type: r.type,
    status: r.status,
    netAmount: Number(r.net_amount),
    taxAmount: Number(r.tax_amount),
    creditAmount: Number(r.credit_amount),
    grossAmount: gross,
    paidAmount: paid,
    openAmount: gross > 0 ? Math.max(0, gross - paid) : 0,
    isOverdue: r.is_overdue,
    currency: expandCurrency
      ? {
          code: r.currency,
          name: r.currency_name,
          symbol: r.currency_symbol,
          minorUnits: r.currency_minor_units,
        }
      : r.currency,
    dueDate: r.due_date,
    billingIntervalFrom: r.billing_interval_from,
    billingIntervalTo: r.billing_interval_to,
    invoiceItems: (r.items ?? []).map(({ taxRateBp, ...item }) => ({
      name: item.name,
      quantity: item.quantity,
      pricePerUnit: item.pricePerUnit,
      taxRate: percent(taxRateBp),
      netAmount: item.netAmount,
      taxAmount: item.taxAmount,
      grossAmount: item.grossAmount,
      unit: item.unit,
    })),
    statuses: r.statuses ?? [],
    createdAt: iso(r.created_at),
    createdBy: r.created_by,
    createdByName: r.created_by_name,
  };
}

/** `{code}` is the numeric id or the code (`inv_...`); another workspace's is a 404 alike. */
export async function findInvoice(
  db: Queryable,
  tenantId: number,
  key: string,
  today: string,
): Promise<InvoiceRow> {
  const { byId, value } = recordKey(key, 'inv', invoiceNotFound);
  const [row] = await db.query<InvoiceRow>(
    `${SELECT_INVOICE} WHERE i.tenant_id = $1 AND ${byId ? 'i.id' : 'i.code'} = $3`,
    [tenantId, today, value],
  );
  if (!row) throw invoiceNotFound();
  const [detailed] = await withDetails(db, [row]);
  return detailed!;
}
