import { isPolicyStatus, POLICY_STATUSES, type PolicyStatus } from '#client/api/policies-client.ts';
import {
  noPolicyFilters,
  type PolicyListFilters,
} from '#client/entities/policy/policies-table.tsx';

/**
 * The policy list's filters live in the query string, so that a link reproduces the list:
 * `?status=ACTIVE,SUSPENDED&product=home-contents&q=braun&order=oldest`. Defaults are left out
 * (the page writes each parameter by itself, through client/ui/use-url-filters.ts); unknown
 * statuses and orders in a hand-edited address are dropped rather than refused.
 */
export function filtersFromSearch(params: URLSearchParams): PolicyListFilters {
  const statuses = (params.get('status') ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(isPolicyStatus);
  return {
    ...noPolicyFilters,
    // In the order of the status list, once each: the same choice gives the same address.
    statuses: POLICY_STATUSES.filter((s) => statuses.includes(s)),
    productSlug: params.get('product')?.trim() ?? '',
    search: params.get('q')?.trim() ?? '',
    order: params.get('order') === 'oldest' ? 'oldest' : 'newest',
  };
}

/** The address's `status`: each chosen status once, in the order of the status list, so that the
 * same choice is always the same address (and a saved view matches it). '' for none. */
export function statusesParam(statuses: readonly PolicyStatus[]): string {
  return POLICY_STATUSES.filter((s) => statuses.includes(s)).join(',');
}
