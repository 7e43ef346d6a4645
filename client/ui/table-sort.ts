import type { TableQuery } from '#machines/infinite-table.machine.ts';

export type TableSort = TableQuery['sort'];

/**
 * One sorted column at a time; clicking a column cycles ascending -> descending -> none, and a
 * different column starts again at ascending (spec, section 2).
 */
export function nextSort(current: TableSort, column: string): TableSort {
  if (current === null || current.column !== column) return { column, direction: 'asc' };
  if (current.direction === 'asc') return { column, direction: 'desc' };
  return null;
}

/** Filters without the empty ones: an empty input means "no filter", not "match empty". */
export function activeFilters(filters: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value.trim() !== ''));
}

/** Spec, section 9: load more when the scroll position is within 20 px of the bottom. */
export const NEAR_END_PX = 20;

export function isNearEnd(
  element: { scrollTop: number; scrollHeight: number; clientHeight: number },
  threshold = NEAR_END_PX,
): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= threshold;
}

/** A table sort as a list keeps it in its address: `city:asc`; '' when unsorted. */
export const sortToParam = (sort: TableQuery['sort']): string =>
  sort ? `${sort.column}:${sort.direction}` : '';

/** The address's sort back, if it names one of the sortable `columns`; otherwise none. */
export function sortFromParam(
  value: string | null,
  columns: readonly string[],
): TableQuery['sort'] {
  const [column, direction] = (value ?? '').split(':');
  if (!column || !columns.includes(column) || (direction !== 'asc' && direction !== 'desc'))
    return null;
  return { column, direction };
}

/** The service's `order` for the table's sort: the sorted column as the service names it. */
export function serviceOrder(
  sort: TableSort,
  fields: Readonly<Record<string, string>>,
): { field: string; direction: 'ASC' | 'DESC' } | null {
  const field = sort ? fields[sort.column] : undefined;
  return sort && field ? { field, direction: sort.direction === 'asc' ? 'ASC' : 'DESC' } : null;
}
