import { queryOptions } from '@tanstack/react-query';
import { getOrganization } from './organizations-client.ts';
import { accountKey } from './query-keys.ts';

/** The keys and loads of organisations, defined once. */
export const organizationQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'organizations'] as const,
  detail: (accountIndex: number, organizationId: string) =>
    queryOptions({
      queryKey: [...organizationQueries.all(accountIndex), 'detail', organizationId],
      queryFn: async ({ signal }) =>
        (await getOrganization(accountIndex, organizationId, signal)).organization,
    }),
};
