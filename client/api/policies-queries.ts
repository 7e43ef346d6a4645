import { queryOptions } from '@tanstack/react-query';
import { getPolicy, previewTermination } from './policies-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of policies, defined once. */
export const policyQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'policies'] as const,
  /** A policy with its versions and product: replaced by what a lifecycle write answers. */
  detail: (accountIndex: number, code: string) =>
    keyedQuery([...policyQueries.all(accountIndex), 'detail', code], (signal) =>
      getPolicy(accountIndex, code, signal),
    ),
  /** The money of terminating the current version on a day; asked again when the version moves. */
  terminationPreview: (
    accountIndex: number,
    code: string,
    versionId: number | null,
    terminationDate: string,
  ) =>
    // Not keyedQuery: a refusal is the answer (the date is outside), not a hiccup to retry.
    queryOptions({
      queryKey: [
        ...policyQueries.all(accountIndex),
        'termination-preview',
        code,
        versionId,
        terminationDate,
      ],
      queryFn: ({ signal }) => previewTermination(accountIndex, code, terminationDate, signal),
      retry: false,
    }),
};
