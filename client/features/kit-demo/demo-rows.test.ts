import { describe, expect, it } from 'vitest';
import { createDemoLoader, DEMO_ROW_COUNT } from './demo-rows.ts';

const signal = new AbortController().signal;
const query = { filters: {}, sort: null };

describe('demo loader', () => {
  it('pages through 100 000 rows with offset tokens; the last page answers 0', async () => {
    const load = createDemoLoader({ delayMs: 0 });
    const first = await load({ query, pageToken: null, pageSize: 30 }, signal);
    expect(first.rows).toHaveLength(30);
    expect(first.nextPageToken).toBe('30');
    expect(first.totalCount).toBe(DEMO_ROW_COUNT);
    const last = await load(
      { query, pageToken: String(DEMO_ROW_COUNT - 10), pageSize: 30 },
      signal,
    );
    expect(last.rows).toHaveLength(10);
    expect(last.nextPageToken).toBe('0');
  });

  it('filters and sorts', async () => {
    const load = createDemoLoader({ delayMs: 0 });
    const page = await load(
      {
        query: { filters: { city: 'kraków' }, sort: { column: 'premium', direction: 'desc' } },
        pageToken: null,
        pageSize: 30,
      },
      signal,
    );
    expect(page.totalCount).toBe(DEMO_ROW_COUNT / 8);
    expect(page.rows.every((row) => row.city === 'Kraków')).toBe(true);
    const premiums = page.rows.map((row) => row.premium);
    expect(premiums).toEqual([...premiums].sort((a, b) => b - a));
  });

  it('fails the chosen page once', async () => {
    const load = createDemoLoader({ delayMs: 0, failPage: 2 });
    await expect(load({ query, pageToken: '30', pageSize: 30 }, signal)).rejects.toThrow(
      'page 2 failed',
    );
    await expect(load({ query, pageToken: '30', pageSize: 30 }, signal)).resolves.toMatchObject({
      nextPageToken: '60',
    });
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const pending = createDemoLoader({ delayMs: 10_000 })(
      { query, pageToken: null, pageSize: 30 },
      controller.signal,
    );
    controller.abort(new Error('query changed'));
    await expect(pending).rejects.toThrow('query changed');
  });
});
