import { listPolicyRows } from '#client/api/policies-client.ts';
import { listClaims } from '#client/api/claims-client.ts';
import { listInvoices } from '#client/api/billing-client.ts';

export interface PreviewRecord {
  code: string;
  label: string;
}

const NEWEST = 20;

/**
 * The newest records a document template of `kind` can be previewed with (the policy schedule
 * with a real policy): the 20 newest of the kind, by number; null for kinds without records.
 */
export async function newestRecordsOf(
  kind: string,
  accountIndex: number,
  signal: AbortSignal,
): Promise<PreviewRecord[] | null> {
  if (kind === 'policy') {
    const page = await listPolicyRows(accountIndex, { pageToken: null, pageSize: NEWEST }, signal);
    return page.items.map((p) => ({ code: p.code, label: `${p.policyNumber} · ${p.productName}` }));
  }
  if (kind === 'claim') {
    const page = await listClaims(accountIndex, { pageSize: NEWEST }, signal);
    return page.items.map((c) => ({ code: c.code, label: `${c.claimNumber} · ${c.title}` }));
  }
  if (kind === 'invoice') {
    const page = await listInvoices(accountIndex, { pageSize: NEWEST }, signal);
    return page.items.map((i) => ({ code: i.code, label: i.invoiceNumber }));
  }
  return null;
}
