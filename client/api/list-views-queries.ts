import { listViews } from './list-views-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of saved list views, defined once. */
export const listViewQueries = {
  /** The views of one list (customers, leads, ...): invalidated after one is saved or deleted. */
  ofList: (accountIndex: number, list: string) =>
    keyedQuery([...accountKey(accountIndex), 'list-views', list], (signal) =>
      listViews(accountIndex, list, signal),
    ),
};
