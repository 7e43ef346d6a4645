import { getAccount } from './accounts-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of customers (the account service's accounts), defined once. */
export const customerQueries = {
  /** Everything of the customers: invalidated after a customer is created or saved. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'customers'] as const,
  detail: (accountIndex: number, code: string) =>
    keyedQuery([...customerQueries.all(accountIndex), 'detail', code], (signal) =>
      getAccount(accountIndex, code, signal).then((r) => r.account),
    ),
};
