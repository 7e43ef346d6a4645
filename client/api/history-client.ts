import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';
import type { HistoryEntry } from '#common/contracts/shared.ts';

// The entry's type is the shared contract's (common/contracts/shared.ts).
export type { HistoryEntry };

export const HISTORY_PAGE_SIZE = 30;

/**
 * A record's history, newest first, one page: `record` is the record's address below the API
 * prefix (`accountservice/v1/accounts/acc_…`), each service's `GET …/{id}/history`.
 */
export function getHistory(
  accountIndex: number,
  record: string,
  page: number,
  signal?: AbortSignal,
): Promise<Page<HistoryEntry>> {
  const query = listParams({ pageSize: HISTORY_PAGE_SIZE, page });
  return fetchJson(`/api/${accountIndex}/${record}/history?${query}`, { signal });
}
