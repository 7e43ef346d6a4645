import { queryOptions } from '@tanstack/react-query';
import { listCustomerDocuments, listDocumentOwners } from './documents-client.ts';
import { accountKey } from './query-keys.ts';

/** The keys and loads of the document service's lists, defined once. */
export const documentQueries = {
  /** Every list of documents: invalidated after an upload or a delete. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'documents'] as const,
  ofCustomer: (
    accountIndex: number,
    accountCode: string,
    range: { from?: string | null; to?: string | null },
  ) =>
    queryOptions({
      queryKey: [...documentQueries.all(accountIndex), 'customer', accountCode, range],
      queryFn: async ({ signal }) =>
        (await listCustomerDocuments(accountIndex, { accountCode, ...range }, signal)).items,
    }),
  owners: (accountIndex: number, productSlug: string) =>
    queryOptions({
      queryKey: [...documentQueries.all(accountIndex), 'owners', productSlug],
      queryFn: async ({ signal }) =>
        (await listDocumentOwners(accountIndex, productSlug, signal)).items,
    }),
};
