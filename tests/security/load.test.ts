import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWrites, LoadProgress, runLoad, signIn } from '#tests/support/load.ts';
import { startTopology, type Topology } from '#tests/support/topology.ts';

/**
 * The CI share of the load and fault run (the long one: bench/topology.ts): 30 sessions of
 * mixed reads and writes (about 2 000 requests) through nginx over two BFF instances, with 15 s
 * tokens so that every account refreshes, split over both instances, while one BFF is restarted
 * (SIGTERM, then up again on its port) and Redis is cut away from both for a few requests per
 * session. Every answer is checked: a 200, or during the Redis cut a 503 in the JSON error shape;
 * nobody is signed out; every acknowledged write is in the sandbox afterwards and no refused one;
 * no process died.
 */
let topo: Topology;
beforeAll(async () => {
  topo = await startTopology({ instances: 2, tokenTtlSeconds: 15 });
}, 240_000);
afterAll(async () => {
  await topo?.stop();
}, 60_000);

describe('load and faults on two instances behind nginx', () => {
  it('keeps every session and every acknowledged write through a restart and a Redis cut', async () => {
    const clients = await signIn(topo.url, 30);
    // Each fault starts after so many completed requests, not after so many seconds: on a busy
    // machine the load is slower, and the faults must still fall into it with load around them.
    const progress = new LoadProgress();
    let faultUntil = 0;
    let restart: Promise<number | string> = Promise.resolve('not started');
    const faults = (async () => {
      await progress.reached(clients.length * 5);
      restart = topo.restartBff(1);
      // Load on both instances while one drains and starts again, and after.
      await Promise.all([restart, progress.more(clients.length * 10)]);
      await progress.more(clients.length * 5);
      faultUntil = Infinity;
      topo.redis.cut();
      // Every session meets the cut a few times over.
      await progress.more(clients.length * 4);
      topo.redis.restore();
      // A refusal may still be on its way back a moment after Redis returns.
      faultUntil = Date.now() + 5_000;
      // Then load long enough for tokens to come due and be refreshed after the cut (15 s
      // tokens are due 5 s after issue; this is some seconds of load even on an idle machine).
      await progress.more(clients.length * 25);
    })();
    const report = await runLoad(clients, {
      base: topo.url,
      sessions: clients.length,
      until: faults,
      progress,
      runId: `load_${randomBytes(4).toString('hex')}`,
      allowedNow: () => (Date.now() < faultUntil ? [503] : []),
    });
    await faults;
    // SIGTERM drains: exit 0, not a crash.
    expect(await restart).toBe(0);

    expect(report.unexpected).toEqual([]);
    expect(report.signedOut).toEqual([]);
    expect(report.requests).toBeGreaterThan(clients.length * 4);
    const writes = await checkWrites(topo.sandboxUrl, report.writes);
    expect(writes.lost).toEqual([]);
    expect(writes.appliedRefused).toEqual([]);
    expect(writes.leaked).toEqual([]);
    expect(writes.acknowledged).toBeGreaterThan(0);
    expect(topo.deaths()).toEqual([]);
  }, 180_000);
});
