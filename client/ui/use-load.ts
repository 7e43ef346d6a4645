import { useCallback, useEffect, useState } from 'react';
import type { LoadState } from './load-state.ts';

// The screens load through the server-state cache (`loadStateOf` in load-state.ts, query
// factories beside the API clients, docs/decisions/003). This hook remains only for the product
// screens, not converted yet (product, version with FactorCache, languages, settings, booking
// funnels and the product dialogs). Remove the hook with its last caller.
export type { LoadState };

const LOADING = { kind: 'loading' } as const;

/**
 * A page's data: loaded when `load` changes (keep it stable with useCallback), the previous
 * request aborted. A result is kept with the `load` it came from, so a new id shows `loading`,
 * never the old record. `retry` loads again showing `loading`; `refresh` loads again keeping what
 * is shown (after a change); `replace` shows a record the server just answered (after a save).
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  what: string,
): {
  state: LoadState<T>;
  retry: () => void;
  refresh: () => void;
  replace: (value: T) => void;
} {
  const [result, setResult] = useState<{ load: typeof load; state: LoadState<T> } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal)
      .then((value) => setResult({ load, state: { kind: 'ready', value } }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(`${what} failed`, error);
        setResult({ load, state: { kind: 'failed', error } });
      });
    return () => controller.abort();
  }, [load, what, attempt]);
  const retry = useCallback(() => {
    setResult(null);
    setAttempt((n) => n + 1);
  }, []);
  const refresh = useCallback(() => setAttempt((n) => n + 1), []);
  const replace = useCallback(
    (value: T) => setResult({ load, state: { kind: 'ready', value } }),
    [load],
  );
  const state = result && result.load === load ? result.state : LOADING;
  return { state, retry, refresh, replace };
}
