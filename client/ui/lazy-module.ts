import { useCallback, useState } from 'react';

/**
 * A module loaded on first use, e.g. Headless UI parts that the shell should not carry at start
 * (issue 14). Unlike `React.lazy` with Suspense, the caller keeps showing its own plain control
 * until the code is there and then swaps in place, so focus and typed text are never dropped
 * by a fallback remounting the control.
 */
export interface LazyModule<M> {
  /** Starts loading (once); safe to call on every pointer-enter or focus. */
  preload: () => Promise<M>;
  loaded: () => M | null;
}

export function lazyModule<M>(load: () => Promise<M>): LazyModule<M> {
  let done: M | null = null;
  let pending: Promise<M> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (m) => (done = m),
      (err: unknown) => {
        // A failed chunk (offline, new deploy) is tried again on the next use.
        pending = null;
        throw err;
      },
    ));
  return { preload, loaded: () => done };
}

/** The module once loaded (null before), and a `request` that loads it and then re-renders. */
export function useLazyModule<M>(module: LazyModule<M>): [M | null, () => void] {
  const [loaded, setLoaded] = useState(module.loaded);
  const request = useCallback(() => {
    // Until it loads the plain control keeps working, so a failure needs no message here.
    module.preload().then(setLoaded, () => undefined);
  }, [module]);
  return [loaded, request];
}
