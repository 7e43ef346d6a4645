import {
  INVOICE_DOCUMENTS_PAGE_SIZE,
  LEAD_DOCUMENTS_PAGE_SIZE,
  listClaimDocuments,
  listCustomerDocuments,
  listDocumentOwners,
  listEntityDocuments,
  listPolicyDocuments,
  type DocumentMeta,
} from './documents-client.ts';
import type { Page } from './tenant-admin-client.ts';
import { LEAD_ENTITY_TYPE } from '#common/leads.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** A choice of the documents time filter: ISO instants, either end open. */
type DocumentRange = { from?: string | null; to?: string | null };

/**
 * The first page of one owner's documents within a time range (a customer's, a claim's, a
 * policy's): keyed by the kind of owner, the owner and the range.
 */
function rangedList<const TOwner extends string, const TId extends string | number>(
  accountIndex: number,
  owner: TOwner,
  id: TId,
  range: DocumentRange,
  load: (signal: AbortSignal) => Promise<Page<DocumentMeta>>,
) {
  return keyedQuery(
    [...documentQueries.all(accountIndex), owner, id, range],
    async (signal) => (await load(signal)).items,
  );
}

/** The keys and loads of the document service's lists, defined once. */
export const documentQueries = {
  /** Every list of documents: invalidated after an upload or a delete. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'documents'] as const,
  ofCustomer: (accountIndex: number, accountCode: string, range: DocumentRange) =>
    rangedList(accountIndex, 'customer', accountCode, range, (signal) =>
      listCustomerDocuments(accountIndex, { accountCode, ...range }, signal),
    ),
  ofClaim: (accountIndex: number, claimId: number, range: DocumentRange) =>
    rangedList(accountIndex, 'claim', claimId, range, (signal) =>
      listClaimDocuments(accountIndex, { claimId, ...range }, signal),
    ),
  /** A policy's documents: its issued schedules and the files of its claims. */
  ofPolicy: (accountIndex: number, policyCode: string, range: DocumentRange) =>
    rangedList(accountIndex, 'policy', policyCode, range, (signal) =>
      listPolicyDocuments(accountIndex, { policyCode, ...range }, signal),
    ),
  /** An invoice's documents: the invoice the document service issued for it (issue 19). */
  ofInvoice: (accountIndex: number, invoiceCode: string, range: DocumentRange) =>
    rangedList(accountIndex, 'invoice', invoiceCode, range, (signal) =>
      listEntityDocuments(
        accountIndex,
        {
          entityType: 'invoice',
          entityId: invoiceCode,
          pageSize: INVOICE_DOCUMENTS_PAGE_SIZE,
          newestFirst: true,
          ...range,
        },
        signal,
      ),
    ),
  owners: (accountIndex: number, productSlug: string) =>
    keyedQuery(
      [...documentQueries.all(accountIndex), 'owners', productSlug],
      async (signal) => (await listDocumentOwners(accountIndex, productSlug, signal)).items,
    ),
  /**
   * A lead's documents, the first `pages` pages of 20 fetched in one go: "more" asks for one page
   * more and shows the longer list once it is there, as the tab always did.
   */
  ofLead: (accountIndex: number, leadCode: string, range: DocumentRange, pages: number) =>
    keyedQuery(
      [...documentQueries.all(accountIndex), 'lead', leadCode, range, pages],
      async (signal) => {
        const items: DocumentMeta[] = [];
        let more = false;
        for (let page = 1; page <= pages; page += 1) {
          const result = await listEntityDocuments(
            accountIndex,
            {
              entityType: LEAD_ENTITY_TYPE,
              entityId: leadCode,
              page,
              pageSize: LEAD_DOCUMENTS_PAGE_SIZE,
              ...range,
            },
            signal,
          );
          items.push(...result.items);
          more = result.nextPageToken !== null;
          if (!more) break;
        }
        return { items, more };
      },
    ),
};
