import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MemoryCounterStore,
  RedisCounterStore,
  type Budget,
  type CounterStore,
} from '#server/rate-limit.ts';

/** The two counter stores keep one contract: the same steps give the same answers in memory (one
 * instance) and in Redis (shared by several). Both follow the clock they are given, so the tests
 * move time instead of waiting. */

// The shared Redis of the test machine: the counters here carry a name of this run only.
const run = `test-${randomBytes(6).toString('hex')}`;
const client = createClient({ url: 'redis://127.0.0.1:6379' });

// It stands still between the steps, so that the waits the stores answer are exact.
let time = Date.now();
const clock = { now: () => time, advance: (ms: number) => void (time += ms) };
const stores: Record<'memory' | 'redis', CounterStore> = {
  memory: new MemoryCounterStore(clock.now),
  redis: new RedisCounterStore(client, clock.now),
};

beforeAll(() => client.connect());
afterAll(async () => {
  for await (const keys of client.scanIterator({ MATCH: `bff:*:${run}*` }))
    if (keys.length) await client.del(keys);
  client.destroy();
});

describe.each(['memory', 'redis'] as const)('the %s counter store', (kind) => {
  const store = stores[kind];
  const budget = (name: string, max: number): Budget => ({
    key: `${run}:${kind}:${name}`,
    max,
    windowMs: 60_000,
    slowMs: 5_000,
  });

  it('a note lasts its time on the given clock, and a newer one replaces it', async () => {
    const key = `${run}:${kind}:note`;
    expect(await store.recall(key)).toBeNull();
    await store.remember(key, 'user_disabled', 60_000);
    expect(await store.recall(key)).toBe('user_disabled');
    clock.advance(59_000);
    await store.remember(key, 'no_ui|with a bar', 60_000);
    expect(await store.recall(key)).toBe('no_ui|with a bar');
    clock.advance(59_999);
    expect(await store.recall(key)).toBe('no_ui|with a bar');
    clock.advance(1);
    expect(await store.recall(key)).toBeNull();
  });

  it('hit counts parallel calls in a window that ends with the clock', async () => {
    const key = `${run}:${kind}:guest`;
    const hits = await Promise.all(Array.from({ length: 20 }, () => store.hit(key, 60_000)));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(hits.every((h) => h.resetIn === 60)).toBe(true);
    clock.advance(59_000);
    expect(await store.hit(key, 60_000)).toEqual({ count: 21, resetIn: 1 });
    clock.advance(1_000);
    expect(await store.hit(key, 60_000)).toEqual({ count: 1, resetIn: 60 });
  });

  it('take passes max attempts, then one per slowMs until the window ends', async () => {
    const b = [budget('slowed', 3)];
    for (let i = 0; i < 3; i++) expect(await store.take(b)).toEqual({ ok: true });
    expect(await store.take(b)).toEqual({ ok: false, retryAfterMs: 5_000 });
    clock.advance(4_000);
    expect(await store.take(b)).toEqual({ ok: false, retryAfterMs: 1_000 });
    clock.advance(1_000);
    expect(await store.take(b)).toEqual({ ok: true });
    expect(await store.take(b)).toEqual({ ok: false, retryAfterMs: 5_000 });
    // A new window: full speed again.
    clock.advance(55_000);
    for (let i = 0; i < 3; i++) expect(await store.take(b)).toEqual({ ok: true });
  });

  it('take lets exactly max of many parallel attempts pass, and counts nothing when one budget refuses', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, () => store.take([budget('parallel', 5)])),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect((await store.take([budget('parallel', 5), budget('other', 2)])).ok).toBe(false);
    expect((await store.take([budget('other', 2)])).ok).toBe(true);
    expect((await store.take([budget('other', 2)])).ok).toBe(true);
    expect((await store.take([budget('other', 2)])).ok).toBe(false);
  });

  it('giveBack uncounts within the window, never below zero, never into a new window', async () => {
    const b = [budget('given-back', 2)];
    const key = b[0]!.key;
    await store.take(b);
    await store.take(b);
    expect((await store.take(b)).ok).toBe(false);
    await store.giveBack([key]);
    expect((await store.take(b)).ok).toBe(true);
    await store.giveBack([key, key, key, `${key}:never-taken`]);
    expect((await store.take(b)).ok).toBe(true);
    expect((await store.take(b)).ok).toBe(true);
    expect((await store.take(b)).ok).toBe(false);
    clock.advance(60_000);
    // Nothing to give back in a window that has not opened: it stays a full budget of two.
    await store.giveBack([key]);
    expect(await store.hit(key, 60_000)).toEqual({ count: 1, resetIn: 60 });
  });

  it('reset starts a budget afresh', async () => {
    const b = [budget('reset', 1)];
    await store.take(b);
    expect((await store.take(b)).ok).toBe(false);
    await store.reset(b[0]!.key);
    expect(await store.take(b)).toEqual({ ok: true });
  });
});

describe('the Redis counter store', () => {
  const windowKey = (key: string) => RedisCounterStore.key(`${run}:${key}`);

  it('gives every window an expiry that outlasts it, whatever Redis’s own time says', async () => {
    await stores.redis.hit(`${run}:expiring`, 60_000);
    const ttl = await client.pTTL(windowKey('expiring'));
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  it('ends a window left without an expiry by its own end, instead of blocking for good', async () => {
    // What no script leaves behind, but a hand might.
    await client.hSet(windowKey('orphan'), { count: 7, resetAt: time - 1, nextAt: time + 60_000 });
    expect(await stores.redis.hit(`${run}:orphan`, 30_000)).toEqual({ count: 1, resetIn: 30 });
    expect(await client.pTTL(windowKey('orphan'))).toBeGreaterThan(0);
  });
});
