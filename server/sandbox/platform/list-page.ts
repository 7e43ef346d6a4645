import type { Queryable } from './db.ts';
import { pageOf, type ListQuery } from './list-query.ts';

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
): Promise<{ items: T[]; nextPageToken: string | null }> {
  const rows = await db.query<T>(
    `${sql}\n LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, list.pageSize + 1, (list.page - 1) * list.pageSize],
  );
  return pageOf(rows, list);
}
