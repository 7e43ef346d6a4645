import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import session, { type SessionData } from 'express-session';

type Callback<T = unknown> = (err?: unknown, value?: T) => void;
type Entry = { sess: SessionData; expires: number };
type LogLine =
  | { op: 'set'; sid: string; sess: SessionData; expires: number }
  | { op: 'touch'; sid: string; expires: number }
  | { op: 'del'; sid: string };

/**
 * The embedded session store: an append-only JSON-lines log under DATA_DIR, replayed at start and
 * compacted when it grows. Reads come from memory (the proxy looks a session up on every call),
 * writes are acknowledged only after they reached the file, so an acknowledged sign-in survives
 * a crash. One BFF process owns the file; several instances need REDIS_URL instead.
 */
export class FileSessionStore extends session.Store {
  private readonly entries = new Map<string, Entry>();
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
      if (line.op === 'set') this.entries.set(line.sid, { sess: line.sess, expires: line.expires });
      else if (line.op === 'touch') {
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
        ([sid, e]) => JSON.stringify({ op: 'set', sid, sess: e.sess, expires: e.expires }) + '\n',
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

  override get(sid: string, cb: Callback<SessionData | null>): void {
    // A deep copy, so a request that mutates its session cannot change the stored one unsaved.
    const sess = this.peek(sid);
    cb(undefined, sess ? (structuredClone(sess) as SessionData) : null);
  }

  override set(sid: string, sess: SessionData, cb?: Callback): void {
    const copy = JSON.parse(JSON.stringify(sess)) as SessionData;
    const expires = this.expiryOf(copy);
    this.entries.set(sid, { sess: copy, expires });
    this.write({ op: 'set', sid, sess: copy, expires }).then(
      () => cb?.(),
      (err: unknown) => cb?.(err),
    );
  }

  override touch(sid: string, sess: SessionData, cb?: Callback): void {
    const e = this.entries.get(sid);
    if (!e) return cb?.();
    e.expires = this.expiryOf(sess);
    if (e.sess.cookie) e.sess.cookie = sess.cookie;
    // Idle expiry only needs minute precision on disk; writing every touch would turn each read
    // into a disk write.
    const last = this.touchWritten.get(sid) ?? 0;
    if (this.now() - last < 60_000) return cb?.();
    this.touchWritten.set(sid, this.now());
    this.write({ op: 'touch', sid, expires: e.expires }).then(
      () => cb?.(),
      (err: unknown) => cb?.(err),
    );
  }

  override destroy(sid: string, cb?: Callback): void {
    this.entries.delete(sid);
    this.touchWritten.delete(sid);
    this.write({ op: 'del', sid }).then(
      () => cb?.(),
      (err: unknown) => cb?.(err),
    );
  }

  override all(cb: Callback<Record<string, SessionData>>): void {
    this.sweep();
    cb(undefined, Object.fromEntries([...this.entries].map(([sid, e]) => [sid, e.sess])));
  }

  override length(cb: Callback<number>): void {
    this.sweep();
    cb(undefined, this.entries.size);
  }

  override clear(cb?: Callback): void {
    this.entries.clear();
    this.queue = this.queue.then(() => this.compact());
    this.queue.then(
      () => cb?.(),
      (err: unknown) => cb?.(err),
    );
  }

  /** Waits for pending writes; called on shutdown. */
  async flush(): Promise<void> {
    await this.queue;
  }
}
