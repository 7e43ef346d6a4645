import { fetchJson } from './fetch-json.ts';
import type { Page } from './tenant-admin-client.ts';
import type { ActivityEntry } from '#common/contracts/activity-log.ts';

// The entry's type is the shared contract's (common/contracts/shared.ts).
export type { ActivityEntry };

/** The activity log's filters as the address and the service name them. */
export const ACTIVITY_FILTERS = ['entityType', 'actor', 'from', 'to', 'search'] as const;
export const ACTIVITY_PAGE_SIZE = 30;

/**
 * One page of the tenant's activity log (issue 16), newest first: `query` holds the filters
 * (`entityType=role&from=2026-01-01`), `pageToken` the keyset the previous page answered.
 */
export function getActivityLog(
  accountIndex: number,
  query: string,
  pageToken: string | null,
  signal?: AbortSignal,
): Promise<Page<ActivityEntry>> {
  const params = new URLSearchParams(query);
  params.set('pageSize', String(ACTIVITY_PAGE_SIZE));
  if (pageToken) params.set('pageToken', pageToken);
  return fetchJson(`/api/${accountIndex}/tenantservice/v1/audit-events?${params}`, { signal });
}
