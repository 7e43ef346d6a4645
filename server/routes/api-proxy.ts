import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { sendError } from '#server/http-errors.ts';
import { GuestLimiter } from '#server/rate-limit.ts';
import { SessionStoreUnavailable, type SessionKit } from '#server/session/session.ts';
import type { TokenResult, TokenService } from '#server/session/token-service.ts';
import type { UpstreamGate } from '#server/upstream/gate.ts';
import { PROXIED_SERVICES } from '#server/sandbox/service-names.ts';
import { acceptsGzip } from '#server/upstream/compress.ts';
import { upstreamForwarder } from '#server/upstream/forward.ts';
import { answerPolicyRows, policyRowsUpstreamUrl } from '#server/upstream/policy-rows.ts';
import {
  answerWhole,
  readCapped,
  stripClientHeaders,
  upstreamHead,
} from '#server/upstream/proxy-common.ts';

/** Calls that need no signed-in account (invitations, password reset, the SSO link). */
const GUEST_CALLS = new Set([
  'GET /authservice/v1/saml-login-link',
  'GET /authservice/v1/verify-invite',
  'POST /authservice/v1/create-user',
  'GET /authservice/v1/verify-reset-password',
  'POST /authservice/v1/reset-password',
  'POST /authservice/v1/forgot-password',
  'GET /authservice/v1/verify-org-invitation',
  'POST /authservice/v1/create-org-and-user',
]);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

const MAYBE_UNSAFE = /[.%\\\x00-\x1f\x7f]/;

/** True when a path (in any of up to three decodings) could climb out of its service or smuggle
 * a host: dot segments, backslashes, NUL/control characters, or an encoded slash. */
export function isUnsafePath(raw: string): boolean {
  // Without a dot, a backslash, an escape or a control character no decoding can make one: the
  // common path of every call answers here, with one scan instead of three and a decoding.
  if (!MAYBE_UNSAFE.test(raw)) return false;
  let p = raw;
  for (let i = 0; i < 3; i++) {
    if (/(^|\/)\.\.?(\/|$)/.test(p) || p.includes('\\') || /[\x00-\x1f\x7f]/.test(p)) return true;
    if (/%2f|%5c|%2e%2e/i.test(p) && i > 0) return true;
    let next: string;
    try {
      next = decodeURIComponent(p);
    } catch {
      return true;
    }
    if (next === p) return false;
    p = next;
  }
  return true;
}

declare module 'http' {
  interface IncomingMessage {
    /** Which session account a proxied call used. */
    bffAccount?: { sid: string; index: string };
    /** The /api call as the server's listener parsed it (null: not a well-formed one), so that
     * Express, which answers what the lean path leaves, does not parse it again. */
    apiCall?: ApiCall | null;
    /** A policies list call answered as rows (server/upstream/policy-rows.ts). */
    bffRowView?: { gzipOk: boolean; now: Date };
  }
}

interface ApiCall {
  /** The account index, or 'guest'. */
  who: string;
  service: string;
  /** The upstream's path and query. */
  upstreamUrl: string;
}

/** `/api/{index|guest}/{service}{/rest}` with the query apart. */
const API_PATH = /^\/api\/(\d{1,3}|guest)\/([a-z-]+)(\/[^?#]*)?$/;

/**
 * `/api/{accountIndex}/{service}/...` and `/api/guest/...`: the browser's session picks the
 * account, the BFF adds its bearer, the client's own credentials and forwarding headers are
 * dropped, and upstream cookies never come back. Mounted before any body parser so request
 * bodies stream through untouched.
 *
 * Two entries to one path: `handler`, an Express middleware answering everything under /api
 * (guest calls need Express's client address behind trusted proxies), and `fast`, which the
 * server's request listener tries first: it takes the signed-in calls to an upstream service,
 * by far the most, without Express's routing (server/app.ts adds the headers, log and CSRF
 * check Express would have).
 */
export function apiProxy(deps: {
  upstreamUrl: string;
  kit: SessionKit;
  tokens: TokenService;
  timeoutMs: number;
  log: Logger;
  /** Bounds the calls with the upstream at once and those waiting for it. */
  gate: UpstreamGate;
  /** Guest calls per client address and window: guessing invitation or reset tokens, or
   * flooding someone with reset mails, stays slow. */
  guestLimit?: { max: number; windowMs: number };
}) {
  const { kit, tokens, log, gate } = deps;
  const guests = new GuestLimiter(
    kit.counters,
    deps.guestLimit ?? { max: 300, windowMs: 15 * 60_000 },
  );

  const forward = upstreamForwarder({
    upstreamUrl: deps.upstreamUrl,
    pool: 'api',
    timeoutMs: deps.timeoutMs,
    log,
    compressJson: true,
    intercept: (proxyRes, req, res) => {
      const status = proxyRes.statusCode ?? 0;
      if (status === 401 && req.bffAccount) return answerRefusal(proxyRes, req.bffAccount, res);
      if (req.bffRowView && status >= 200 && status < 300)
        return answerPolicyRows(proxyRes, res, req.bffRowView);
      return undefined;
    },
  });

  /**
   * The upstream refused the account's token (nothing was done): the user was disabled or deleted,
   * reset the password, or lost the workspace. Refresh now: if the upstream refuses that too, the
   * account ends and this very call answers 401 `session_expired`, so the browser goes to
   * sign-in at once. Otherwise the upstream's own answer passes, and the next call carries the
   * fresh token.
   */
  async function answerRefusal(
    proxyRes: IncomingMessage,
    account: { sid: string; index: string },
    res: ServerResponse,
  ): Promise<void> {
    // A refusal is a short error body; more than that is not worth keeping in memory.
    const body = await readCapped(proxyRes);
    const t = await tokens
      .accessToken(account.sid, account.index, kit.clock.now(), { force: true })
      .catch(() => null);
    if (t && !t.ok && t.error === 'session_expired') {
      return sendError(res, 401, 'session_expired', undefined, {
        accountIndex: Number(account.index),
        ...(t.reason ? { reason: t.reason } : {}),
      });
    }
    // The upstream's own refusal, as it sent it (its encoding included).
    return answerWhole(res, 401, upstreamHead(proxyRes), body);
  }

  /**
   * A signed-in account's call to an upstream service: the session's token as bearer. Without a
   * promise when the token is at hand (`readyToken`, the rule), else after the token service's
   * answer (a refresh, a store read over the network, a refusal).
   */
  function accountCall(
    req: IncomingMessage,
    res: ServerResponse,
    next: NextFunction,
    who: string,
    service: string,
    upstreamUrl: string,
  ): void {
    try {
      const sid = kit.readSid(req);
      if (!sid)
        return sendError(res, 401, 'session_expired', undefined, { accountIndex: Number(who) });
      const ready = tokens.readyToken(sid, who);
      if (ready) return withToken(req, res, next, sid, who, service, upstreamUrl, ready);
      tokens.accessToken(sid, who).then(
        (t) => withToken(req, res, next, sid, who, service, upstreamUrl, t),
        (err: unknown) => callFailed(res, next, err),
      );
    } catch (err) {
      callFailed(res, next, err);
    }
  }

  function withToken(
    req: IncomingMessage,
    res: ServerResponse,
    next: NextFunction,
    sid: string,
    who: string,
    service: string,
    upstreamUrl: string,
    t: TokenResult,
  ): void {
    try {
      if (!t.ok)
        return sendError(res, t.status, t.error, undefined, {
          accountIndex: Number(who),
          ...(t.reason ? { reason: t.reason } : {}),
        });
      req.bffAccount = { sid, index: who };
      const rowsUrl = policyRowsUpstreamUrl(req.method, upstreamUrl);
      req.url = rowsUrl ?? upstreamUrl;
      if (rowsUrl) {
        const accept = req.headers['accept-encoding'];
        req.bffRowView = { gzipOk: acceptsGzip(accept), now: new Date(kit.clock.now()) };
        // The BFF reads this answer itself: plain JSON from the upstream, compressed here.
        delete req.headers['accept-encoding'];
      }
      stripClientHeaders(req.headers);
      // The public API identifies the tenant, not a user: its bearer is the tenant slug.
      req.headers.authorization = `Bearer ${service === 'publicapi' ? t.account.tenantSlug : t.accessToken}`;
      gate.enter(req, res, next, forward);
    } catch (err) {
      callFailed(res, next, err);
    }
  }

  function callFailed(res: ServerResponse, next: NextFunction, err: unknown): void {
    if (err instanceof SessionStoreUnavailable)
      return sendError(res, 503, 'session_store_unavailable');
    next(err);
  }

  /** The call's parts when it is well-formed, else null (answered 404 by `handler`). */
  function parse(url: string, method: string | undefined): ApiCall | null {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const m = API_PATH.exec(path);
    if (!m || !METHODS.has(method ?? '') || isUnsafePath(path)) return null;
    const [, who, service, rest = ''] = m;
    return {
      who: who!,
      service: service!,
      upstreamUrl: `/${service}${rest}${q < 0 ? '' : url.slice(q)}`,
    };
  }

  const handler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      // Express strips the /api mount from req.url; originalUrl keeps it.
      const call = req.apiCall !== undefined ? req.apiCall : parse(req.originalUrl, req.method);
      if (!call) return sendError(res, 404, 'not_found');
      const { who, service, upstreamUrl } = call;

      if (who === 'guest') {
        const path = upstreamUrl.split('?')[0];
        if (!GUEST_CALLS.has(`${req.method} ${path}`)) return sendError(res, 404, 'not_found');
        const hit = await guests.hit(req.ip ?? 'unknown').catch((err: unknown) => {
          throw new SessionStoreUnavailable(String(err));
        });
        if (!hit.ok) {
          res.set('retry-after', String(hit.retryAfter));
          return sendError(
            res,
            429,
            'rate_limited',
            'Too many requests. Please wait and try again.',
          );
        }
        req.url = upstreamUrl;
        stripClientHeaders(req.headers);
        return gate.enter(req, res, next, forward);
      }
      if (!PROXIED_SERVICES.has(service)) return sendError(res, 404, 'not_found');
      return accountCall(req, res, next, who, service, upstreamUrl);
    } catch (err) {
      if (err instanceof SessionStoreUnavailable)
        return sendError(res, 503, 'session_store_unavailable');
      return next(err);
    }
  };

  return {
    handler: handler as RequestHandler,
    /**
     * The lean path's share: a signed-in account's call to an upstream service, parsed, or
     * null for anything else (guest calls, exports, unknown paths), which Express answers.
     */
    claim(req: IncomingMessage) {
      const call = parse(req.url ?? '', req.method);
      if (call && call.who !== 'guest' && PROXIED_SERVICES.has(call.service)) return call;
      req.apiCall = call;
      return null;
    },
    serve(call: ApiCall, req: IncomingMessage, res: ServerResponse, next: NextFunction): void {
      accountCall(req, res, next, call.who, call.service, call.upstreamUrl);
    },
  };
}
