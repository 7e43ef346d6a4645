import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listAllDecisionTables } from './decision-tables-client.ts';

// The picker's reader pages on until the service says there is no next page, passing each
// page's token back whole; the limit stops a list that never ends.

const table = (n: number) => ({ code: `t${n}`, name: `Table ${n}` });

function pages(count: number, perPage: number, endless = false) {
  return vi.fn(async (url: string) => {
    const token = new URL(url, 'http://x').searchParams.get('pageToken');
    const at = token === null ? 0 : Number(token);
    const items = Array.from({ length: perPage }, (_, i) => table(at * perPage + i + 1));
    const last = !endless && at + 1 >= count;
    return new Response(
      JSON.stringify({ items, nextPageToken: last ? null : String(at + 1), totalItems: null }),
      { status: 200, headers: { 'Content-Type': 'application/json' } },
    );
  });
}

describe('listAllDecisionTables', () => {
  beforeEach(() => vi.stubGlobal('window', { location: { pathname: '/u/0/home' } }));
  afterEach(() => vi.unstubAllGlobals());

  it('reads every page, in order, sorted by name', async () => {
    const fetchMock = pages(3, 30);
    vi.stubGlobal('fetch', fetchMock);
    const all = await listAllDecisionTables(0);
    expect(all).toHaveLength(90);
    expect(all[30]).toEqual(table(31));
    expect(fetchMock).toHaveBeenCalledTimes(3);
    const [first, second] = fetchMock.mock.calls.map(([url]) => new URL(url, 'http://x'));
    expect(first!.searchParams.get('pageToken')).toBeNull();
    expect(second!.searchParams.get('pageToken')).toBe('1');
    expect(first!.searchParams.get('order')).toMatch(/name/);
  });

  it('stops at the limit on a list that never ends', async () => {
    const fetchMock = pages(0, 30, true);
    vi.stubGlobal('fetch', fetchMock);
    const all = await listAllDecisionTables(0, undefined, 100);
    expect(all).toHaveLength(120);
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });
});
