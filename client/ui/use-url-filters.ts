import { useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LeavingPageContext } from './leaving-page.ts';
import { sortFromParam, sortToParam, type TableSort } from './table-sort.ts';

/** Typing waits this long before it reaches the address, so a word is one request, not one per key. */
export const TYPING_DEBOUNCE_MS = 300;

/** The address parameter that keeps a table's sort (`sort=city:asc`). */
const SORT_PARAM = 'sort';

interface UrlFilterOptions<K extends string> {
  typed?: readonly K[];
  sortColumns?: readonly string[];
  /**
   * The parameter of the sort when two lists share the address (the tabs of one page): each
   * keeps its own, so that sorting one does not sort the other.
   */
  sortParam?: string;
}

/**
 * A list's filters kept in the address (`?search=...&type=...`), so that a link, a reload, the back
 * button and a saved view (client/entities/list-view/list-views.tsx) all reproduce the list. Typed filters (`typed`)
 * have a draft that follows every key press and reaches the address a moment after typing stops;
 * chosen ones go there at once; `viewQuery` is the part of the address the list owns (what a saved
 * view keeps). With `sortColumns`, the table's sort is kept there too (`sort`,
 * `keepSort` for the table's loader, which learns of a new sort first). `generation` grows when a
 * whole query is applied from outside (a saved view), for a table that must start anew then (key
 * it on it).
 */
export function useUrlFilters<K extends string>(
  keys: readonly K[],
  { typed = [], sortColumns = [], sortParam: sortKey = SORT_PARAM }: UrlFilterOptions<K> = {},
) {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const address = params.toString();
  // The router changes the address a moment after it is asked to (a navigation): until then the
  // controls show the choice from here, so that a checkbox does not spring back and a second
  // choice builds on the first. Whatever the address says once it changes wins.
  const [chosen, setChosen] = useState<{ over: string; query: string } | null>(null);
  const [lastAddress, setLastAddress] = useState(address);
  if (lastAddress !== address) {
    // Forgotten once the address moved, so that it never comes back with an address it was over.
    setLastAddress(address);
    setChosen(null);
  }
  const query = chosen && chosen.over === address ? chosen.query : address;
  const current = useMemo(() => new URLSearchParams(query), [query]);
  const values = Object.fromEntries(keys.map((k) => [k, current.get(k) ?? ''])) as Record<
    K,
    string
  >;
  const [drafts, setDrafts] = useState(
    () => Object.fromEntries(typed.map((k) => [k, values[k]])) as Record<K, string>,
  );
  const [generation, setGeneration] = useState(0);

  // A filter that reaches the address while a click on a row's link is still loading the record
  // page (typing that paused, a table that loaded and keeps its filter here) would be a navigation
  // of its own, back to the list, and would cancel the one under way: it is dropped instead.
  const leavingPage = useContext(LeavingPageContext);
  const show = useCallback(
    (next: URLSearchParams) => {
      if (leavingPage(location.pathname)) return;
      setChosen({ over: address, query: next.toString() });
      // The hash stays: it holds the open tab of a page with several lists (HashTabs).
      void navigate({ search: `?${next}`, hash: location.hash }, { replace: true });
    },
    [address, navigate, location.hash, location.pathname, leavingPage],
  );
  const write = useCallback(
    (changes: readonly (readonly [string, string])[]) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of changes) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      show(next);
    },
    [current, show],
  );
  const set = useCallback((key: K, value: string) => write([[key, value]]), [write]);

  // What typing last wrote to the address: that change must not reset a box typed on since.
  const [written, setWritten] = useState<Partial<Record<K, string>>>({});
  // A typed filter changed in the address by anything but typing (a saved view, the menu's link
  // to the bare list, the back button) puts its box in step; left alone, the box's old text
  // would find its way back into the address a moment later. Adjusted while rendering, so the
  // box never shows the old text beside the new list.
  const typedInAddress = JSON.stringify(typed.map((k) => values[k]));
  const [seen, setSeen] = useState(typedInAddress);
  if (seen !== typedInAddress) {
    setSeen(typedInAddress);
    setWritten({});
    const stale = typed.filter((k) => drafts[k].trim() !== values[k] && written[k] !== values[k]);
    if (stale.length)
      setDrafts({ ...drafts, ...Object.fromEntries(stale.map((k) => [k, values[k]])) });
  }

  // The drafts that differ from the address, as one string: the effect below runs per change.
  const changed = typed.filter((k) => drafts[k].trim() !== values[k]);
  const pending = changed.length ? JSON.stringify(changed.map((k) => [k, drafts[k].trim()])) : '';
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      const entries = JSON.parse(pending) as [K, string][];
      setWritten(Object.fromEntries(entries) as Partial<Record<K, string>>);
      write(entries);
    }, TYPING_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [pending, write]);

  const setDraft = useCallback(
    (key: K, value: string) => setDrafts((drafts) => ({ ...drafts, [key]: value })),
    [],
  );

  // The parameters this list owns: its filters and its sort. Two lists that share the address
  // (the tabs of one page) each keep only their own in a saved view, and applying one leaves the
  // other list's alone; a view saved before this rule may carry the neighbour's, which are dropped.
  const ownKeys = [...keys, ...(sortColumns.length ? [sortKey] : [])].join(',');
  const viewQuery = useMemo(() => {
    const own = new Set(ownKeys.split(','));
    const view = new URLSearchParams();
    for (const [key, value] of current) if (own.has(key)) view.append(key, value);
    return view.toString();
  }, [current, ownKeys]);

  // The boxes follow the applied query by the adjustment above.
  const apply = useCallback(
    (query: string) => {
      const own = new Set(ownKeys.split(','));
      const next = new URLSearchParams();
      for (const [key, value] of current) if (!own.has(key)) next.append(key, value);
      for (const [key, value] of new URLSearchParams(query))
        if (own.has(key)) next.append(key, value);
      show(next);
      setGeneration((g) => g + 1);
    },
    [show, current, ownKeys],
  );

  // An unknown column in a hand-edited address is no sort rather than a refused request. The
  // caller's array is new on every render: what is remembered depends on its contents.
  const sortText = sortColumns.length ? (current.get(sortKey) ?? '') : '';
  const columnsKey = sortColumns.join(',');
  const sort = useMemo(
    () => sortFromParam(sortText, columnsKey ? columnsKey.split(',') : []),
    [sortText, columnsKey],
  );
  const sortParam = sortToParam(sort);
  const keepSort = useCallback(
    (next: TableSort) => {
      const wanted = sortToParam(next);
      if (columnsKey && wanted !== sortParam) write([[sortKey, wanted]]);
    },
    [columnsKey, sortParam, sortKey, write],
  );

  return { values, drafts, setDraft, set, apply, generation, sort, keepSort, query, viewQuery };
}
