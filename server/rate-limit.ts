import type { createClient } from 'redis';

export interface Hit {
  count: number;
  /** Seconds until the window ends. */
  resetIn: number;
}

/** A fixed-window counter. In memory for one instance; in Redis when several share the load,
 * so that an attacker cannot multiply the budget by spreading attempts over instances. */
export interface CounterStore {
  hit(key: string, windowMs: number): Promise<Hit>;
  peek(key: string): Promise<Hit>;
  reset(key: string): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  private live(key: string) {
    const w = this.windows.get(key);
    if (w && w.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  async hit(key: string, windowMs: number): Promise<Hit> {
    if (this.windows.size > 100_000) {
      for (const k of this.windows.keys()) this.live(k);
    }
    const w = this.live(key) ?? { count: 0, resetAt: this.now() + windowMs };
    w.count++;
    this.windows.set(key, w);
    return { count: w.count, resetIn: Math.ceil((w.resetAt - this.now()) / 1000) };
  }

  async peek(key: string): Promise<Hit> {
    const w = this.live(key);
    return { count: w?.count ?? 0, resetIn: w ? Math.ceil((w.resetAt - this.now()) / 1000) : 0 };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }
}

type Redis = ReturnType<typeof createClient>;

export class RedisCounterStore implements CounterStore {
  constructor(private readonly client: Redis) {}

  async hit(key: string, windowMs: number): Promise<Hit> {
    const k = `bff:rl:${key}`;
    const count = await this.client.incr(k);
    if (count === 1) await this.client.pExpire(k, windowMs);
    const ttl = await this.client.pTTL(k);
    return { count, resetIn: Math.ceil(Math.max(ttl, 0) / 1000) };
  }

  async peek(key: string): Promise<Hit> {
    const k = `bff:rl:${key}`;
    const [count, ttl] = await Promise.all([this.client.get(k), this.client.pTTL(k)]);
    return { count: Number(count ?? 0), resetIn: Math.ceil(Math.max(ttl, 0) / 1000) };
  }

  async reset(key: string): Promise<void> {
    await this.client.del(`bff:rl:${key}`);
  }
}

export interface LoginLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

/** Sign-in throttling: failed attempts count per account name and per client address. */
export class LoginLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly limits: LoginLimits,
  ) {}

  /** Seconds to wait when either budget is spent, else 0. */
  async blockedFor(userName: string, address: string): Promise<number> {
    const [a, b] = await Promise.all([
      this.store.peek(`acct:${userName.toLowerCase()}`),
      this.store.peek(`addr:${address}`),
    ]);
    const waits = [
      a.count >= this.limits.perAccount ? a.resetIn : 0,
      b.count >= this.limits.perAddress ? b.resetIn : 0,
    ];
    return Math.max(...waits);
  }

  async failed(userName: string, address: string): Promise<void> {
    await Promise.all([
      this.store.hit(`acct:${userName.toLowerCase()}`, this.limits.windowMs),
      this.store.hit(`addr:${address}`, this.limits.windowMs),
    ]);
  }

  async succeeded(userName: string): Promise<void> {
    await this.store.reset(`acct:${userName.toLowerCase()}`);
  }
}
