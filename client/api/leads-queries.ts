import { queryOptions } from '@tanstack/react-query';
import { getLead, getLeadVersion, listLeadRules, listLeadStatuses } from './leads-client.ts';
import { accountKey } from './query-keys.ts';

/** The keys and loads of leads, defined once. */
export const leadQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'leads'] as const,
  /** One lead and its saved versions: invalidated after it is saved or moved. */
  detail: (accountIndex: number, code: string) =>
    queryOptions({
      queryKey: [...leadQueries.all(accountIndex), 'detail', code],
      queryFn: ({ signal }) => getLead(accountIndex, code, signal),
    }),
  version: (accountIndex: number, code: string, version: number) =>
    queryOptions({
      queryKey: [...leadQueries.all(accountIndex), 'detail', code, 'version', version],
      queryFn: ({ signal }) => getLeadVersion(accountIndex, code, version, signal),
    }),
  statuses: (accountIndex: number) =>
    queryOptions({
      queryKey: [...leadQueries.all(accountIndex), 'statuses'],
      queryFn: ({ signal }) => listLeadStatuses(accountIndex, signal),
    }),
  rules: (accountIndex: number) =>
    queryOptions({
      queryKey: [...leadQueries.all(accountIndex), 'rules'],
      queryFn: ({ signal }) => listLeadRules(accountIndex, signal),
    }),
};
