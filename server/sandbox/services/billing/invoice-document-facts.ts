import type { Queryable } from '#server/sandbox/platform/db.ts';
import { SELECT_INVOICE, withDetails, type InvoiceRow } from './invoice-store.ts';

/** What the invoice document prints of an invoice, and whose documents it joins. */
export interface InvoiceDocumentFacts {
  policyCode: string | null;
  accountCode: string | null;
  /** The invoice as the document kinds' `invoice` variables: amounts in integer cents. */
  values: {
    number: string;
    type: string;
    status: string;
    createdAt: string;
    dueDate: string;
    periodFrom: string | null;
    periodTo: string | null;
    currency: string;
    netCents: number;
    taxCents: number;
    totalCents: number;
    positions: {
      name: string;
      quantity: number;
      unit: string;
      unitPriceCents: number;
      taxRate: number;
      netCents: number;
      taxCents: number;
      amountCents: number;
    }[];
  };
}

/**
 * The facts of an invoice that its document prints (the document service's `invoice` kind,
 * notification/document-variables.ts); null when the workspace has no such invoice. The billing
 * service owns its tables; the document service asks it here instead of reading them.
 */
export async function invoiceDocumentFacts(
  db: Queryable,
  tenantId: number,
  code: string,
): Promise<InvoiceDocumentFacts | null> {
  // $2 is the day `isOverdue` compares with, which the document does not print.
  const [row] = await db.query<InvoiceRow>(
    `${SELECT_INVOICE} WHERE i.tenant_id = $1 AND i.code = $3`,
    [tenantId, '1970-01-01', code],
  );
  if (!row) return null;
  const [i] = await withDetails(db, [row]);
  return {
    policyCode: i!.policy_code,
    accountCode: i!.account_code,
    values: {
      number: i!.invoice_number,
      type: i!.type,
      status: i!.status,
      createdAt: new Date(i!.created_at).toISOString().slice(0, 10),
      dueDate: i!.due_date,
      periodFrom: i!.billing_interval_from,
      periodTo: i!.billing_interval_to,
      currency: i!.currency,
      netCents: Number(i!.net_amount),
      taxCents: Number(i!.tax_amount),
      totalCents: Number(i!.gross_amount),
      positions: (i!.items ?? []).map((l) => ({
        name: l.name,
        quantity: l.quantity,
        unit: l.unit,
        unitPriceCents: l.pricePerUnit,
        taxRate: l.taxRateBp / 100,
        netCents: l.netAmount,
        taxCents: l.taxAmount,
        amountCents: l.grossAmount,
      })),
    },
  };
}
