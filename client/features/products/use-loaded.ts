import { useCallback, useEffect, useState } from 'react';

export type Loaded<T> =
  { status: 'loading' } | { status: 'failed'; error: unknown } | { status: 'ready'; value: T };

/**
 * The data of a product page: loaded when `load` changes (keep it stable), the previous request
 * aborted; `reload` fetches again after a change or a failure, keeping what is shown meanwhile.
 */
export function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>): {
  data: Loaded<T>;
  reload: () => void;
} {
  const [data, setData] = useState<Loaded<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => setData({ status: 'ready', value }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('product data failed', error);
        setData({ status: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [load, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, reload };
}
