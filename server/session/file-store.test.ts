import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionData } from 'express-session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '#server/session/file-store.ts';

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

  it('returns copies, so an unsaved change never reaches the store', async () => {
    const s = await FileSessionStore.open(dir);
    await set(s, 'x', sess(Date.now() + 60_000, { createdAt: 1 }));
    const copy = (await get(s, 'x'))!;
    copy.createdAt = 99;
    expect((await get(s, 'x'))?.createdAt).toBe(1);
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
});
