import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import session, { type SessionData } from 'express-session';
import {
  answer,
  type AccountRecord,
  type AccountWrites,
  type PutResult,
  type StoreCallback,
} from '#server/session/session.ts';

/** `revs`: each account index's revision; it only grows and outlives the account (as in the
 * Redis store), so a stale writer can neither overwrite a newer account nor revive a removed one. */
type Entry = {
  sess: SessionData;
  revs: Record<string, number>;
  expires: number;
  /** The frozen copy `view` hands out, made on the first read after the entry was written. */
  view?: SessionData;
};
type LogLine =
  | {
      op: 'set';
      sid: string;
      sess: SessionData;
      revs?: Record<string, number>;
      expires: number;
    }
  | { op: 'touch'; sid: string; expires: number }
  | { op: 'del'; sid: string };

/**
 * The embedded session store: an append-only JSON-lines log under DATA_DIR, replayed at start and
 * compacted when it grows. Reads come from memory (the proxy looks a session up on every call),
 * writes are acknowledged only after they reached the file, so an acknowledged sign-in survives
 * a crash. One BFF process owns the file; several instances need REDIS_URL instead.
 *
 * Writes follow the Redis store's rules (docs/decisions/001): a whole-session save changes the
 * session's own fields and adds accounts at unused indexes only; an account changes through
 * `putAccount`, with compare-and-set on its revision. Every change happens synchronously in
 * memory, so within the one process nothing interleaves.
 */
export class FileSessionStore extends session.Store implements AccountWrites {
  private readonly entries = new Map<string, Entry>();
  /** Destroyed ids, refused for a while so a request that read one cannot save it back. */
  private readonly gone = new Map<string, number>();
  private readonly file: string;
  private lines = 0;
  // Appends and compaction run one after another so the log never interleaves.
  private queue: Promise<void> = Promise.resolve();
  private touchWritten = new Map<string, number>();

  private constructor(
    private readonly dir: string,
    private readonly now: () => number,
  ) {
    super();
    this.file = join(dir, 'sessions.jsonl');
  }

  static async open(dir: string, now: () => number = Date.now): Promise<FileSessionStore> {
    const store = new FileSessionStore(dir, now);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await store.replay();
    return store;
  }

  private async replay(): Promise<void> {
    let text = '';
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const raw of text.split('\n')) {
      if (!raw) continue;
      let line: LogLine;
      try {
        line = JSON.parse(raw) as LogLine;
      } catch {
        // A torn last line after a crash: everything before it is intact, so skip it.
        continue;
      }
      this.lines++;
      if (line.op === 'set') {
        // Logs written before revisions existed: every account starts at revision 1.
        const revs =
          line.revs ?? Object.fromEntries(Object.keys(line.sess.accounts ?? {}).map((i) => [i, 1]));
        this.entries.set(line.sid, { sess: line.sess, revs, expires: line.expires });
      } else if (line.op === 'touch') {
        const e = this.entries.get(line.sid);
        if (e) e.expires = line.expires;
      } else this.entries.delete(line.sid);
    }
    this.sweep();
    await this.compact();
  }

  private sweep(): void {
    const now = this.now();
    for (const [sid, e] of this.entries) if (e.expires <= now) this.entries.delete(sid);
  }

  private write(line: LogLine): Promise<void> {
    const run = async () => {
      await appendFile(this.file, JSON.stringify(line) + '\n', { mode: 0o600 });
      this.lines++;
      if (this.lines > 1000 && this.lines > this.entries.size * 4) await this.compact();
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async compact(): Promise<void> {
    this.sweep();
    const tmp = `${this.file}.tmp`;
    const body = [...this.entries]
      .map(
        ([sid, e]) =>
          JSON.stringify({ op: 'set', sid, sess: e.sess, revs: e.revs, expires: e.expires }) + '\n',
      )
      .join('');
    await writeFile(tmp, body, { mode: 0o600 });
    await rename(tmp, this.file);
    this.lines = this.entries.size;
    this.touchWritten.clear();
  }

  private expiryOf(sess: SessionData): number {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires).getTime() : this.now() + 24 * 3600_000;
  }

  /** Synchronous lookup for the proxy's hot path; express-session uses the callback form. */
  peek(sid: string): SessionData | undefined {
    const e = this.entries.get(sid);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.entries.delete(sid);
      return undefined;
    }
    return e.sess;
  }

  override get(sid: string, cb: StoreCallback<SessionData | null>): void {
    // A deep copy, so a request that mutates its session cannot change the stored one unsaved.
    const sess = this.peek(sid);
    if (!sess) return cb(undefined, null);
    cb(undefined, this.copyOf(sess, this.entries.get(sid)!.revs));
  }

  /**
   * The session for reading only (the proxy's token lookup on every call): one deep-frozen copy
   * per written state instead of a new copy per call. Every write replaces the entry, and with it
   * this copy; a reader that tried to change it would throw instead of corrupting the store.
   */
  view(sid: string): SessionData | null {
    if (!this.peek(sid)) return null;
    const e = this.entries.get(sid)!;
    e.view ??= deepFreeze(this.copyOf(e.sess, e.revs));
    return e.view;
  }

  private copyOf(sess: SessionData, revs: Record<string, number>): SessionData {
    const copy = structuredClone(sess) as SessionData;
    for (const [i, a] of Object.entries(copy.accounts ?? {})) a.rev = revs[i] ?? 1;
    return copy;
  }

  private isGone(sid: string): boolean {
    const until = this.gone.get(sid);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.gone.delete(sid);
    return false;
  }

  private live(sid: string): Entry | null {
    return this.peek(sid) && !this.isGone(sid) ? this.entries.get(sid)! : null;
  }

  private save(sid: string, e: Entry): Promise<void> {
    // Writers spread the old entry: its frozen view must not outlive the state it showed.
    delete e.view;
    this.entries.set(sid, e);
    return this.write({ op: 'set', sid, sess: e.sess, revs: e.revs, expires: e.expires });
  }

  override set(sid: string, sess: SessionData, cb?: StoreCallback): void {
    if (this.isGone(sid)) return cb?.();
    const { accounts: incoming, ...own } = JSON.parse(JSON.stringify(sess)) as SessionData;
    const stored = this.entries.get(sid);
    const accounts = { ...stored?.sess.accounts };
    const revs = { ...stored?.revs };
    for (const [i, a] of Object.entries(incoming ?? {})) {
      if (revs[i] !== undefined) continue;
      revs[i] = a.rev ?? 1;
      delete a.rev;
      accounts[i] = a;
    }
    const lastSeenAt = Math.max(own.lastSeenAt ?? 0, stored?.sess.lastSeenAt ?? 0) || undefined;
    const next = { ...own, accounts, ...(lastSeenAt ? { lastSeenAt } : {}) } as SessionData;
    answer(this.save(sid, { sess: next, revs, expires: this.expiryOf(next) }), cb);
  }

  async putAccount(
    sid: string,
    index: string,
    account: AccountRecord | null,
    ifRev?: number,
  ): Promise<PutResult> {
    const e = this.live(sid);
    if (!e) return 'gone';
    const rev = e.revs[index] ?? 0;
    if (ifRev !== undefined && (rev !== ifRev || !e.sess.accounts?.[index])) return 'conflict';
    const accounts = { ...e.sess.accounts };
    if (account) {
      const { rev: _rev, ...rest } = account;
      accounts[index] = structuredClone(rest);
    } else delete accounts[index];
    await this.save(sid, {
      ...e,
      sess: { ...e.sess, accounts },
      revs: { ...e.revs, [index]: rev + 1 },
    });
    return 'ok';
  }

  async touchSeen(sid: string, at: number): Promise<void> {
    const e = this.live(sid);
    if (!e || (e.sess.lastSeenAt ?? 0) >= at) return;
    await this.save(sid, { ...e, sess: { ...e.sess, lastSeenAt: at } });
  }

  /** One process owns the file, and its refreshes are already single-flight in memory. */
  async lock(): Promise<string> {
    return 'local';
  }

  async unlock(): Promise<void> {}

  override touch(sid: string, sess: SessionData, cb?: StoreCallback): void {
    const e = this.entries.get(sid);
    if (!e) return cb?.();
    e.expires = this.expiryOf(sess);
    if (e.sess.cookie) e.sess.cookie = sess.cookie;
    delete e.view;
    // Idle expiry only needs minute precision on disk; writing every touch would turn each read
    // into a disk write.
    const last = this.touchWritten.get(sid) ?? 0;
    if (this.now() - last < 60_000) return cb?.();
    this.touchWritten.set(sid, this.now());
    answer(this.write({ op: 'touch', sid, expires: e.expires }), cb);
  }

  override destroy(sid: string, cb?: StoreCallback): void {
    this.entries.delete(sid);
    this.gone.set(sid, this.now() + 5 * 60_000);
    if (this.gone.size > 10_000) for (const id of this.gone.keys()) this.isGone(id);
    this.touchWritten.delete(sid);
    answer(this.write({ op: 'del', sid }), cb);
  }

  override all(cb: StoreCallback<Record<string, SessionData>>): void {
    this.sweep();
    cb(undefined, Object.fromEntries([...this.entries].map(([sid, e]) => [sid, e.sess])));
  }

  override length(cb: StoreCallback<number>): void {
    this.sweep();
    cb(undefined, this.entries.size);
  }

  override clear(cb?: StoreCallback): void {
    this.entries.clear();
    this.queue = this.queue.then(() => this.compact());
    answer(this.queue, cb);
  }

  /** Waits for pending writes; called on shutdown. */
  async flush(): Promise<void> {
    await this.queue;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
