import { getLead, getLeadVersion, listLeadRules, listLeadStatuses } from './leads-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of leads, defined once. */
export const leadQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'leads'] as const,
  /** One lead and its saved versions: invalidated after it is saved or moved. */
  detail: (accountIndex: number, code: string) =>
    keyedQuery([...leadQueries.all(accountIndex), 'detail', code], (signal) =>
      getLead(accountIndex, code, signal),
    ),
  version: (accountIndex: number, code: string, version: number) =>
    keyedQuery([...leadQueries.all(accountIndex), 'detail', code, 'version', version], (signal) =>
      getLeadVersion(accountIndex, code, version, signal),
    ),
  statuses: (accountIndex: number) =>
    keyedQuery([...leadQueries.all(accountIndex), 'statuses'], (signal) =>
      listLeadStatuses(accountIndex, signal),
    ),
  rules: (accountIndex: number) =>
    keyedQuery([...leadQueries.all(accountIndex), 'rules'], (signal) =>
      listLeadRules(accountIndex, signal),
    ),
};
