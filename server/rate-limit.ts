import { isIPv6 } from 'node:net';
import type { createClient } from 'redis';

export interface Hit {
  count: number;
  /** Seconds until the window ends. */
  resetIn: number;
}

/** A budget of attempts in a fixed window. `max` attempts pass at full speed; after that the
 * budget does not close but slows down to one attempt per `slowMs` until the window ends, so a
 * spent budget delays the next caller instead of locking everybody behind it out. */
export interface Budget {
  key: string;
  max: number;
  windowMs: number;
  slowMs: number;
}

export type Take = { ok: true } | { ok: false; retryAfterMs: number };

/** Counters in fixed windows. In memory for one instance; in Redis when several share the load,
 * so that an attacker cannot multiply a budget by spreading attempts over instances. */
export interface CounterStore {
  hit(key: string, windowMs: number): Promise<Hit>;
  /** One step, atomic over all `budgets`: when every one of them lets an attempt pass, counts it
   * in each; otherwise counts nothing and says how long until all of them would. */
  take(budgets: readonly Budget[]): Promise<Take>;
  /** Uncounts an attempt `take` counted (never below zero, never opening a new window). */
  giveBack(keys: readonly string[]): Promise<void>;
  reset(key: string): Promise<void>;
  /** Keeps a short note under `key` for `ttlMs` (a fact every instance should see for a while,
   * such as why an account just ended), replacing an earlier one. */
  remember(key: string, value: string, ttlMs: number): Promise<void>;
  /** The note under `key` while it lasts, else null. */
  recall(key: string): Promise<string | null>;
}

interface Window {
  count: number;
  resetAt: number;
  /** While a spent budget is slowed down: when its next attempt may pass. */
  nextAt: number;
}

export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, Window>();
  constructor(private readonly now: () => number = Date.now) {}

  private live(key: string) {
    const w = this.windows.get(key);
    if (w && w.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private open(key: string, windowMs: number): Window {
    if (this.windows.size > 100_000) {
      for (const k of this.windows.keys()) this.live(k);
    }
    const w = this.live(key) ?? { count: 0, resetAt: this.now() + windowMs, nextAt: 0 };
    this.windows.set(key, w);
    return w;
  }

  async hit(key: string, windowMs: number): Promise<Hit> {
    const w = this.open(key, windowMs);
    w.count++;
    return { count: w.count, resetIn: Math.ceil((w.resetAt - this.now()) / 1000) };
  }

  // No await between the check and the count: concurrent callers cannot both pass.
  async take(budgets: readonly Budget[]): Promise<Take> {
    const now = this.now();
    let wait = 0;
    for (const b of budgets) {
      const w = this.live(b.key);
      if (w && w.count >= b.max) wait = Math.max(wait, w.nextAt - now);
    }
    if (wait > 0) return { ok: false, retryAfterMs: wait };
    for (const b of budgets) {
      const w = this.open(b.key, b.windowMs);
      w.count++;
      if (w.count >= b.max) w.nextAt = now + b.slowMs;
    }
    return { ok: true };
  }

  async giveBack(keys: readonly string[]): Promise<void> {
    for (const k of keys) {
      const w = this.live(k);
      if (w && w.count > 0) w.count--;
    }
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private readonly notes = new Map<string, { value: string; until: number }>();

  async remember(key: string, value: string, ttlMs: number): Promise<void> {
    const now = this.now();
    // Old notes go as new ones come, so the map stays as small as the live ones.
    for (const [k, n] of this.notes) if (n.until <= now) this.notes.delete(k);
    this.notes.set(key, { value, until: now + ttlMs });
  }

  async recall(key: string): Promise<string | null> {
    const note = this.notes.get(key);
    return note && note.until > this.now() ? note.value : null;
  }
}

type Redis = ReturnType<typeof createClient>;

// A window is one hash: `count`, `resetAt` (when the window ends) and `nextAt` (while a spent
// budget is slowed down, when its next attempt may pass), both in the BFF's clock, passed in as
// ARGV[1] like in the memory store, so that a test moves time instead of waiting. The key's Redis
// expiry only collects windows nobody touches any more: it is twice the window from its opening in
// Redis's own time, so it never ends a window early, even on an instance whose clock runs behind.
// Each script is one atomic step: no crash can leave a counter half-updated or without expiry.
const WINDOW = `
local now = tonumber(ARGV[1])
local function live(key)
  local w = redis.call('HMGET', key, 'count', 'resetAt', 'nextAt')
  if w[2] and tonumber(w[2]) > now then return tonumber(w[1]), tonumber(w[2]), tonumber(w[3]) end
  return nil
end
local function open(key, windowMs)
  local count, resetAt = live(key)
  if count then return resetAt end
  resetAt = now + windowMs
  redis.call('HSET', key, 'count', 0, 'resetAt', resetAt, 'nextAt', 0)
  redis.call('PEXPIRE', key, 2 * windowMs)
  return resetAt
end
`;
// KEYS: one window per budget. ARGV: now, then per budget max, windowMs, slowMs.
const TAKE = `${WINDOW}
local wait = 0
for i = 1, #KEYS do
  local count, _, nextAt = live(KEYS[i])
  if count and count >= tonumber(ARGV[3 * i - 1]) then wait = math.max(wait, nextAt - now) end
end
if wait > 0 then return wait end
for i = 1, #KEYS do
  open(KEYS[i], tonumber(ARGV[3 * i]))
  if redis.call('HINCRBY', KEYS[i], 'count', 1) >= tonumber(ARGV[3 * i - 1]) then
    redis.call('HSET', KEYS[i], 'nextAt', now + tonumber(ARGV[3 * i + 1]))
  end
end
return 0
`;
// ARGV: now, windowMs. Answers the count and the ms until the window ends.
const HIT = `${WINDOW}
local resetAt = open(KEYS[1], tonumber(ARGV[2]))
return { redis.call('HINCRBY', KEYS[1], 'count', 1), resetAt - now }
`;
// ARGV: now.
const GIVE_BACK = `${WINDOW}
for i = 1, #KEYS do
  local count = live(KEYS[i])
  if count and count > 0 then redis.call('HINCRBY', KEYS[i], 'count', -1) end
end
return 0
`;

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly client: Redis,
    private readonly now: () => number = Date.now,
  ) {}

  /** A namespace apart from the string counters of earlier versions (`bff:rl:`), which a rolling
   * update may still find in Redis: a hash command on them would fail. */
  static key(key: string) {
    return `bff:rl-win:${key}`;
  }

  async hit(key: string, windowMs: number): Promise<Hit> {
    const [count, resetInMs] = (await this.client.eval(HIT, {
      keys: [RedisCounterStore.key(key)],
      arguments: [this.now(), windowMs].map(String),
    })) as [number, number];
    return { count, resetIn: Math.ceil(resetInMs / 1000) };
  }

  async take(budgets: readonly Budget[]): Promise<Take> {
    const wait = await this.client.eval(TAKE, {
      keys: budgets.map((b) => RedisCounterStore.key(b.key)),
      arguments: [this.now(), ...budgets.flatMap((b) => [b.max, b.windowMs, b.slowMs])].map(String),
    });
    return Number(wait) > 0 ? { ok: false, retryAfterMs: Number(wait) } : { ok: true };
  }

  async giveBack(keys: readonly string[]): Promise<void> {
    await this.client.eval(GIVE_BACK, {
      keys: keys.map(RedisCounterStore.key),
      arguments: [String(this.now())],
    });
  }

  async reset(key: string): Promise<void> {
    await this.client.del(RedisCounterStore.key(key));
  }

  static noteKey(key: string) {
    return `bff:note:${key}`;
  }

  // A note ends on the BFF's clock, as windows do (`until|value`); Redis's own expiry, twice as
  // long, only collects it.
  async remember(key: string, value: string, ttlMs: number): Promise<void> {
    const until = this.now() + ttlMs;
    await this.client.set(RedisCounterStore.noteKey(key), `${until}|${value}`, { PX: 2 * ttlMs });
  }

  async recall(key: string): Promise<string | null> {
    const note = await this.client.get(RedisCounterStore.noteKey(key));
    const bar = note?.indexOf('|') ?? -1;
    if (!note || bar < 0 || Number(note.slice(0, bar)) <= this.now()) return null;
    return note.slice(bar + 1);
  }
}

export interface LoginLimits {
  /** The length of every budget's window. */
  windowMs: number;
  /** Failed attempts per (account name, client address) at full speed. */
  perPair: number;
  /** Then one attempt per this long for that pair: guessing one account from one address. */
  pairSlowMs: number;
  /** Failed attempts per client address over all account names at full speed. */
  perAddress: number;
  /** Failed attempts per account name over all addresses at full speed. */
  perAccount: number;
  /** Then one attempt per this long for that address or that account. */
  slowMs: number;
  /** Prepended to every counter's key: lets tests that share one Redis keep apart. */
  keyPrefix: string;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  windowMs: 15 * 60_000,
  perPair: 5,
  pairSlowMs: 60_000,
  perAddress: 50,
  perAccount: 20,
  slowMs: 5_000,
  keyPrefix: 'login:',
};

/** The part of a client address one party controls as a whole. An IPv6 user typically holds a
 * whole /64 and could take a fresh address for every attempt, so IPv6 counts per /64; an IPv4
 * address written as IPv6 (`::ffff:a.b.c.d`) counts as that IPv4 address. */
export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const bare = ip.replace(/%.*$/, '');
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  // An embedded IPv4 tail (::a.b.c.d) stands for two groups; only the first four matter here.
  const width = (g: string[]) => g.reduce((n, x) => n + (x.includes('.') ? 2 : 1), 0);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Guest calls (invitations, password resets) per client in a fixed window. The client is its
 * {@link addressBucket}, as for sign-in: a fresh IPv6 address per call must not be a fresh
 * budget. */
export class GuestLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly limit: { max: number; windowMs: number },
  ) {}

  /** Counts one call; past the budget, the whole seconds until the window ends. */
  async hit(ip: string): Promise<{ ok: true } | { ok: false; retryAfter: number }> {
    const h = await this.store.hit(`guest:${addressBucket(ip)}`, this.limit.windowMs);
    return h.count > this.limit.max ? { ok: false, retryAfter: h.resetIn } : { ok: true };
  }
}

/** An attempt counted before the credentials are checked; it stays counted as a failure unless
 * the check succeeds or never happened. */
export interface Reservation {
  /** The credentials were right: this attempt is no failure, and the pair starts afresh. */
  succeeded(): Promise<void>;
  /** No verdict (the upstream failed or timed out): the attempt does not count. */
  undecided(): Promise<void>;
}

/** Sign-in throttling, in budgets per (account, address) pair, per address and per account
 * (see docs/contracts.md, "Sign-in limits"). A SAML sign-in has no account name and spends only
 * the address budget. */
export class LoginLimiter {
  private readonly limits: LoginLimits;
  constructor(
    private readonly store: CounterStore,
    limits: Partial<LoginLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LOGIN_LIMITS, ...limits };
  }

  private budgets(userName: string | null, ip: string): Budget[] {
    const l = this.limits;
    const p = l.keyPrefix;
    const address = addressBucket(ip);
    const addr = {
      key: `${p}addr:${address}`,
      max: l.perAddress,
      windowMs: l.windowMs,
      slowMs: l.slowMs,
    };
    if (userName === null) return [addr];
    // Upstream account names are case-insensitive; so must the budgets be, or a name in other
    // capitals would be a fresh budget for the same account. The address goes first in the pair:
    // it holds no `|`, the name may.
    const account = userName.toLowerCase();
    return [
      {
        key: `${p}pair:${address}|${account}`,
        max: l.perPair,
        windowMs: l.windowMs,
        slowMs: l.pairSlowMs,
      },
      addr,
      { key: `${p}acct:${account}`, max: l.perAccount, windowMs: l.windowMs, slowMs: l.slowMs },
    ];
  }

  /** Counts one attempt in every budget before the check, so that parallel attempts cannot pass
   * a budget together. Either a reservation or the whole seconds to wait (at least 1). */
  async reserve(
    userName: string | null,
    address: string,
  ): Promise<{ ok: true; attempt: Reservation } | { ok: false; retryAfter: number }> {
    const budgets = this.budgets(userName, address);
    const taken = await this.store.take(budgets);
    if (!taken.ok)
      return { ok: false, retryAfter: Math.max(1, Math.ceil(taken.retryAfterMs / 1000)) };
    const keys = budgets.map((b) => b.key);
    const undecided = () => this.store.giveBack(keys);
    return {
      ok: true,
      attempt: {
        undecided,
        // The address and account budgets only get this attempt back: resetting them on success
        // would let an attacker clear them by signing in to an account of their own in between.
        succeeded: async () => {
          await undecided();
          if (userName !== null) await this.store.reset(keys[0]!);
        },
      },
    };
  }
}
