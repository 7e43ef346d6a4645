import type { Queryable } from './db.ts';
import { pageOf, type ListQuery } from './list-query.ts';

/** A page of a list as the services answer it; `totalItems` counts the whole filtered list. */
export interface ListPage<T> {
  items: T[];
  nextPageToken: string | null;
  totalItems: number;
  /**
   * The list's count stopped at its cap (ListSource.countCap): it holds more than `totalItems`
   * rows, and the answer says so with `totalItemsAbove` instead (see {@link listTotals}).
   */
  countCapped?: boolean;
}

/**
 * A page's count as a list answer carries it: `totalItems`, or `totalItemsAbove` when the count
 * stopped at its cap (docs/decisions/016-capped-list-counts.md).
 */
export const listTotals = (
  page: Pick<ListPage<unknown>, 'totalItems' | 'countCapped'>,
): { totalItems: number } | { totalItemsAbove: number } =>
  page.countCapped ? { totalItemsAbove: page.totalItems } : { totalItems: page.totalItems };

/**
 * How many rows the caller's statement has in all (filters and search applied, no paging): the
 * list answer's `totalItems` (upstream contract), which the tables show as "1 234 policies".
 * The statement may end in its ORDER BY; as a subquery the order costs nothing but is harmless.
 */
export async function countOf(
  db: Queryable,
  sql: string,
  params: readonly unknown[],
  cap?: number,
): Promise<number> {
  // With a cap the scan stops after cap + 1 rows: enough to tell "more than cap" (decision 016).
  const limited = cap === undefined ? sql : `${sql}\n LIMIT ${Math.trunc(cap) + 1}`;
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (${limited}) AS list`,
    [...params],
  );
  return row?.n ?? 0;
}

/**
 * One page of a list read by OFFSET (`pageToken` is the page number): the caller's statement up
 * to its ORDER BY, which must end in a unique column so that pages neither skip nor repeat rows.
 * Reads pageSize + 1 rows; the extra one only says whether another page follows.
 */
export async function offsetPage<T>(
  db: Queryable,
  list: ListQuery,
  sql: string,
  params: readonly unknown[],
): Promise<ListPage<T>> {
  const rows = await db.query<T>(
    `${sql}\n LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, list.pageSize + 1, (list.page - 1) * list.pageSize],
  );
  return { ...pageOf(rows, list), totalItems: await countOf(db, sql, params) };
}
