import { getPolicy } from './policies-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of policies, defined once. */
export const policyQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'policies'] as const,
  /** A policy with its versions and product: replaced by what a lifecycle write answers. */
  detail: (accountIndex: number, code: string) =>
    keyedQuery([...policyQueries.all(accountIndex), 'detail', code], (signal) =>
      getPolicy(accountIndex, code, signal),
    ),
};
