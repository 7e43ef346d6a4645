import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import session, { type SessionData, type Store } from 'express-session';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import { systemClock, type Clock } from '#common/clock.ts';
import type { Config } from '#server/config.ts';
import type { SessionAccount } from '#common/contracts/bff.ts';
import { FileSessionStore } from '#server/session/file-store.ts';
import { RedisSessionStore } from '#server/session/redis-store.ts';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from '#server/rate-limit.ts';

/** One signed-in account of a browser session. Everything here stays on the server; the
 * browser sees only `publicAccount(...)`. */
export interface AccountRecord {
  accountIndex: number;
  userName: string;
  userFullName: string;
  tenantId: string;
  tenantName: string;
  tenantSlug: string;
  sub: string;
  /** Who the user is in the upstream's records (createdBy/updatedBy); null when the token says not. */
  userCode: string | null;
  permissions: string[];
  isRequiredToChangePassword: boolean;
  /** Access token expiry, ms since epoch (0 while a password change is pending). */
  expiresAt: number;
  accessToken?: string;
  /** The upstream's refresh cookie pairs (`name=value; ...`), sent back only to the auth service. */
  refreshCookie?: string;
  /** Upstream challenge for a forced password change. */
  challenge?: string;
  /** The store's revision of this account, set on every read; a compare-and-set writes against
   * it. Never stored inside the record itself. */
  rev?: number;
}

declare module 'express-session' {
  interface SessionData {
    accounts?: Record<string, AccountRecord>;
    createdAt?: number;
    lastSeenAt?: number;
  }
}

/** What the browser sees of an account: the contract's (common/contracts/bff.ts). */
export type PublicAccount = SessionAccount;

export function publicAccount(a: AccountRecord): PublicAccount {
  const { accessToken: _a, refreshCookie: _r, challenge: _c, rev: _v, ...rest } = a;
  return { ...rest, workspace: a.tenantSlug };
}

export class SessionStoreUnavailable extends Error {
  readonly status = 503;
}

/** `conflict`: the account's revision moved on (another request or instance changed it);
 * `gone`: the session no longer exists. */
export type PutResult = 'ok' | 'conflict' | 'gone';

/** How express-session hears back from a store: an error, or none and maybe a value. */
export type StoreCallback<T = unknown> = (err?: unknown, value?: T) => void;

/** Answers express-session's callback once a store's write (a promise) has finished or failed. */
export function answer(work: Promise<unknown>, cb?: StoreCallback): void {
  work.then(
    () => cb?.(),
    (err: unknown) => cb?.(err),
  );
}

/** What both session stores offer beyond express-session's get/set/destroy. */
export interface AccountWrites {
  /** Replaces (or, with null, removes) one account. With `ifRev`, only while the stored account
   * still has that revision; without, unconditionally (sign-in, sign-out). */
  putAccount(
    sid: string,
    index: string,
    account: AccountRecord | null,
    ifRev?: number,
  ): Promise<PutResult>;
  /** Moves lastSeenAt forward (never back). */
  touchSeen(sid: string, at: number): Promise<void>;
  /** A lock held by at most one instance until unlocked or `ttlMs` passed; null when taken. */
  lock(key: string, ttlMs: number): Promise<string | null>;
  unlock(key: string, token: string): Promise<void>;
}

export interface SessionKit {
  cookieName: string;
  middleware: RequestHandler;
  store: Store;
  /** The session id from a request's signed cookie, or null; no store access. */
  readSid(req: { headers: IncomingHttpHeaders }): string | null;
  load(sid: string): Promise<SessionData | null>;
  /** The session to read, never to change (it may be shared and frozen): the per-call path. */
  view(sid: string): Promise<SessionData | null>;
  /** The same at once, when the store holds its sessions in memory (the embedded store);
   * undefined when only `view` can tell (Redis). */
  viewNow(sid: string): SessionData | null | undefined;
  /** See {@link AccountWrites}; store failures become {@link SessionStoreUnavailable}. */
  putAccount: AccountWrites['putAccount'];
  touchSeen: AccountWrites['touchSeen'];
  lock: AccountWrites['lock'];
  unlock: AccountWrites['unlock'];
  destroy(sid: string): Promise<void>;
  /** Whether the session is past its idle or absolute limit. */
  isExpired(s: SessionData, now?: number): boolean;
  /** Whether lastSeenAt is old enough to be written again: a quarter of the idle limit (at most
   * a minute), so activity always lands well before the limit, however short it is. */
  seenDue(s: SessionData, now?: number): boolean;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Counters for rate limits, in the same backing store as the sessions. */
  counters: CounterStore;
  /** The time of day for everything session-related: timeouts, token expiry, rate windows. */
  clock: Clock;
}

async function loadOrCreateSecret(config: Config): Promise<string> {
  if (config.sessionSecret) return config.sessionSecret;
  // Outside production a generated secret is kept under DATA_DIR, so sessions survive restarts
  // without asking every developer to invent one.
  const file = join(config.dataDir, 'session-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start
  }
  await mkdir(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

/** express-session's cookie format: `s:<id>.<base64 HMAC-SHA256 without padding>`. */
function unsign(value: string, secret: string): string | null {
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const id = value.slice(0, dot);
  const mac = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(
    createHmac('sha256', secret).update(id).digest('base64').replace(/=+$/, ''),
  );
  return mac.length === expected.length && timingSafeEqual(mac, expected) ? id : null;
}

/** The first value of cookie `name` in a Cookie header, as sent (not decoded), or null. */
function cookieText(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (let start = 0; start < header.length;) {
    const end = header.indexOf(';', start);
    const stop = end < 0 ? header.length : end;
    const eq = header.indexOf('=', start);
    if (eq > start && eq < stop && header.slice(start, eq).trim() === name)
      return header.slice(eq + 1, stop).trim();
    start = stop + 1;
  }
  return null;
}

function decodedCookie(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function promisify<T>(fn: (cb: (err?: unknown, v?: T) => void) => void): Promise<T | undefined> {
  return new Promise((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));
}

export async function createSessionKit(
  config: Config,
  log: Logger,
  clock: Clock = systemClock,
): Promise<SessionKit> {
  const secret = await loadOrCreateSecret(config);
  // `__Host-` binds the cookie to this exact origin over HTTPS (no Domain, Path=/, Secure).
  const cookieName = config.production ? '__Host-bff.sid' : 'bff.sid';
  const ttlSeconds = Math.ceil(config.sessionAbsoluteTimeoutMs / 1000);

  let store: Store & AccountWrites;
  let ping: () => Promise<boolean>;
  let closeStore: () => Promise<void>;
  let counters: CounterStore;
  if (config.redisUrl) {
    let connectedOnce = false;
    const client = createClient({
      url: config.redisUrl,
      // Without this, commands queue while Redis is down and requests hang; we want a fast 503.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 3000,
        // At start, a Redis that is not there is a configuration error: give up after a few
        // tries. Once running, keep reconnecting (and answer 503 meanwhile).
        reconnectStrategy: (retries, cause) =>
          !connectedOnce && retries >= 3
            ? new Error(`Redis at ${config.redisUrl} is unreachable: ${cause.message}`)
            : Math.min(retries * 200, 2000),
      },
    });
    client.on('error', (err: Error) => log.warn({ err: err.message }, 'redis session store error'));
    // The end of an outage, for whoever reads the log after the errors (and for tests, which wait
    // for this line instead of polling readiness).
    client.on('ready', () => {
      if (connectedOnce) log.info('redis session store connected again');
    });
    await client.connect();
    connectedOnce = true;
    // Not connect-redis: its one JSON value per session lets any save overwrite tokens another
    // instance has just rotated (docs/decisions/001).
    store = new RedisSessionStore(client, 'bff:sess:', ttlSeconds * 1000);
    counters = new RedisCounterStore(client, () => clock.now());
    ping = async () => {
      try {
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    };
    closeStore = async () => {
      // Let pending replies arrive, but do not wait on a Redis that is gone.
      if (!client.isReady) return void client.destroy();
      await Promise.race([client.close(), new Promise((r) => setTimeout(r, 2000))]).catch(
        () => undefined,
      );
      if (client.isOpen) client.destroy();
    };
  } else {
    const fileStore = await FileSessionStore.open(join(config.dataDir, 'sessions'));
    store = fileStore;
    counters = new MemoryCounterStore(() => clock.now());
    ping = async () => true;
    closeStore = () => fileStore.flush();
  }

  // Whatever a store outage looks like (offline client, reset socket, timeout), the request
  // handlers see one error type and answer 503.
  for (const method of ['get', 'set', 'touch', 'destroy'] as const) {
    const original = (store[method] as (...args: unknown[]) => unknown).bind(store);
    (store as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const cb = args.at(-1);
      if (typeof cb !== 'function') return original(...args);
      return original(...args.slice(0, -1), (err: unknown, value: unknown) =>
        err
          ? cb(
              err instanceof SessionStoreUnavailable
                ? err
                : new SessionStoreUnavailable(String(err)),
            )
          : cb(null, value),
      );
    };
  }

  const middleware = session({
    name: cookieName,
    secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    proxy: config.trustProxy !== false,
    cookie: {
      httpOnly: true,
      sameSite: 'strict',
      secure: config.production,
      path: '/',
      // A browser-session cookie: idle and absolute limits are enforced on the server, where a
      // user active only through /api calls still counts as active.
      maxAge: undefined,
    },
  });

  const unavailable =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (err) {
        throw err instanceof SessionStoreUnavailable
          ? err
          : new SessionStoreUnavailable(String(err));
      }
    };
  const seenEveryMs = Math.min(60_000, config.sessionIdleTimeoutMs / 4);
  // Cookie values whose signature was checked, with their session id: the HMAC is paid once per
  // session and instance, not on every proxied call. A signature says nothing about whether the
  // session still exists; the store answers that on every call as before.
  const verified = new Map<string, string>();
  const kit: SessionKit = {
    cookieName,
    middleware,
    store,
    readSid(req) {
      // Looked up as it came (still URL-encoded): a known cookie costs no decoding either.
      const encoded = cookieText(req.headers.cookie, cookieName);
      if (encoded === null) return null;
      const known = verified.get(encoded);
      if (known !== undefined) return known;
      const raw = decodedCookie(encoded);
      if (!raw?.startsWith('s:')) return null;
      const sid = unsign(raw.slice(2), secret);
      if (sid === null) return null;
      // Bounded: a flood of validly signed cookies (there are few) can only empty it.
      if (verified.size >= 10_000) verified.clear();
      verified.set(encoded, sid);
      return sid;
    },
    async load(sid) {
      try {
        return (await promisify<SessionData | null>((cb) => store.get(sid, cb))) ?? null;
      } catch (err) {
        throw new SessionStoreUnavailable(String(err));
      }
    },
    // The embedded store can share one frozen copy; Redis parses a fresh one per read anyway.
    view:
      store instanceof FileSessionStore ? async (sid) => store.view(sid) : (sid) => kit.load(sid),
    viewNow: store instanceof FileSessionStore ? (sid) => store.view(sid) : () => undefined,
    putAccount: unavailable(store.putAccount.bind(store)),
    touchSeen: unavailable(store.touchSeen.bind(store)),
    lock: unavailable(store.lock.bind(store)),
    unlock: unavailable(store.unlock.bind(store)),
    async destroy(sid) {
      try {
        await promisify((cb) => store.destroy(sid, cb));
      } catch (err) {
        throw new SessionStoreUnavailable(String(err));
      }
    },
    isExpired(s, now = clock.now()) {
      const created = s.createdAt ?? 0;
      const seen = s.lastSeenAt ?? created;
      return (
        now - created > config.sessionAbsoluteTimeoutMs || now - seen > config.sessionIdleTimeoutMs
      );
    },
    seenDue(s, now = clock.now()) {
      return now - (s.lastSeenAt ?? 0) >= seenEveryMs;
    },
    ping,
    close: closeStore,
    counters,
    clock,
  };
  return kit;
}
