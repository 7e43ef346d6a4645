import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCounterStore } from '#server/rate-limit.ts';

// The shared Redis of the test machine: the counters here carry a name of this run only.
const run = `test-${randomBytes(6).toString('hex')}`;
const client = createClient({ url: 'redis://127.0.0.1:6379' });
const counters = new RedisCounterStore(client);

beforeAll(() => client.connect());
afterAll(async () => {
  for await (const keys of client.scanIterator({ MATCH: `bff:rl*:${run}*` }))
    if (keys.length) await client.del(keys);
  client.destroy();
});

describe('RedisCounterStore.hit (the guest-call limit)', () => {
  it('counts in a window that always expires', async () => {
    const key = `${run}:guest`;
    const hits = await Promise.all(Array.from({ length: 20 }, () => counters.hit(key, 60_000)));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(hits.every((h) => h.resetIn > 0 && h.resetIn <= 60)).toBe(true);
    const ttl = await client.pTTL(`bff:rl:${key}`);
    expect(ttl).toBeGreaterThan(0);
  });

  it('gives a counter left without an expiry one at the next hit, instead of blocking for good', async () => {
    // What a process that died between INCR and PEXPIRE left behind with separate calls.
    const key = `${run}:orphan`;
    await client.set(`bff:rl:${key}`, '7');
    const hit = await counters.hit(key, 30_000);
    expect(hit.count).toBe(8);
    expect(hit.resetIn).toBeGreaterThan(0);
    expect(await client.pTTL(`bff:rl:${key}`)).toBeGreaterThan(0);
  });
});
