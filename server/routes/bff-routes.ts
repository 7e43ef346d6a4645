import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { SessionData } from 'express-session';
import type { Logger } from 'pino';
import * as v from 'valibot';
import { hasUiPermission } from '#common/permissions.ts';
import {
  BffChangePasswordBody,
  BffLoginBody,
  BffSamlLoginBody,
  BffSwitchBody,
  type AccountAnswer,
  type BffConfig,
  type SessionAnswer,
  type SignInAnswer,
  type WorkspacesAnswer,
} from '#common/contracts/bff.ts';
import { issuesOf } from '#common/contracts/error.ts';
import { sendError } from '#server/http-errors.ts';
import type { LoginLimiter } from '#server/rate-limit.ts';
import { accountFromTokens, accountsOf, indexFor } from '#server/session/accounts.ts';
import {
  publicAccount,
  SessionStoreUnavailable,
  type AccountRecord,
  type SessionKit,
} from '#server/session/session.ts';
import type { TokenService } from '#server/session/token-service.ts';
import type { AuthClient } from '#server/upstream/auth-client.ts';
import {
  UpstreamHttpError,
  UpstreamUnavailable,
  type Tokens,
} from '#server/upstream/auth-client.ts';

export interface BffDeps {
  kit: SessionKit;
  auth: AuthClient;
  tokens: TokenService;
  limiter: LoginLimiter;
  log: Logger;
  publicConfig: BffConfig;
}

type Handler = (req: Request, res: Response) => Promise<void>;
/** Express 5 forwards rejected promises; this only maps the known upstream failures. */
const handle =
  (fn: Handler) =>
  async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      await fn(req, res);
    } catch (err) {
      if (err instanceof UpstreamUnavailable) {
        return err.reason === 'timeout'
          ? sendError(res, 504, 'upstream_timeout')
          : sendError(res, 502, 'upstream_unavailable');
      }
      next(err);
    }
  };

function parse<T extends v.GenericSchema>(
  schema: T,
  req: Request,
  res: Response,
): v.InferOutput<T> | null {
  const r = v.safeParse(schema, req.body);
  if (r.success) return r.output;
  sendError(
    res,
    400,
    'bad_request',
    r.issues.map((i) => `${v.getDotPath(i) ?? 'body'}: ${i.message}`).join('; '),
    {},
    issuesOf(r.issues),
  );
  return null;
}

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    req.session.regenerate((err) => (err ? reject(err) : resolve())),
  );
}
function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    req.session.save((err) => (err ? reject(err) : resolve())),
  );
}
function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    req.session.destroy((err) => (err ? reject(err) : resolve())),
  );
}

/** A signed-in session keeps its accounts across the id change that defeats session fixation.
 * The copy happens with every account's refresh lock held (see TokenService.holdingAccounts), so
 * a refresh running on another instance lands its rotated token before the copy, and one that
 * starts later finds the old id gone instead of writing there. */
async function regenerateKeepingAccounts(
  req: Request,
  kit: SessionKit,
  tokens: TokenService,
): Promise<SessionData['accounts']> {
  const sid = req.sessionID;
  // Also the accounts another instance added to this session since this request read it.
  const before = await kit.load(sid);
  const indexes = [
    ...new Set([
      ...Object.keys(before?.accounts ?? {}),
      ...Object.keys(req.session.accounts ?? {}),
    ]),
  ];
  return tokens.holdingAccounts(sid, indexes, async () => {
    // Re-read with the locks held: the refreshes that ran meanwhile have written their tokens,
    // and the new session starts from what is copied here.
    const stored = await kit.load(sid);
    const accounts = stored?.accounts ?? req.session.accounts ?? {};
    const createdAt = req.session.createdAt;
    await regenerate(req);
    req.session.accounts = accounts;
    const now = kit.clock.now();
    req.session.createdAt = Object.keys(accounts).length && createdAt ? createdAt : now;
    req.session.lastSeenAt = now;
    return accounts;
  });
}

export function bffRoutes(deps: BffDeps): Router {
  const { kit, auth, limiter, log } = deps;
  const r = Router();

  // Only JSON, small. Content-Type other than JSON on a body-carrying request is a 415 so that a
  // form post from another site can never be read as a sign-in.
  r.use((req, res, next) => {
    const hasBody =
      req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0';
    if (hasBody && !req.is('application/json'))
      return sendError(res, 415, 'unsupported_media_type');
    next();
  });
  r.use(express.json({ limit: '32kb', strict: true }));
  r.use((_req, res, next) => {
    res.set('cache-control', 'no-store');
    next();
  });

  r.get('/config', (_req, res) => {
    res.json(deps.publicConfig satisfies BffConfig);
  });

  r.use(kit.middleware);
  // Expired sessions end here, before any route sees them.
  r.use((req, _res, next) => {
    if (!req.session?.accounts) return next();
    if (kit.isExpired(req.session)) {
      // Past the idle or absolute limit: a fresh, empty session takes its place.
      return req.session.regenerate((err) => next(err));
    }
    if (kit.seenDue(req.session)) req.session.lastSeenAt = kit.clock.now();
    next();
  });

  r.get('/session', (req, res) => {
    res.json({ accounts: accountsOf(req.session).map(publicAccount) } satisfies SessionAnswer);
  });

  let warnedForwardedFor = false;
  /** Counts a sign-in attempt before the credentials are checked, or answers 429. `req.ip` is the
   * client as TRUST_PROXY's hop count determines it, never a value the client chose. */
  async function reserveAttempt(req: Request, res: Response, userName: string | null) {
    if (!warnedForwardedFor && req.headers['x-forwarded-for'] && !req.app.get('trust proxy')) {
      warnedForwardedFor = true;
      log.warn(
        'a sign-in came through a proxy (X-Forwarded-For) but TRUST_PROXY is false: all its users count as one client address',
      );
    }
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const r = await limiter.reserve(userName, address).catch((err: unknown) => {
      throw new SessionStoreUnavailable(String(err));
    });
    if (r.ok) return r.attempt;
    log.info({ retryAfter: r.retryAfter }, 'sign-in slowed down');
    res.set('retry-after', String(r.retryAfter));
    sendError(res, 429, 'rate_limited');
    return null;
  }
  /** Handing an attempt back is bookkeeping: a store hiccup there must not fail the sign-in. */
  const settle = (p: Promise<void>) =>
    p.catch((err: Error) => log.warn({ err: err.message }, 'sign-in counter not updated'));

  async function addAccount(req: Request, res: Response, build: (index: number) => AccountRecord) {
    const accounts = await regenerateKeepingAccounts(req, kit, deps.tokens);
    const draft = build(0);
    const index = indexFor(req.session, draft.userName, draft.sub || undefined);
    const account = { ...build(index), accountIndex: index };
    accounts![String(index)] = account;
    req.session.accounts = accounts;
    await save(req);
    res.json({ accountIndex: index, account: publicAccount(account) } satisfies SignInAnswer);
  }

  async function refuseWithoutUi(tokens: Tokens, userName: string): Promise<boolean> {
    const a = accountFromTokens(0, tokens);
    if (hasUiPermission(a.permissions)) return false;
    // The upstream session it just opened is of no use; end it instead of leaving it valid.
    await auth.logout(userName, tokens.refreshCookie).catch(() => undefined);
    return true;
  }

  r.post(
    '/login',
    handle(async (req, res) => {
      const body = parse(BffLoginBody, req, res);
      if (!body) return;
      const attempt = await reserveAttempt(req, res, body.username);
      if (!attempt) return;
      let result;
      try {
        result = await auth.login(body.username, body.password);
      } catch (err) {
        // A refusal stays counted; an unknown user is refused like a wrong password, so both
        // spend the same budgets.
        if (err instanceof UpstreamHttpError && err.status < 500) {
          log.info({ status: err.status }, 'sign-in refused');
          // The right password of a disabled account: say so (the upstream only tells it then).
          if (err.status === 403 && err.body?.error === 'user_disabled') {
            return sendError(res, 403, 'user_disabled');
          }
          return sendError(res, 400, 'invalid_credentials');
        }
        await settle(attempt.undecided());
        throw err;
      }
      await settle(attempt.succeeded());
      if (result.kind === 'challenge') {
        const challenge = result.challenge;
        return addAccount(req, res, (accountIndex) => ({
          accountIndex,
          userName: body.username,
          userFullName: body.username,
          tenantId: '',
          tenantName: '',
          tenantSlug: '',
          sub: '',
          userCode: null,
          permissions: [],
          isRequiredToChangePassword: true,
          expiresAt: 0,
          challenge,
        }));
      }
      const tokens = result.tokens;
      if (await refuseWithoutUi(tokens, body.username))
        return sendError(res, 403, 'no_ui_permission');
      return addAccount(req, res, (i) => accountFromTokens(i, tokens));
    }),
  );

  r.post(
    '/login/saml',
    handle(async (req, res) => {
      const body = parse(BffSamlLoginBody, req, res);
      if (!body) return;
      const attempt = await reserveAttempt(req, res, null);
      if (!attempt) return;
      let tokens: Tokens;
      try {
        tokens = await auth.samlLogin(body.tenantSlug, body.code);
      } catch (err) {
        if (err instanceof UpstreamHttpError && err.status < 500) {
          return sendError(res, 401, 'UNAUTHORIZED', 'The single sign-on code is not valid.');
        }
        await settle(attempt.undecided());
        throw err;
      }
      await settle(attempt.succeeded());
      const user = accountFromTokens(0, tokens).userName;
      if (await refuseWithoutUi(tokens, user)) return sendError(res, 403, 'no_ui_permission');
      return addAccount(req, res, (i) => accountFromTokens(i, tokens));
    }),
  );

  /** The account of `:index` in this session, or a 401 answer. */
  async function accountOf(req: Request, res: Response): Promise<AccountRecord | null> {
    const a = req.session.accounts?.[String(req.params.index)];
    if (!a) {
      const { reason } = await deps.tokens.ended(req.sessionID, String(req.params.index));
      sendError(res, 401, 'session_expired', undefined, {
        accountIndex: Number(req.params.index),
        ...(reason ? { reason } : {}),
      });
      return null;
    }
    return a;
  }

  /** A usable token for `:index` (refreshed when needed), or an error answer. */
  async function tokenOf(req: Request, res: Response, options: { force?: boolean } = {}) {
    const t = await deps.tokens.accessToken(
      req.sessionID,
      String(req.params.index),
      kit.clock.now(),
      options,
    );
    if (!t.ok) {
      sendError(res, t.status, t.error, undefined, {
        accountIndex: Number(req.params.index),
        ...(t.reason ? { reason: t.reason } : {}),
      });
      return null;
    }
    // The refresh may have changed the stored session under this request; reload it.
    await new Promise<void>((resolve, reject) =>
      req.session.reload((e) => (e ? reject(e) : resolve())),
    );
    return t;
  }

  r.post(
    '/accounts/:index/logout',
    handle(async (req, res) => {
      const a = await accountOf(req, res);
      if (!a) return;
      // Best effort: the account ends here even when the upstream is unreachable.
      await auth
        .logout(a.userName, a.refreshCookie)
        .catch((err: Error) => log.warn({ err: err.message }, 'upstream logout failed'));
      // A save never removes an account (it may be another request's stale copy); this does.
      await kit.putAccount(req.sessionID, String(a.accountIndex), null);
      delete req.session.accounts![String(a.accountIndex)];
      if (Object.keys(req.session.accounts ?? {}).length === 0) {
        await destroy(req);
        res.clearCookie(kit.cookieName, { path: '/', httpOnly: true, sameSite: 'strict' });
      } else {
        await save(req);
      }
      res.status(204).end();
    }),
  );

  // The notification socket says the user's roles changed: fetch the new permissions now rather
  // than at the next expiry. A refused refresh (user disabled or deleted) ends the account: 401.
  r.post(
    '/accounts/:index/refresh',
    handle(async (req, res) => {
      const t = await tokenOf(req, res, { force: true });
      if (!t) return;
      res.json({ account: publicAccount(t.account) } satisfies AccountAnswer);
    }),
  );

  r.get(
    '/accounts/:index/workspaces',
    handle(async (req, res) => {
      const t = await tokenOf(req, res);
      if (!t) return;
      res.json({ workspaces: await auth.workspaces(t.accessToken) } satisfies WorkspacesAnswer);
    }),
  );

  r.post(
    '/accounts/:index/workspaces/switch',
    handle(async (req, res) => {
      const body = parse(BffSwitchBody, req, res);
      if (!body) return;
      const t = await tokenOf(req, res);
      if (!t) return;
      let tokens: Tokens;
      try {
        tokens = await auth.switchWorkspace(
          t.accessToken,
          t.account.refreshCookie,
          t.account.userName,
          body.targetWorkspace,
        );
      } catch (err) {
        if (err instanceof UpstreamHttpError && err.status < 500) {
          return sendError(
            res,
            err.status === 404 ? 404 : 403,
            'forbidden',
            'This workspace cannot be chosen.',
          );
        }
        throw err;
      }
      const account = accountFromTokens(t.account.accountIndex, tokens, t.account);
      // The user's own choice: it replaces whatever a concurrent refresh stored.
      await kit.putAccount(req.sessionID, String(account.accountIndex), account);
      req.session.accounts![String(account.accountIndex)] = account;
      res.json({ account: publicAccount(account) } satisfies AccountAnswer);
    }),
  );

  r.post(
    '/accounts/:index/change-password',
    handle(async (req, res) => {
      const body = parse(BffChangePasswordBody, req, res);
      if (!body) return;
      const a = await accountOf(req, res);
      if (!a) return;
      try {
        if (a.isRequiredToChangePassword) {
          const tokens = await auth.completePasswordChange(
            a.userName,
            a.challenge ?? '',
            body.newPassword,
          );
          if (await refuseWithoutUi(tokens, a.userName)) {
            await kit.putAccount(req.sessionID, String(a.accountIndex), null);
            delete req.session.accounts![String(a.accountIndex)];
            return sendError(res, 403, 'no_ui_permission');
          }
          const account = accountFromTokens(a.accountIndex, tokens);
          await regenerateKeepingAccounts(req, kit, deps.tokens);
          req.session.accounts![String(a.accountIndex)] = account;
          await save(req);
          return void res.json({ account: publicAccount(account) } satisfies AccountAnswer);
        }
        if (!body.oldPassword)
          return sendError(res, 400, 'bad_request', 'oldPassword: required', {}, [
            { path: 'oldPassword', code: 'required' },
          ]);
        const t = await tokenOf(req, res);
        if (!t) return;
        await auth.changePassword(
          t.accessToken,
          t.account.userName,
          body.oldPassword,
          body.newPassword,
        );
        res.json({ account: publicAccount(t.account) } satisfies AccountAnswer);
      } catch (err) {
        if (err instanceof UpstreamHttpError && err.status < 500) {
          const code =
            err.body?.error === 'invalid_password' || err.body?.error === 'password_unchanged'
              ? err.body.error
              : 'invalid_credentials';
          return sendError(res, 400, code, err.body?.message ?? undefined);
        }
        throw err;
      }
    }),
  );

  r.use((_req, res) => sendError(res, 404, 'not_found'));
  return r;
}
