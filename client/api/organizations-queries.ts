import { getOrganization } from './organizations-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of organisations, defined once. */
export const organizationQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'organizations'] as const,
  detail: (accountIndex: number, organizationId: string) =>
    keyedQuery(
      [...organizationQueries.all(accountIndex), 'detail', organizationId],
      async (signal) => (await getOrganization(accountIndex, organizationId, signal)).organization,
    ),
};
