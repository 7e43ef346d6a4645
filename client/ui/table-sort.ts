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
