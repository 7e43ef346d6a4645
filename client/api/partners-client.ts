import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';
import type { Partner, PartnerTag, PartnerType } from '#common/contracts/partner.ts';

// The records' types are the partnerservice's contract (common/contracts/partner.ts).
export type { Partner, PartnerTag, PartnerType };

/**
 * Partners of the partnerservice through the BFF proxy (docs/contracts.md, "Insurance: customers
 * and partners"). One function per request; each takes an AbortSignal.
 */

/** The spec's partner selector loads 10 at a time. */
export const PARTNER_SELECTOR_PAGE_SIZE = 10;
export const PARTNERS_PAGE_SIZE = 30;

export interface PartnersQuery {
  pageSize?: number;
  page?: number;
  search?: string;
  /** Partners carrying any of these tags. */
  tagSlugs?: readonly string[];
  direction?: 'ASC' | 'DESC';
}

const base = (accountIndex: number) => `/api/${accountIndex}/partnerservice/v1`;

/** Ordered by display name, with type and tags expanded (what every list of partners shows). */
/** The list's query string; the CSV export sends the same one. */
export function partnersParams(query: PartnersQuery): string {
  return listParams({
    pageSize: query.pageSize ?? PARTNERS_PAGE_SIZE,
    ...(query.page !== undefined ? { page: query.page } : {}),
    filter: { tagSlugs: query.tagSlugs?.length ? query.tagSlugs.join(',') : undefined },
    order: { field: 'displayName', direction: query.direction ?? 'ASC' },
    ...(query.search !== undefined ? { search: query.search } : {}),
    expand: ['partnerType', 'tags'],
  });
}

export function listPartners(
  accountIndex: number,
  query: PartnersQuery,
  signal?: AbortSignal,
): Promise<Page<Partner>> {
  return fetchJson(`${base(accountIndex)}/partners?${partnersParams(query)}`, { signal });
}

/** `ref` is the partner's id or its code (`ptn_...`). */
export function getPartner(
  accountIndex: number,
  ref: string,
  signal?: AbortSignal,
): Promise<{ partner: Partner }> {
  return fetchJson(
    `${base(accountIndex)}/partners/${encodeURIComponent(ref)}?expand=partnerType,tags`,
    { signal },
  );
}

export function listPartnerTags(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<Page<PartnerTag>> {
  return fetchJson(`${base(accountIndex)}/tags`, { signal });
}

export function listPartnerTypes(
  accountIndex: number,
  signal?: AbortSignal,
): Promise<Page<PartnerType>> {
  return fetchJson(`${base(accountIndex)}/partner-types`, { signal });
}
