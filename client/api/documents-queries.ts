import {
  LEAD_DOCUMENTS_PAGE_SIZE,
  listClaimDocuments,
  listCustomerDocuments,
  listDocumentOwners,
  listEntityDocuments,
  type DocumentMeta,
} from './documents-client.ts';
import { LEAD_ENTITY_TYPE } from '#common/leads.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of the document service's lists, defined once. */
export const documentQueries = {
  /** Every list of documents: invalidated after an upload or a delete. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'documents'] as const,
  ofCustomer: (
    accountIndex: number,
    accountCode: string,
    range: { from?: string | null; to?: string | null },
  ) =>
    keyedQuery(
      [...documentQueries.all(accountIndex), 'customer', accountCode, range],
      async (signal) =>
        (await listCustomerDocuments(accountIndex, { accountCode, ...range }, signal)).items,
    ),
  ofClaim: (
    accountIndex: number,
    claimId: number,
    range: { from?: string | null; to?: string | null },
  ) =>
    keyedQuery(
      [...documentQueries.all(accountIndex), 'claim', claimId, range],
      async (signal) =>
        (await listClaimDocuments(accountIndex, { claimId, ...range }, signal)).items,
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
  ofLead: (
    accountIndex: number,
    leadCode: string,
    range: { from?: string | null; to?: string | null },
    pages: number,
  ) =>
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
