import { randomBytes } from 'node:crypto';
import type { SessionData } from 'express-session';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSessionStore } from '#server/session/redis-store.ts';
import type { AccountRecord } from '#server/session/session.ts';

// The shared Redis of the test machine: every key here lives under a prefix of this run.
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const client = createClient({ url: 'redis://127.0.0.1:6379' });
const store = new RedisSessionStore(client, prefix, 60_000);

const get = (sid: string) =>
  new Promise<SessionData | null | undefined>((resolve, reject) =>
    store.get(sid, (e, v) => (e ? reject(e) : resolve(v))),
  );
const set = (sid: string, v: SessionData) =>
  new Promise<void>((resolve, reject) => store.set(sid, v, (e) => (e ? reject(e) : resolve())));
const destroy = (sid: string) =>
  new Promise<void>((resolve, reject) => store.destroy(sid, (e) => (e ? reject(e) : resolve())));
const account = (token: string) => ({ accountIndex: 0, accessToken: token }) as AccountRecord;
const sess = (extra: Record<string, unknown>) =>
  ({ cookie: { path: '/' }, createdAt: 1, ...extra }) as unknown as SessionData;

beforeAll(() => client.connect());
afterAll(async () => {
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*` }))
    if (keys.length) await client.del(keys);
  client.destroy();
});

describe('RedisSessionStore', () => {
  it('lets no whole-session save overwrite or revive an account, and writes accounts by revision', async () => {
    await set('x', sess({ accounts: { 0: account('t1') } }));
    const stale = (await get('x'))!;
    expect(stale.accounts?.[0]).toMatchObject({ accessToken: 't1', rev: 1 });

    // Another instance rotated the token since `stale` was read; the stale save keeps it.
    expect(await store.putAccount('x', '0', account('t2'), 1)).toBe('ok');
    await set('x', { ...stale, lastSeenAt: 5 } as SessionData);
    expect((await get('x'))?.accounts?.[0]).toMatchObject({ accessToken: 't2', rev: 2 });
    expect((await get('x'))?.lastSeenAt).toBe(5);
    expect(await store.putAccount('x', '0', account('t3'), 1)).toBe('conflict');
    await store.touchSeen('x', 4);
    expect((await get('x'))?.lastSeenAt).toBe(5);

    expect(await store.putAccount('x', '0', null)).toBe('ok');
    await set('x', stale);
    expect((await get('x'))?.accounts).toEqual({});
    await destroy('x');
    await set('x', stale);
    expect(await get('x')).toBeNull();
    expect(await store.putAccount('x', '0', account('t4'))).toBe('gone');
  });

  it('reads a session connect-redis stored before, and keeps it from then on', async () => {
    await client.set(prefix + 'old', JSON.stringify(sess({ accounts: { 0: account('t1') } })));
    expect((await get('old'))?.accounts?.[0]).toMatchObject({ accessToken: 't1', rev: 1 });
    expect(await store.putAccount('old', '0', account('t2'), 1)).toBe('ok');
    expect((await get('old'))?.accounts?.[0]).toMatchObject({ accessToken: 't2', rev: 2 });
  });

  it('grants the refresh lock to one holder at a time, released only by its holder', async () => {
    const key = `${prefix}lock`;
    const first = await store.lock(key, 10_000);
    expect(first).toBeTruthy();
    expect(await store.lock(key, 10_000)).toBeNull();
    await store.unlock(key, 'someone else');
    expect(await store.lock(key, 10_000)).toBeNull();
    await store.unlock(key, first!);
    const second = await store.lock(key, 10_000);
    expect(second).toBeTruthy();
    await store.unlock(key, second!);
  });
});
