import type { Logger } from 'pino';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { hasUiPermission } from '#common/permissions.ts';
import { awaitFreshToken, tokenRefreshMachine } from '#machines/token-refresh.machine.ts';
import { accountFromTokens } from '#server/session/accounts.ts';
import type { SessionData } from 'express-session';
import {
  SessionStoreUnavailable,
  type AccountRecord,
  type SessionKit,
} from '#server/session/session.ts';
import type { AuthClient } from '#server/upstream/auth-client.ts';
import { claimsOf, UpstreamHttpError } from '#server/upstream/auth-client.ts';

/**
 * Why a refresh ended an account, when it was not a time-out: the UI permission is gone (the
 * spec's isNotUiPermission) or an administrator disabled the user. The client says which.
 */
export type AccountEndReason = 'no_ui_permission' | 'user_disabled';

export type TokenResult =
  | { ok: true; account: AccountRecord; accessToken: string }
  | { ok: false; status: 401 | 403 | 503; error: string; reason?: AccountEndReason };

class RefreshFailure extends Error {
  constructor(readonly kind: 'rejected' | 'transient') {
    super(`refresh ${kind}`);
  }
}

const MARGIN_MS = 10_000;
/** How long the reason an account ended is told to calls that still arrive for it. */
const ENDED_REASON_MS = 60_000;
/** A forced refresh of a younger token first waits until the token is this old. The token's
 * `iat` has one-second precision, so a change made just after issue may not be in it; waiting
 * instead of skipping never loses the change, and a client calling in a loop still causes at most
 * one upstream refresh per account in this time. */
export const FORCED_REFRESH_MIN_AGE_MS = 2_000;

/** Tokens the upstream issued that the store has not taken yet, held in memory. A bound on how
 * many: past it a rotated token is dropped (and logged) rather than memory grown without end. */
const MAX_PENDING = 10_000;
const RETRY_MS = 500;
const LOCK_POLL_MS = 150;

interface Pending {
  sid: string;
  index: string;
  account: AccountRecord;
  /** The stored revision these tokens replace; the write is a compare-and-set on it. */
  baseRev: number;
  /** The cross-instance refresh lock, released once the write landed. */
  lock: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const endedKey = (sid: string, index: string) => `ended:${sid}:${index}`;
const isEndReason = (v: string | null): v is AccountEndReason =>
  v === 'no_ui_permission' || v === 'user_disabled';

function issuedAt(accessToken: string): number {
  const { iat } = claimsOf(accessToken);
  return typeof iat === 'number' ? iat * 1000 : 0;
}

/**
 * Hands out a usable access token for (session, account), refreshing it when fewer than 10 s
 * remain. Within the process the refresh statechart makes it single-flight: every call that
 * arrives while one refresh runs waits on the same actor, and actors live only while a refresh
 * is in flight. Across instances a lock in the store (per session and account) lets one refresh
 * while the others wait for its result; the upstream rotates refresh tokens, so two refreshes of
 * one account would sign it out. New tokens are written with compare-and-set on the account's
 * revision; a write the store refuses for a while stays in memory (and in use) until it lands.
 */
export class TokenService {
  private readonly inFlight = new Map<string, ActorRefFrom<typeof tokenRefreshMachine>>();
  private readonly pending = new Map<string, Pending>();
  private readonly flushing = new Map<string, Promise<void>>();
  private readonly background = new Set<Promise<unknown>>();
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly lockTtlMs: number;
  /** Accounts a session-id change is copying right now: no refresh of this process starts on
   * them (the file store's lock is per process only, so this is its lock). */
  private readonly copying = new Set<string>();

  constructor(
    private readonly kit: SessionKit,
    private readonly auth: AuthClient,
    private readonly log: Logger,
    /** `lockTtlMs`: longer than a refresh call may take (the upstream timeout and a margin). */
    options: { lockTtlMs?: number } = {},
  ) {
    this.lockTtlMs = options.lockTtlMs ?? 35_000;
  }

  /**
   * `force`: refresh whatever the expiry (the user's access changed upstream), through the same
   * single-flight refresh, once the token is {@link FORCED_REFRESH_MIN_AGE_MS} old.
   */
  async accessToken(
    sid: string,
    index: string,
    now = this.kit.clock.now(),
    options: { force?: boolean } = {},
  ): Promise<TokenResult> {
    if (options.force !== true) {
      const ready = this.readyToken(sid, index, now);
      if (ready) return ready;
    }
    const { s, account } = await this.current(sid, index);
    if (s && this.kit.isExpired(s, now))
      return { ok: false, status: 401, error: 'session_expired' };
    if (!s) return this.ended(sid, index);
    // Ended meanwhile, by a refresh of another call: that call's reason holds for this one too.
    if (!account) return this.ended(sid, index);
    if (account.isRequiredToChangePassword || !account.accessToken) {
      return { ok: false, status: 403, error: 'password_change_required' };
    }
    if (this.kit.seenDue(s, now)) this.track(this.kit.touchSeen(sid, now));
    const force = options.force === true;
    if (force) {
      const wait = issuedAt(account.accessToken) + FORCED_REFRESH_MIN_AGE_MS - now;
      if (wait > 0) {
        await sleep(wait);
        // At least `wait` later, also on a test clock nobody moved meanwhile.
        return this.accessToken(sid, index, Math.max(this.kit.clock.now(), now + wait), options);
      }
    }
    if (!force && account.expiresAt - now >= MARGIN_MS) {
      return { ok: true, account, accessToken: account.accessToken };
    }
    // A forced refresh starts the statechart with the token as already due.
    const dueAt = force ? 0 : account.expiresAt;
    const trigger = { rev: account.rev ?? 0, force, since: now };
    const outcome = await awaitFreshToken(this.actorFor(sid, index, dueAt, trigger), now);
    if (outcome === 'expired') return this.ended(sid, index);
    if (outcome === 'transient') return { ok: false, status: 503, error: 'upstream_unavailable' };
    const fresh = (await this.current(sid, index)).account;
    if (!fresh?.accessToken) return { ok: false, status: 401, error: 'session_expired' };
    return { ok: true, account: fresh, accessToken: fresh.accessToken };
  }

  /**
   * The answer for an account that ended: 401 `session_expired`, with the reason when a refresh
   * ended it for one (the spec's isNotUiPermission, a disabled user), so the client says what
   * happened instead of a time-out. The reason is a note in the shared store for a minute: every
   * call that finds the account gone meanwhile gets it, on whichever instance it lands. Only a
   * hint: a store that cannot tell leaves the plain answer, never access.
   */
  async ended(sid: string, index: string): Promise<Extract<TokenResult, { ok: false }>> {
    const reason = await this.kit.counters.recall(endedKey(sid, index)).catch(() => null);
    return {
      ok: false,
      status: 401,
      error: 'session_expired',
      ...(isEndReason(reason) ? { reason } : {}),
    };
  }

  private async markEnded(sid: string, index: string, reason: AccountEndReason): Promise<void> {
    await this.kit.counters
      .remember(endedKey(sid, index), reason, ENDED_REASON_MS)
      .catch((err: Error) => this.log.warn({ err: err.message }, 'end reason not kept'));
  }

  /**
   * The token at once, without a promise, in the common case: the store holds the session in
   * memory (`viewNow`), it is live, the account has a token good for more than the margin and
   * no write of this process for it is pending. Undefined in every other case (no session, a
   * refresh due, Redis), which `accessToken` answers. The proxy asks this first on every call:
   * the three awaits of the general path were a measurable share of a proxied call
   * (bench/proxy-throughput.ts, issue 14).
   */
  readyToken(sid: string, index: string, now = this.kit.clock.now()): TokenResult | undefined {
    const s = this.kit.viewNow(sid);
    if (!s || this.kit.isExpired(s, now)) return undefined;
    const account = s.accounts?.[index];
    if (
      !account?.accessToken ||
      account.isRequiredToChangePassword ||
      account.expiresAt - now < MARGIN_MS ||
      (this.pending.size > 0 && this.pending.has(`${sid}:${index}`))
    )
      return undefined;
    if (this.kit.seenDue(s, now)) this.track(this.kit.touchSeen(sid, now));
    return { ok: true, account, accessToken: account.accessToken };
  }

  /** Resolves once no refresh runs and every pending write landed, or at `deadline`. */
  async drain(deadline: number): Promise<void> {
    while (this.inFlight.size + this.pending.size + this.background.size > 0) {
      if (Date.now() >= deadline) {
        if (this.pending.size > 0)
          this.log.error({ accounts: this.pending.size }, 'stopping with token writes not stored');
        return;
      }
      if (this.pending.size > 0) await this.flushAll();
      await sleep(50);
    }
  }

  /**
   * Runs `fn` (a session-id change that copies these accounts of `sid` to a new id) while no
   * refresh of them runs or writes, on any instance: every refresh lock is taken, waiting for a
   * running refresh and its token write to end first. A refresh that lands after the copy would
   * write its rotated refresh token to the old id only, and the copy would hold a dead one.
   * Waits at most the lock's lifetime; then the store counts as unavailable (503).
   */
  async holdingAccounts<T>(sid: string, indexes: string[], fn: () => Promise<T>): Promise<T> {
    const held: { key: string; token: string }[] = [];
    const deadline = Date.now() + this.lockTtlMs + LOCK_POLL_MS;
    let waited = false;
    try {
      for (const index of indexes) {
        const key = `${sid}:${index}`;
        for (;;) {
          if (this.pending.has(key)) await this.flush(key);
          const busyHere = this.inFlight.has(key) || this.pending.has(key);
          const token = busyHere ? null : await this.kit.lock(key, this.lockTtlMs);
          if (token) {
            held.push({ key, token });
            this.copying.add(key);
            break;
          }
          if (Date.now() > deadline)
            throw new SessionStoreUnavailable('a refresh of the session holds its lock');
          if (!waited) {
            waited = true;
            this.log.debug({ accountIndex: index }, 'session id change waits for a refresh');
          }
          await sleep(LOCK_POLL_MS);
        }
      }
      return await fn();
    } finally {
      for (const { key, token } of held) {
        this.copying.delete(key);
        await this.kit.unlock(key, token).catch(() => undefined);
      }
    }
  }

  /** The account as this process knows it best: the stored one, or the newer tokens whose
   * write has not landed yet. */
  private async current(
    sid: string,
    index: string,
  ): Promise<{ s: SessionData | null; account: AccountRecord | undefined }> {
    const s = await this.kit.view(sid);
    const stored = s?.accounts?.[index];
    const p = this.pending.get(`${sid}:${index}`);
    if (p && stored?.rev === p.baseRev) return { s, account: { ...p.account, rev: p.baseRev } };
    // A stored revision past ours: someone wrote after us (a switch, a sign-out), theirs wins.
    if (p && s) this.dropPending(`${sid}:${index}`, p);
    return { s, account: stored };
  }

  private track(work: Promise<unknown>) {
    const p = work.catch(() => undefined).finally(() => this.background.delete(p));
    this.background.add(p);
  }

  private actorFor(
    sid: string,
    index: string,
    expiresAt: number,
    trigger: { rev: number; force: boolean; since: number },
  ) {
    const key = `${sid}:${index}`;
    const existing = this.inFlight.get(key);
    if (existing) return existing;
    const actor = createActor(
      tokenRefreshMachine.provide({
        actors: { refreshTokens: fromPromise(() => this.refresh(sid, index, trigger)) },
      }),
      { input: { expiresAt, marginMs: MARGIN_MS } },
    );
    actor.subscribe((snap) => {
      if (!snap.matches('refreshing')) queueMicrotask(() => this.forget(key, actor));
    });
    this.inFlight.set(key, actor);
    actor.start();
    return actor;
  }

  private forget(key: string, actor: ActorRefFrom<typeof tokenRefreshMachine>) {
    if (this.inFlight.get(key) === actor && !actor.getSnapshot().matches('refreshing')) {
      this.inFlight.delete(key);
      actor.stop();
    }
  }

  /**
   * One refresh across every instance: take the lock and renew, or, while another instance holds
   * it, re-read the session until its new token is there (or the lock is free). Bounded by the
   * lock's lifetime; then the call answers 503 and the account stays.
   */
  private async refresh(
    sid: string,
    index: string,
    trigger: { rev: number; force: boolean; since: number },
  ): Promise<{ expiresAt: number }> {
    const key = `${sid}:${index}`;
    const renewedMeanwhile = (a: AccountRecord) =>
      (a.rev ?? 0) !== trigger.rev &&
      !!a.accessToken &&
      (trigger.force
        ? issuedAt(a.accessToken) > trigger.since
        : a.expiresAt - this.kit.clock.now() >= MARGIN_MS);
    const deadline = Date.now() + this.lockTtlMs;
    try {
      for (;;) {
        const lock = this.copying.has(key) ? null : await this.kit.lock(key, this.lockTtlMs);
        const release = () => (lock ? this.kit.unlock(key, lock).catch(() => undefined) : null);
        const account = await this.settledAccount(sid, index).catch(async (err: unknown) => {
          await release();
          throw err;
        });
        // Ended, or renewed by another instance (or a switch) since this call read it.
        if (!account || renewedMeanwhile(account)) {
          await release();
          if (!account) throw new RefreshFailure('rejected');
          return { expiresAt: account.expiresAt };
        }
        if (lock) return await this.renew(sid, index, account, lock);
        if (Date.now() > deadline) throw new RefreshFailure('transient');
        await sleep(LOCK_POLL_MS);
      }
    } catch (err) {
      if (err instanceof RefreshFailure) throw err;
      this.log.warn({ accountIndex: index, err: (err as Error).message }, 'refresh failed');
      throw new RefreshFailure('transient');
    }
  }

  /** The account once any earlier write of this process for it landed; a refresh must start
   * from the newest refresh token, and never race its own pending write. */
  private async settledAccount(sid: string, index: string): Promise<AccountRecord | undefined> {
    const key = `${sid}:${index}`;
    if (this.pending.has(key)) await this.flush(key);
    if (this.pending.has(key)) throw new Error('session store unavailable');
    return (await this.current(sid, index)).account;
  }

  /** The upstream call, with the lock held: new tokens into the session, or the account removed
   * when the upstream refuses and nobody renewed it meanwhile. */
  private async renew(
    sid: string,
    index: string,
    account: AccountRecord,
    lock: string,
  ): Promise<{ expiresAt: number }> {
    const key = `${sid}:${index}`;
    const rev = account.rev ?? 0;
    let keepLock = false;
    try {
      let next: AccountRecord;
      try {
        const tokens = await this.auth.refresh(account.userName, account.refreshCookie);
        next = accountFromTokens(account.accountIndex, tokens, account);
      } catch (err) {
        if (!(err instanceof UpstreamHttpError) || err.status >= 500) throw err;
        // Only a refusal of the token the store still holds ends the account: if another
        // instance (or a workspace switch) replaced it while this call ran, use theirs.
        if ((await this.kit.putAccount(sid, index, null, rev)) === 'conflict') {
          const fresh = (await this.current(sid, index)).account;
          if (fresh?.accessToken) return { expiresAt: fresh.expiresAt };
        }
        if (err.body?.error === 'user_disabled') await this.markEnded(sid, index, 'user_disabled');
        this.log.info(
          { accountIndex: index, status: err.status },
          'refresh refused; account ended',
        );
        throw new RefreshFailure('rejected');
      }
      if (!hasUiPermission(next.permissions)) {
        // The user lost every UI permission since signing in: the account ends here.
        await this.markEnded(sid, index, 'no_ui_permission');
        await this.auth.logout(account.userName, next.refreshCookie).catch(() => undefined);
        await this.kit.putAccount(sid, index, null);
        throw new RefreshFailure('rejected');
      }
      if (this.pending.size >= MAX_PENDING) {
        this.log.error({ accountIndex: index }, 'too many token writes pending; one is dropped');
      } else {
        this.pending.set(key, { sid, index, account: next, baseRev: rev, lock });
        await this.flush(key);
        keepLock = this.pending.has(key);
      }
      return { expiresAt: next.expiresAt };
    } finally {
      if (!keepLock) await this.kit.unlock(key, lock).catch(() => undefined);
    }
  }

  /** Writes one pending account (compare-and-set on the revision it replaces); on a store
   * failure it stays pending and a timer tries again. */
  private flush(key: string): Promise<void> {
    const running = this.flushing.get(key);
    if (running) return running;
    const p = this.pending.get(key);
    if (!p) return Promise.resolve();
    const run = (async () => {
      try {
        const result = await this.kit.putAccount(p.sid, p.index, p.account, p.baseRev);
        if (result === 'conflict')
          this.log.warn({ accountIndex: p.index }, 'refreshed tokens superseded by a newer write');
        this.dropPending(key, p);
      } catch (err) {
        this.log.warn({ accountIndex: p.index, err: (err as Error).message }, 'token write failed');
        this.retrySoon();
      } finally {
        this.flushing.delete(key);
      }
    })();
    this.flushing.set(key, run);
    return run;
  }

  private dropPending(key: string, p: Pending) {
    if (this.pending.get(key) !== p) return;
    this.pending.delete(key);
    if (p.lock) this.track(this.kit.unlock(key, p.lock));
  }

  private async flushAll(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((key) => this.flush(key)));
  }

  private retrySoon() {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flushAll();
    }, RETRY_MS);
    this.retryTimer.unref();
  }
}
