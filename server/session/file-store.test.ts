import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionData } from 'express-session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '#server/session/file-store.ts';
import type { AccountRecord } from '#server/session/session.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fstore-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const sess = (expires: number, extra: Record<string, unknown> = {}) =>
  ({ cookie: { expires: new Date(expires).toISOString() }, ...extra }) as unknown as SessionData;
const get = (s: FileSessionStore, sid: string) =>
  new Promise<SessionData | null | undefined>((resolve) => s.get(sid, (_e, v) => resolve(v)));
const set = (s: FileSessionStore, sid: string, v: SessionData) =>
  new Promise<void>((resolve, reject) => s.set(sid, v, (e) => (e ? reject(e) : resolve())));
const destroy = (s: FileSessionStore, sid: string) =>
  new Promise<void>((resolve) => s.destroy(sid, () => resolve()));

describe('FileSessionStore', () => {
  it('keeps acknowledged sessions across a reopen and forgets destroyed ones', async () => {
    const a = await FileSessionStore.open(dir);
    await set(a, 'one', sess(Date.now() + 60_000, { createdAt: 1 }));
    await set(a, 'two', sess(Date.now() + 60_000));
    await destroy(a, 'two');
    const b = await FileSessionStore.open(dir);
    expect((await get(b, 'one'))?.createdAt).toBe(1);
    expect(await get(b, 'two')).toBeNull();
  });

  it('drops expired sessions', async () => {
    let now = 1_000_000;
    const s = await FileSessionStore.open(dir, () => now);
    await set(s, 'x', sess(now + 1000));
    now += 2000;
    expect(await get(s, 'x')).toBeNull();
  });

  it('shares one frozen view per written state, and a write brings a new one', async () => {
    const s = await FileSessionStore.open(dir);
    const account = { accountIndex: 0, userName: 'a@demo' } as unknown as AccountRecord;
    await set(s, 'x', sess(Date.now() + 60_000, { createdAt: 1, accounts: { 0: account } }));
    const first = s.view('x')!;
    expect(s.view('x')).toBe(first);
    expect(Object.isFrozen(first.accounts![0])).toBe(true);
    expect(() => {
      (first as { createdAt?: number }).createdAt = 2;
    }).toThrow(TypeError);
    expect(first.accounts![0]!.rev).toBe(1);

    await s.putAccount('x', '0', { ...account, userName: 'b@demo' }, 1);
    const second = s.view('x')!;
    expect(second).not.toBe(first);
    expect(second.accounts![0]).toMatchObject({ userName: 'b@demo', rev: 2 });
    expect(first.accounts![0]).toMatchObject({ userName: 'a@demo', rev: 1 });
    expect(s.view('gone')).toBeNull();
  });

  it('returns copies, so an unsaved change never reaches the store', async () => {
    const s = await FileSessionStore.open(dir);
    await set(s, 'x', sess(Date.now() + 60_000, { createdAt: 1 }));
    const copy = (await get(s, 'x'))!;
    copy.createdAt = 99;
    expect((await get(s, 'x'))?.createdAt).toBe(1);
  });

  it('reads logs written before account revisions: every account at revision 1', async () => {
    const old = { op: 'set', sid: 'old', expires: Date.now() + 60_000 };
    const accounts = { 0: { accountIndex: 0, accessToken: 't1' } };
    await appendFile(
      join(dir, 'sessions.jsonl'),
      JSON.stringify({ ...old, sess: sess(old.expires, { accounts }) }) + '\n',
    );
    const s = await FileSessionStore.open(dir);
    expect((await get(s, 'old'))?.accounts?.[0]).toMatchObject({ accessToken: 't1', rev: 1 });
    expect(await s.putAccount('old', '0', { accountIndex: 0 } as AccountRecord, 1)).toBe('ok');
  });

  it('survives a torn last line after a crash', async () => {
    const a = await FileSessionStore.open(dir);
    await set(a, 'ok', sess(Date.now() + 60_000));
    await appendFile(join(dir, 'sessions.jsonl'), '{"op":"set","sid":"torn","se');
    const b = await FileSessionStore.open(dir);
    expect(await get(b, 'ok')).not.toBeNull();
    expect(await get(b, 'torn')).toBeNull();
  });

  it('compacts the log to the live sessions', async () => {
    const s = await FileSessionStore.open(dir);
    for (let i = 0; i < 1100; i++)
      await set(s, 'same', sess(Date.now() + 60_000, { createdAt: i }));
    await s.flush();
    const lines = (await readFile(join(dir, 'sessions.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThan(200);
    expect((await get(await FileSessionStore.open(dir), 'same'))?.createdAt).toBe(1099);
  });

  it('lets no whole-session save overwrite or revive an account, and writes accounts by revision', async () => {
    const account = (token: string) => ({ accountIndex: 0, accessToken: token }) as AccountRecord;
    const s = await FileSessionStore.open(dir);
    await set(s, 'x', sess(Date.now() + 60_000, { accounts: { 0: account('t1') } }));
    const stale = (await get(s, 'x'))!;
    expect(stale.accounts?.[0]?.rev).toBe(1);

    // Another request rotated the token since `stale` was read; the stale save keeps it.
    expect(await s.putAccount('x', '0', account('t2'), 1)).toBe('ok');
    await set(s, 'x', { ...stale, lastSeenAt: 5 } as SessionData);
    expect((await get(s, 'x'))?.accounts?.[0]).toMatchObject({ accessToken: 't2', rev: 2 });
    expect((await get(s, 'x'))?.lastSeenAt).toBe(5);
    // A compare-and-set against the old revision loses; so does an older lastSeenAt.
    expect(await s.putAccount('x', '0', account('t3'), 1)).toBe('conflict');
    await s.touchSeen('x', 4);
    expect((await get(s, 'x'))?.lastSeenAt).toBe(5);

    // Removed stays removed, whatever a stale copy says; a destroyed session stays destroyed.
    expect(await s.putAccount('x', '0', null)).toBe('ok');
    await set(s, 'x', stale);
    expect((await get(s, 'x'))?.accounts).toEqual({});
    await destroy(s, 'x');
    await set(s, 'x', stale);
    expect(await get(s, 'x')).toBeNull();
    expect(await s.putAccount('x', '0', account('t4'))).toBe('gone');
  });
});
