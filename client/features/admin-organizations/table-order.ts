import type { SortOrder } from '#client/api/organizations-client.ts';
import type { LoadPageInput, TableQuery } from '#machines/infinite-table.machine.ts';

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

/**
 * What a table page asks the service for: the 1-based page, the order and, when the table has a
 * filter column that stands for the service's search, its text.
 */
export function pageQuery(
  input: LoadPageInput,
  fields: Readonly<Record<string, string>>,
  searchColumn?: string,
): { page: number; order: SortOrder; search?: string } {
  return {
    page: input.pageToken ? Number(input.pageToken) : 1,
    order: orderOf(input.query.sort, fields),
    ...(searchColumn === undefined ? {} : { search: input.query.filters[searchColumn] ?? '' }),
  };
}

/**
 * Keeps a table's own search filter (a filterable column) in the address (useUrlFilters), so
 * that a reload, a link and a saved view repeat it; the sort too where the list keeps it there.
 * One write per load: the table changes its filter or its sort, never both at once, and two
 * writes in one go would each start from the same address and the second undo the first.
 */
export function keepInAddress(
  input: LoadPageInput,
  searchColumn: string,
  address: {
    search: string;
    set: (value: string) => void;
    keepSort?: (sort: TableQuery['sort']) => void;
  },
): void {
  const typed = (input.query.filters[searchColumn] ?? '').trim();
  if (typed !== address.search) address.set(typed);
  else address.keepSort?.(input.query.sort);
}
