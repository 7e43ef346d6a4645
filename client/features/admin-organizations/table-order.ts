import type { SortOrder } from '#client/api/organizations-client.ts';
import type { TableQuery } from '#machines/infinite-table.machine.ts';

/**
 * The table's sort (a column id and a direction) as the service's order (`field:ASC`); a column
 * the service cannot sort by, or no sort, is the service's default order.
 */
export function orderOf(
  sort: TableQuery['sort'],
  fields: Readonly<Record<string, string>>,
): SortOrder {
  const field = sort ? fields[sort.column] : undefined;
  if (!sort || field === undefined) return null;
  return { field, direction: sort.direction === 'asc' ? 'ASC' : 'DESC' };
}
