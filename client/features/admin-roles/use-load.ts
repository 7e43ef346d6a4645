import { useCallback, useEffect, useState } from 'react';

export type LoadState<T> =
  { kind: 'loading' } | { kind: 'failed'; error: unknown } | { kind: 'ready'; value: T };

/**
 * Loads a page's data when `load` changes (keep it stable with useCallback), aborting the
 * previous request; `retry` loads again after a failure.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  what: string,
): { state: LoadState<T>; retry: () => void } {
  const [state, setState] = useState<LoadState<T>>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal)
      .then((value) => setState({ kind: 'ready', value }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(`${what} failed`, error);
        setState({ kind: 'failed', error });
      });
    return () => controller.abort();
  }, [load, what, attempt]);
  const retry = useCallback(() => {
    setState({ kind: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { state, retry };
}
