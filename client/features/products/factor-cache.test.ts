import { describe, expect, it } from 'vitest';
import {
  EMPTY_CACHE_KEY,
  FactorCache,
  INVALID_CACHE_KEY,
  factorCacheKey,
  isFactorCacheFresh,
} from './factor-cache.ts';

/** A service whose newest updatedAt the test sets, counting the table loads. */
function fakeService() {
  const state = { newest: null as string | null, fail: false, loads: 0, tables: 'v1' };
  const cache = new FactorCache<string>(
    async () => {
      if (state.fail) throw new Error('network');
      return state.newest;
    },
    async (scope, versionId) => {
      state.loads += 1;
      return `${state.tables}@${scope}:${versionId}`;
    },
  );
  return { state, cache };
}

describe('factor cache rule', () => {
  it('is fresh only for the same newest updatedAt, never for the failure key', () => {
    expect(isFactorCacheFresh(undefined, 'a')).toBe(false);
    expect(isFactorCacheFresh({ key: '2026-01-01T00:00:00Z' }, '2026-01-01T00:00:00Z')).toBe(true);
    expect(isFactorCacheFresh({ key: '2026-01-01T00:00:00Z' }, '2026-01-02T00:00:00Z')).toBe(false);
    expect(isFactorCacheFresh({ key: INVALID_CACHE_KEY }, INVALID_CACHE_KEY)).toBe(false);
    expect(factorCacheKey(null)).toBe(EMPTY_CACHE_KEY);
  });

  it('loads once while the newest updatedAt stays, again when it differs', async () => {
    const { state, cache } = fakeService();
    state.newest = '2026-01-01T10:00:00.000Z';
    expect(await cache.get(0, 7)).toBe('v1@0:7');
    expect(await cache.get(0, 7)).toBe('v1@0:7');
    expect(state.loads).toBe(1);
    state.newest = '2026-01-01T10:05:00.000Z';
    state.tables = 'v2';
    expect(await cache.get(0, 7)).toBe('v2@0:7');
    expect(state.loads).toBe(2);
  });

  it('keeps versions and accounts apart', async () => {
    const { state, cache } = fakeService();
    await cache.get(0, 7);
    await cache.get(0, 8);
    await cache.get(1, 7);
    expect(state.loads).toBe(3);
    await cache.get(1, 7);
    expect(state.loads).toBe(3);
  });

  it('loads again after a failed check, and after the next good one', async () => {
    const { state, cache } = fakeService();
    state.newest = 'a';
    await cache.get(0, 7);
    state.fail = true;
    await cache.get(0, 7);
    await cache.get(0, 7);
    expect(state.loads).toBe(3);
    state.fail = false;
    await cache.get(0, 7);
    expect(state.loads).toBe(4);
    await cache.get(0, 7);
    expect(state.loads).toBe(4);
  });

  it('forgets a version after an own change and passes an abort on', async () => {
    const { state, cache } = fakeService();
    state.newest = 'a';
    await cache.get(0, 7);
    cache.forget(0, 7);
    await cache.get(0, 7);
    expect(state.loads).toBe(2);
    const controller = new AbortController();
    controller.abort();
    const aborting = new FactorCache<string>(
      () => Promise.reject(new DOMException('aborted', 'AbortError')),
      () => Promise.resolve('x'),
    );
    await expect(aborting.get(0, 7, controller.signal)).rejects.toThrow('aborted');
  });
});
