import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

const TYPING_DEBOUNCE_MS = 300;

/**
 * A list's filters kept in the address (`?search=...&type=...`), so that a link, a reload, the back
 * button and a saved view (client/ui/list-views.tsx) all reproduce the list. Typed filters (`typed`)
 * have a draft that follows every key press and reaches the address a moment after typing stops;
 * chosen ones go there at once. `generation` grows when a whole query is applied from outside (a
 * saved view), for a table that must start anew then (key it on it).
 */
export function useUrlFilters<K extends string>(keys: readonly K[], typed: readonly K[] = []) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
  const [drafts, setDrafts] = useState(
    () => Object.fromEntries(typed.map((k) => [k, values[k]])) as Record<K, string>,
  );
  const [generation, setGeneration] = useState(0);

  const set = useCallback(
    (key: K, value: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  // The drafts that differ from the address, as one string: the effect below runs per change.
  const changed = typed.filter((k) => drafts[k].trim() !== values[k]);
  const pending = changed.length ? JSON.stringify(changed.map((k) => [k, drafts[k].trim()])) : '';
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      for (const [key, value] of JSON.parse(pending) as [K, string][]) set(key, value);
    }, TYPING_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [pending, set]);

  const setDraft = useCallback(
    (key: K, value: string) => setDrafts((current) => ({ ...current, [key]: value })),
    [],
  );

  const typedKeys = typed.join(',');
  const apply = useCallback(
    (query: string) => {
      const next = new URLSearchParams(query);
      const keysTyped = typedKeys ? (typedKeys.split(',') as K[]) : [];
      setDrafts(
        Object.fromEntries(keysTyped.map((k) => [k, next.get(k) ?? ''])) as Record<K, string>,
      );
      setParams(next, { replace: true });
      setGeneration((g) => g + 1);
    },
    [setParams, typedKeys],
  );

  return { values, drafts, setDraft, set, apply, generation, query: params.toString() };
}
