import session, { type SessionData } from 'express-session';
import type { createClient } from 'redis';
import {
  answer,
  type AccountRecord,
  type AccountWrites,
  type PutResult,
  type StoreCallback,
} from '#server/session/session.ts';

type Redis = ReturnType<typeof createClient>;

/** How long a destroyed session's id stays refused, so a request that read it before the
 * sign-out cannot write it back to life. Longer than any request may run. */
const GONE_MS = 5 * 60_000;

// One hash per session: `s` the session's own JSON (cookie, createdAt), `seen` lastSeenAt,
// `a:{i}` each account's JSON and `r:{i}` its revision. Revisions only grow and survive the
// account's removal, so a writer holding an old revision can never overwrite a newer account
// or bring a removed one back. `gone` marks a destroyed session.

/** A whole-session save (express-session at the end of a /bff request): the session's own
 * fields, lastSeenAt only forward, and accounts only at indexes this session never used (the
 * accounts carried over by a regenerate). Existing accounts change only through PUT_ACCOUNT. */
const SET = `
if redis.call('TYPE', KEYS[1]).ok == 'string' then redis.call('DEL', KEYS[1]) end
if redis.call('HEXISTS', KEYS[1], 'gone') == 1 then return 0 end
redis.call('HSET', KEYS[1], 's', ARGV[2])
if ARGV[3] ~= '' then
  local seen = tonumber(redis.call('HGET', KEYS[1], 'seen') or '0')
  if tonumber(ARGV[3]) > seen then redis.call('HSET', KEYS[1], 'seen', ARGV[3]) end
end
for i = 4, #ARGV, 3 do
  if redis.call('HSETNX', KEYS[1], 'r:' .. ARGV[i], ARGV[i + 1]) == 1 then
    redis.call('HSET', KEYS[1], 'a:' .. ARGV[i], ARGV[i + 2])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/** One account replaced (or removed with an empty value). With a revision, only when the stored
 * account still has it (compare-and-set); without, whatever is there (sign-out). Answers the
 * new revision, -1 when the session is gone, -2 on a revision mismatch. */
const PUT_ACCOUNT = `
if redis.call('HEXISTS', KEYS[1], 's') == 0 or redis.call('HEXISTS', KEYS[1], 'gone') == 1 then
  return -1
end
local rev = tonumber(redis.call('HGET', KEYS[1], 'r:' .. ARGV[1]) or '0')
if ARGV[2] ~= '' and (rev ~= tonumber(ARGV[2]) or redis.call('HEXISTS', KEYS[1], 'a:' .. ARGV[1]) == 0) then
  return -2
end
rev = rev + 1
redis.call('HSET', KEYS[1], 'r:' .. ARGV[1], rev)
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], 'a:' .. ARGV[1])
else redis.call('HSET', KEYS[1], 'a:' .. ARGV[1], ARGV[3]) end
return rev`;

const SEEN = `
if redis.call('HEXISTS', KEYS[1], 's') == 0 or redis.call('HEXISTS', KEYS[1], 'gone') == 1 then
  return 0
end
local seen = tonumber(redis.call('HGET', KEYS[1], 'seen') or '0')
if tonumber(ARGV[1]) > seen then redis.call('HSET', KEYS[1], 'seen', ARGV[1]) end
return 1`;

const DESTROY = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'gone', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

function withoutRev(a: AccountRecord): string {
  const { rev: _rev, ...rest } = a;
  return JSON.stringify(rest);
}

/**
 * Sessions in Redis for several BFF instances. Unlike a whole-value store, a save never
 * overwrites an account another instance changed meanwhile: each account is its own field with a
 * revision, written with compare-and-set (see docs/decisions/001).
 */
export class RedisSessionStore extends session.Store implements AccountWrites {
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly ttlMs: number,
  ) {
    super();
  }

  private key(sid: string) {
    return this.prefix + sid;
  }

  private async read(sid: string): Promise<SessionData | null> {
    let h: Record<string, string>;
    try {
      h = await this.client.hGetAll(this.key(sid));
    } catch (err) {
      if (!String(err).includes('WRONGTYPE')) throw err;
      return this.upgrade(sid);
    }
    if (!h.s || h.gone) return null;
    const sess = JSON.parse(h.s) as SessionData;
    if (h.seen) sess.lastSeenAt = Number(h.seen);
    const accounts: Record<string, AccountRecord> = {};
    for (const [field, value] of Object.entries(h)) {
      if (!field.startsWith('a:')) continue;
      const index = field.slice(2);
      accounts[index] = { ...(JSON.parse(value) as AccountRecord), rev: Number(h[`r:${index}`]) };
    }
    sess.accounts = accounts;
    return sess;
  }

  /** A session connect-redis stored (one JSON string) before this store existed: rewritten
   * into the hash once, so an upgrade signs nobody out. */
  private async upgrade(sid: string): Promise<SessionData | null> {
    const raw = await this.client.get(this.key(sid));
    if (!raw) return null;
    await new Promise<void>((resolve, reject) =>
      this.set(sid, JSON.parse(raw) as SessionData, (err) => (err ? reject(err) : resolve())),
    );
    return this.read(sid);
  }

  override get(sid: string, cb: StoreCallback<SessionData | null>): void {
    this.read(sid).then(
      (s) => cb(undefined, s),
      (err: unknown) => cb(err),
    );
  }

  override set(sid: string, sess: SessionData, cb?: StoreCallback): void {
    const { accounts, lastSeenAt, ...own } = sess;
    const args = [String(this.ttlMs), JSON.stringify(own), lastSeenAt ? String(lastSeenAt) : ''];
    for (const [index, a] of Object.entries(accounts ?? {}))
      args.push(index, String(a.rev ?? 1), withoutRev(a));
    answer(this.client.eval(SET, { keys: [this.key(sid)], arguments: args }), cb);
  }

  override touch(sid: string, _sess: SessionData, cb?: StoreCallback): void {
    answer(this.client.pExpire(this.key(sid), this.ttlMs), cb);
  }

  override destroy(sid: string, cb?: StoreCallback): void {
    answer(this.client.eval(DESTROY, { keys: [this.key(sid)], arguments: [String(GONE_MS)] }), cb);
  }

  async putAccount(
    sid: string,
    index: string,
    account: AccountRecord | null,
    ifRev?: number,
  ): Promise<PutResult> {
    const r = Number(
      await this.client.eval(PUT_ACCOUNT, {
        keys: [this.key(sid)],
        arguments: [
          index,
          ifRev === undefined ? '' : String(ifRev),
          account ? withoutRev(account) : '',
        ],
      }),
    );
    return r === -1 ? 'gone' : r === -2 ? 'conflict' : 'ok';
  }

  async touchSeen(sid: string, at: number): Promise<void> {
    await this.client.eval(SEEN, { keys: [this.key(sid)], arguments: [String(at)] });
  }

  async lock(key: string, ttlMs: number): Promise<string | null> {
    const token = crypto.randomUUID();
    const ok = await this.client.set(`bff:lock:${key}`, token, {
      condition: 'NX',
      expiration: { type: 'PX', value: ttlMs },
    });
    return ok === 'OK' ? token : null;
  }

  async unlock(key: string, token: string): Promise<void> {
    await this.client.eval(UNLOCK, { keys: [`bff:lock:${key}`], arguments: [token] });
  }
}
