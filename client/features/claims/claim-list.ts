import {
  CLAIM_TYPES,
  type ClaimOrderField,
  type ClaimStatus,
  type ClaimType,
  type ClaimsQuery,
} from '#client/api/claims-client.ts';
import { sortFromParam, type TableSort } from '#client/ui/table-sort.ts';
import { listQuery } from '#client/entities/list-view/list-page.tsx';
import { CLAIM_STATUS_SLUG } from '#common/claims.ts';

/**
 * The claim list's filters as the address keeps them (`?status=open,in-review&type=theft&
 * search=wasser&sort=damage:desc`), read back leniently: a hand-edited address with an unknown
 * type or sort falls back to none, and a status that is no slug at all is dropped (a slug the
 * tenant does not have simply matches nothing), so the list never fails on its own address.
 */

/** The address parameters of the list (the saved views keep exactly these). */
export const CLAIM_LIST_KEYS = ['status', 'type', 'search', 'sort'] as const;
export type ClaimListKey = (typeof CLAIM_LIST_KEYS)[number];

// Table column -> the service's order field.
export const CLAIM_ORDER_FIELDS: Record<string, ClaimOrderField> = {
  number: 'claimNumber',
  title: 'title',
  policy: 'policyNumber',
  holder: 'holder',
  status: 'status',
  damage: 'damageDate',
  created: 'createdAt',
};

export interface ClaimListFilters {
  statuses: string[];
  claimType: ClaimType | '';
  search: string;
  sort: TableSort;
}

export function claimListFilters(values: Readonly<Record<ClaimListKey, string>>): ClaimListFilters {
  const statuses = values.status
    .split(',')
    .map((s) => s.trim())
    .filter((s) => CLAIM_STATUS_SLUG.test(s));
  const type = values.type as ClaimType;
  return {
    statuses: [...new Set(statuses)],
    claimType: CLAIM_TYPES.includes(type) ? type : '',
    search: values.search.trim(),
    sort: sortFromParam(values.sort, Object.keys(CLAIM_ORDER_FIELDS)),
  };
}

/**
 * The status filter with one status switched on or off, written in the order of the status list
 * shown, so that the same choice always gives the same address (and matches a saved view).
 */
export function toggledStatuses(
  current: readonly string[],
  slug: string,
  on: boolean,
  shown: readonly Pick<ClaimStatus, 'slug'>[],
): string {
  const next = on ? [...current, slug] : current.filter((s) => s !== slug);
  const order = shown.map((s) => s.slug);
  const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length);
  return [...new Set(next)].sort((a, b) => rank(a) - rank(b)).join(',');
}

/**
 * The service's query for the filters and the table's sort, as the claims page's ListPage builds
 * it (the CSV export sends the same); `pageToken`: the previous page's nextPageToken.
 */
export function claimsQuery(
  filters: Omit<ClaimListFilters, 'sort'>,
  sort: TableSort,
  pageToken?: string,
): ClaimsQuery {
  return listQuery(filters, sort, CLAIM_ORDER_FIELDS, pageToken);
}
