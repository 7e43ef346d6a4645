import { queryOptions } from '@tanstack/react-query';
import { listViews } from './list-views-client.ts';
import { accountKey } from './query-keys.ts';

/** The keys and loads of saved list views, defined once. */
export const listViewQueries = {
  /** The views of one list (customers, leads, ...): invalidated after one is saved or deleted. */
  ofList: (accountIndex: number, list: string) =>
    queryOptions({
      queryKey: [...accountKey(accountIndex), 'list-views', list],
      queryFn: ({ signal }) => listViews(accountIndex, list, signal),
    }),
};
