import { getPartner, listPartnerTags } from './partners-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of partners, defined once. */
export const partnerQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'partners'] as const,
  /** One partner by id or code (`ptn_...`), with its type and tags. */
  detail: (accountIndex: number, ref: string) =>
    keyedQuery(
      [...partnerQueries.all(accountIndex), 'detail', ref],
      async (signal) => (await getPartner(accountIndex, ref, signal)).partner,
    ),
  /** The tenant's partner tags (the list's filter). */
  tags: (accountIndex: number) =>
    keyedQuery(
      [...partnerQueries.all(accountIndex), 'tags'],
      async (signal) => (await listPartnerTags(accountIndex, signal)).items,
    ),
};
