import { queryOptions } from '@tanstack/react-query';
import {
  getProduct,
  listAllProducts,
  listInsuredObjects,
  listPremiumFormulas,
} from './products-client.ts';
import { accountKey } from './query-keys.ts';

/** The keys and loads of products and their versions' parts, defined once. */
export const productQueries = {
  /** Everything of the products: invalidated after a product, version or part is saved. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'products'] as const,
  /** Every product of the tenant, for a filter or a chooser. */
  list: (accountIndex: number) =>
    queryOptions({
      queryKey: [...productQueries.all(accountIndex), 'list'],
      queryFn: ({ signal }) => listAllProducts(accountIndex, signal),
    }),
  detail: (accountIndex: number, productId: string) =>
    queryOptions({
      queryKey: [...productQueries.all(accountIndex), 'detail', productId],
      queryFn: ({ signal }) => getProduct(accountIndex, productId, signal),
    }),
  /** A version's parts live under one prefix, so a change to one of them invalidates them all. */
  version: (accountIndex: number, versionId: number) =>
    [...productQueries.all(accountIndex), 'version', versionId] as const,
  insuredObjects: (accountIndex: number, versionId: number) =>
    queryOptions({
      queryKey: [...productQueries.version(accountIndex, versionId), 'insured-objects'],
      queryFn: ({ signal }) => listInsuredObjects(accountIndex, versionId, signal),
    }),
  premiumFormulas: (accountIndex: number, versionId: number) =>
    queryOptions({
      queryKey: [...productQueries.version(accountIndex, versionId), 'premium-formulas'],
      queryFn: ({ signal }) => listPremiumFormulas(accountIndex, versionId, signal),
    }),
};
