import type { Request } from 'express';
import { HttpError } from './errors.ts';

/** The list parameters every list call shares (pageSize, pageToken, filter, order, search, expand). */

export interface ListQuery {
  pageSize: number;
  page: number;
  filter: Map<string, string>;
  order: { field: string; direction: 'ASC' | 'DESC' } | null;
  search: string | null;
  expand: Set<string>;
}

export interface ListSpec {
  filters: readonly string[];
  orders: readonly string[];
  expands: readonly string[];
  /** Lists with a larger page in the spec (product fields 100, insured objects 100). */
  maxPageSize?: number;
}

function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, 'invalid_query', `${name} given twice`);
  return value;
}

function positiveInt(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) {
    throw new HttpError(400, 'invalid_query', `${name} must be a positive integer`);
  }
  return Number(text);
}

/**
 * A filter value arrives URI-encoded inside the filter (`city=Bad%20%26%20Bunt`): `&` separates
 * the filters, so a value holding one must be encoded by the caller.
 */
function decodedValue(text: string, field: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(400, 'invalid_query', `filter ${field} is not URI-encoded`);
  }
}

export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 50;

/** Reads the list parameters shared by every list call; unknown fields are a 400, not ignored. */
export function parseListQuery(query: Request['query'], spec: ListSpec): ListQuery {
  const pageSize = Math.min(
    positiveInt(single(query.pageSize, 'pageSize'), 'pageSize') ?? DEFAULT_PAGE_SIZE,
    spec.maxPageSize ?? MAX_PAGE_SIZE,
  );
  const page = positiveInt(single(query.pageToken, 'pageToken'), 'pageToken') ?? 1;

  const filter = new Map<string, string>();
  for (const part of (single(query.filter, 'filter') ?? '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const field = eq < 0 ? part : part.slice(0, eq);
    if (eq < 0 || !spec.filters.includes(field)) {
      throw new HttpError(400, 'invalid_query', `unsupported filter ${field}`, undefined, [
        { path: `filter.${field}`, code: 'unsupported' },
      ]);
    }
    filter.set(field, decodedValue(part.slice(eq + 1), field));
  }

  let order: ListQuery['order'] = null;
  const orderText = single(query.order, 'order');
  if (orderText) {
    const match = /^([A-Za-z_]+)(?:[: ](ASC|DESC))?$/i.exec(orderText.trim());
    if (!match?.[1] || !spec.orders.includes(match[1])) {
      throw new HttpError(400, 'invalid_query', `unsupported order ${orderText}`);
    }
    order = {
      field: match[1],
      direction: (match[2] ?? 'ASC').toUpperCase() === 'DESC' ? 'DESC' : 'ASC',
    };
  }

  const searchText = (single(query.search, 'search') ?? single(query.query, 'query') ?? '').trim();
  const expand = new Set<string>();
  for (const item of (single(query.expand, 'expand') ?? '').split(',')) {
    const name = item.trim();
    if (!name) continue;
    if (!spec.expands.includes(name)) {
      throw new HttpError(400, 'invalid_query', `unsupported expand ${name}`);
    }
    expand.add(name);
  }
  return { pageSize, page, filter, order, search: searchText || null, expand };
}

/** Callers fetch pageSize + 1 rows; the extra one only tells whether another page exists. */
export function pageOf<T>(
  rows: T[],
  list: ListQuery,
): { items: T[]; nextPageToken: string | null } {
  const more = rows.length > list.pageSize;
  return {
    items: more ? rows.slice(0, list.pageSize) : rows,
    nextPageToken: more ? String(list.page + 1) : null,
  };
}
