import type { Logger } from 'pino';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { hasUiPermission } from '#common/permissions.ts';
import { awaitFreshToken, tokenRefreshMachine } from '#machines/token-refresh.machine.ts';
import { accountFromTokens } from '#server/session/accounts.ts';
import type { AccountRecord, SessionKit } from '#server/session/session.ts';
import type { AuthClient } from '#server/upstream/auth-client.ts';
import { claimsOf, UpstreamHttpError } from '#server/upstream/auth-client.ts';

export type TokenResult =
  | { ok: true; account: AccountRecord; accessToken: string }
  | { ok: false; status: 401 | 403 | 503; error: string; reason?: 'no_ui_permission' };

class RefreshFailure extends Error {
  constructor(readonly kind: 'rejected' | 'transient') {
    super(`refresh ${kind}`);
  }
}

const MARGIN_MS = 10_000;
/** A forced refresh of a younger token first waits until the token is this old. The token's
 * `iat` has one-second precision, so a change made just after issue may not be in it; waiting
 * instead of skipping never loses the change, and a client calling in a loop still causes at most
 * one upstream refresh per account in this time. */
export const FORCED_REFRESH_MIN_AGE_MS = 2_000;

function issuedAt(accessToken: string): number {
  const { iat } = claimsOf(accessToken);
  return typeof iat === 'number' ? iat * 1000 : 0;
}

/**
 * Hands out a usable access token for (session, account), refreshing it when fewer than 10 s
 * remain. The refresh statechart makes it single-flight: every call that arrives while one
 * refresh runs waits on the same actor. Actors live only while a refresh is in flight, so memory
 * does not grow with the number of sessions.
 */
export class TokenService {
  private readonly inFlight = new Map<string, ActorRefFrom<typeof tokenRefreshMachine>>();
  /** Why a refresh ended an account, for the answers of the calls that waited on it. */
  private readonly endedWithoutUi = new Set<string>();

  constructor(
    private readonly kit: SessionKit,
    private readonly auth: AuthClient,
    private readonly log: Logger,
  ) {}

  /**
   * `force`: refresh whatever the expiry (the user's access changed upstream), through the same
   * single-flight refresh, once the token is {@link FORCED_REFRESH_MIN_AGE_MS} old.
   */
  async accessToken(
    sid: string,
    index: string,
    now = Date.now(),
    options: { force?: boolean } = {},
  ): Promise<TokenResult> {
    const s = await this.kit.load(sid);
    if (!s || this.kit.isExpired(s, now))
      return { ok: false, status: 401, error: 'session_expired' };
    const account = s.accounts?.[index];
    if (!account) return { ok: false, status: 401, error: 'session_expired' };
    if (account.isRequiredToChangePassword || !account.accessToken) {
      return { ok: false, status: 403, error: 'password_change_required' };
    }
    if (now - (s.lastSeenAt ?? 0) > 60_000) {
      // Idle tracking at minute precision keeps the per-request cost to a read.
      void this.kit.update(sid, (x) => void (x.lastSeenAt = now)).catch(() => undefined);
    }
    const force = options.force === true;
    if (force) {
      const wait = issuedAt(account.accessToken) + FORCED_REFRESH_MIN_AGE_MS - now;
      if (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        return this.accessToken(sid, index, Date.now(), options);
      }
    }
    if (!force && account.expiresAt - now >= MARGIN_MS) {
      return { ok: true, account, accessToken: account.accessToken };
    }
    // A forced refresh starts the statechart with the token as already due.
    const dueAt = force ? 0 : account.expiresAt;
    const outcome = await awaitFreshToken(this.actorFor(sid, index, dueAt), now);
    if (outcome === 'expired') {
      const key = `${sid}:${index}`;
      // The spec's isNotUiPermission: the client shows noAccessUser instead of a plain sign-in.
      if (this.endedWithoutUi.has(key)) {
        setTimeout(() => this.endedWithoutUi.delete(key), 5_000).unref();
        return { ok: false, status: 401, error: 'session_expired', reason: 'no_ui_permission' };
      }
      return { ok: false, status: 401, error: 'session_expired' };
    }
    if (outcome === 'transient') return { ok: false, status: 503, error: 'upstream_unavailable' };
    const fresh = (await this.kit.load(sid))?.accounts?.[index];
    if (!fresh?.accessToken) return { ok: false, status: 401, error: 'session_expired' };
    return { ok: true, account: fresh, accessToken: fresh.accessToken };
  }

  private actorFor(sid: string, index: string, expiresAt: number) {
    const key = `${sid}:${index}`;
    const existing = this.inFlight.get(key);
    if (existing) return existing;
    const actor = createActor(
      tokenRefreshMachine.provide({
        actors: { refreshTokens: fromPromise(() => this.refresh(sid, index)) },
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

  /** The one refresh call: new tokens into the session, or the account removed when the
   * upstream refuses (a transient failure keeps it for the next try). */
  private async refresh(sid: string, index: string): Promise<{ expiresAt: number }> {
    const account = (await this.kit.load(sid))?.accounts?.[index];
    if (!account) throw new RefreshFailure('rejected');
    try {
      const tokens = await this.auth.refresh(account.userName, account.refreshCookie);
      const next = accountFromTokens(account.accountIndex, tokens, account);
      if (!hasUiPermission(next.permissions)) {
        // The user lost every UI permission since signing in: the account ends here.
        this.endedWithoutUi.add(`${sid}:${index}`);
        await this.auth.logout(account.userName, next.refreshCookie).catch(() => undefined);
        await this.kit.update(sid, (s) => {
          delete s.accounts?.[index];
        });
        throw new RefreshFailure('rejected');
      }
      await this.kit.update(sid, (s) => {
        if (s.accounts?.[index]) s.accounts[index] = next;
      });
      return { expiresAt: next.expiresAt };
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status < 500) {
        this.log.info(
          { accountIndex: index, status: err.status },
          'refresh refused; account ended',
        );
        await this.kit.update(sid, (s) => {
          delete s.accounts?.[index];
        });
        throw new RefreshFailure('rejected');
      }
      this.log.warn({ accountIndex: index, err: (err as Error).message }, 'refresh failed');
      throw new RefreshFailure('transient');
    }
  }
}
