import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '#client/app/server-state.tsx';
import type { FactorValues } from './product-extras-client.ts';
import {
  factorQueries,
  forgetFactorTables,
  loadFactorTables,
  productQueries,
  type FactorSource,
} from './products-queries.ts';

/** A service whose newest updatedAt the test sets, counting the checks and the table loads. */
function fakeService() {
  const state = { newest: null as string | null, fail: false, checks: 0, loads: 0, tables: 'v1' };
  const source: FactorSource = {
    newest: async () => {
      state.checks += 1;
      if (state.fail) throw new Error('network');
      return state.newest;
    },
    tables: async (accountIndex, versionId) => {
      state.loads += 1;
      return {
        [state.tables]: { name: `${state.tables}@${accountIndex}:${versionId}` },
      } as unknown as FactorValues;
    },
  };
  // The app's own client: its defaults (gcTime 0, no retries) are the ones the rule must live with.
  const client = createQueryClient();
  const get = async (
    accountIndex: number,
    versionId: number,
    signal = new AbortController().signal,
  ) =>
    Object.values(await loadFactorTables(client, accountIndex, versionId, signal, source)).map(
      (table) => table.name,
    )[0];
  return { state, client, get };
}

describe('factor tables under the two-query rule', () => {
  it('loads once while the newest updatedAt stays, again when it differs, checking every time', async () => {
    const { state, get } = fakeService();
    state.newest = '2026-01-01T10:00:00.000Z';
    expect(await get(0, 7)).toBe('v1@0:7');
    expect(await get(0, 7)).toBe('v1@0:7');
    expect(state.loads).toBe(1);
    expect(state.checks).toBe(2);
    state.newest = '2026-01-01T10:05:00.000Z';
    state.tables = 'v2';
    expect(await get(0, 7)).toBe('v2@0:7');
    expect(state.loads).toBe(2);
  });

  it('keeps one entry per version: the tables of an older updatedAt are dropped', async () => {
    const { state, client, get } = fakeService();
    state.newest = 'a';
    await get(0, 7);
    state.newest = 'b';
    await get(0, 7);
    const kept = client.getQueryCache().findAll({ queryKey: factorQueries.tablesOf(0, 7) });
    expect(kept.map((query) => query.queryKey.at(-1))).toEqual(['b']);
  });

  it('keeps versions and accounts apart', async () => {
    const { state, get } = fakeService();
    await get(0, 7);
    await get(0, 8);
    await get(1, 7);
    expect(state.loads).toBe(3);
    await get(1, 7);
    expect(state.loads).toBe(3);
  });

  it('loads past the cache after a failed check, and keeps again after the next good one', async () => {
    const { state, client, get } = fakeService();
    state.newest = 'a';
    await get(0, 7);
    state.fail = true;
    state.tables = 'fresh';
    expect(await get(0, 7)).toBe('fresh@0:7');
    await get(0, 7);
    expect(state.loads).toBe(3);
    state.fail = false;
    state.newest = 'b';
    await get(0, 7);
    expect(state.loads).toBe(4);
    await get(0, 7);
    expect(state.loads).toBe(4);
    // The tables loaded without a key were never kept.
    const kept = client.getQueryCache().findAll({ queryKey: factorQueries.tablesOf(0, 7) });
    expect(kept.map((query) => query.queryKey.at(-1))).toEqual(['b']);
  });

  it('forgets a version after an own change', async () => {
    const { state, client, get } = fakeService();
    state.newest = 'a';
    await get(0, 7);
    forgetFactorTables(client, 0, 7);
    await get(0, 7);
    expect(state.loads).toBe(2);
  });

  it('passes an abort on instead of loading past the cache', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const controller = new AbortController();
    controller.abort();
    let loads = 0;
    const aborting: FactorSource = {
      newest: () => Promise.reject(new DOMException('aborted', 'AbortError')),
      tables: async () => {
        loads += 1;
        return {};
      },
    };
    await expect(loadFactorTables(client, 0, 7, controller.signal, aborting)).rejects.toThrow(
      'aborted',
    );
    expect(loads).toBe(0);
  });

  it('is read by the version page as one query of the version, invalidated with its parts', async () => {
    const { state, client } = fakeService();
    const source: FactorSource = {
      newest: async () => 'a',
      tables: async () => {
        state.loads += 1;
        return {};
      },
    };
    await client.fetchQuery(productQueries.factors(0, 7, source));
    await client.invalidateQueries({ queryKey: productQueries.version(0, 7) });
    await client.fetchQuery(productQueries.factors(0, 7, source));
    // The version's parts were invalidated (a field saved); the tables were checked, not loaded.
    expect(state.loads).toBe(1);
  });
});
