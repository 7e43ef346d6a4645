import { useCallback, useEffect, useState } from 'react';
import type { TableSort } from './table-sort.ts';
import { TYPING_DEBOUNCE_MS } from './use-url-filters.ts';

/** `value` once it has stopped changing for `delayMs` (typing: one request a word, not a key). */
export function useDebounced<T>(value: T, delayMs = TYPING_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * A list page remounts its table for a new filter kept outside the address; the table owns its
 * sort, so the page keeps the last one it was asked to load with and starts the new table with it.
 */
export function useKeptSort(): [TableSort, (sort: TableSort) => void] {
  const [kept, setKept] = useState<TableSort>(null);
  const keep = useCallback(
    (sort: TableSort) =>
      setKept((current) => (JSON.stringify(current) === JSON.stringify(sort) ? current : sort)),
    [],
  );
  return [kept, keep];
}
