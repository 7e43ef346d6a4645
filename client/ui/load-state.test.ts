import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { isNotFound, loadStateOf } from './load-state.ts';

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** A real observer over a query whose answers the test hands out one by one. */
function observe() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: 0 } } });
  const answers: Array<{ resolve: (v: string) => void; reject: (e: unknown) => void }> = [];
  const observer = new QueryObserver<string>(client, {
    queryKey: ['account', 0, 'thing'],
    queryFn: () => new Promise<string>((resolve, reject) => answers.push({ resolve, reject })),
  });
  // Subscribing is what makes the observer fetch, as a mounted screen does.
  const unsubscribe = observer.subscribe(() => undefined);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { observer, answers, unsubscribe, settle };
}

describe('loadStateOf', () => {
  it('shows loading, then the value', async () => {
    const { observer, answers, unsubscribe, settle } = observe();
    expect(loadStateOf(observer.getCurrentResult())).toEqual({ kind: 'loading' });
    answers[0]!.resolve('v1');
    await settle();
    expect(loadStateOf(observer.getCurrentResult())).toEqual({ kind: 'ready', value: 'v1' });
    unsubscribe();
  });

  it('shows the failure at once, and loading again while "Try again" runs', async () => {
    const { observer, answers, unsubscribe, settle } = observe();
    answers[0]!.reject(new HttpError(500));
    await settle();
    const failed = loadStateOf(observer.getCurrentResult());
    expect(failed.kind).toBe('failed');
    void observer.refetch();
    expect(loadStateOf(observer.getCurrentResult())).toEqual({ kind: 'loading' });
    answers[1]!.resolve('v2');
    await settle();
    expect(loadStateOf(observer.getCurrentResult())).toEqual({ kind: 'ready', value: 'v2' });
    unsubscribe();
  });

  it('keeps loaded data on screen while it is fetched again', async () => {
    const { observer, answers, unsubscribe, settle } = observe();
    answers[0]!.resolve('v1');
    await settle();
    void observer.refetch();
    expect(loadStateOf(observer.getCurrentResult())).toEqual({ kind: 'ready', value: 'v1' });
    answers[1]!.resolve('v2');
    await settle();
    expect(loadStateOf(observer.getCurrentResult())).toEqual({ kind: 'ready', value: 'v2' });
    unsubscribe();
  });
});

describe('isNotFound', () => {
  it('is a 404 failure only', () => {
    expect(isNotFound({ kind: 'failed', error: new HttpError(404) })).toBe(true);
    expect(isNotFound({ kind: 'failed', error: new HttpError(403) })).toBe(false);
    expect(isNotFound({ kind: 'failed', error: 'not an error' })).toBe(false);
    expect(isNotFound({ kind: 'loading' })).toBe(false);
  });
});
