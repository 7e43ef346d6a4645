import {
  Agent as HttpAgent,
  type ClientRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { sendError } from '#server/http-errors.ts';
import { SessionStoreUnavailable, type SessionKit } from '#server/session/session.ts';
import type { TokenService } from '#server/session/token-service.ts';

/** The upstream services of the spec; anything else under /api is a 404 and never leaves. */
export const SERVICES = new Set([
  'tenantservice',
  'insuranceservice',
  'accountservice',
  'partnerservice',
  'claimservice',
  'documentservice',
  'processmanager',
  'billingservice',
  'paymentservice',
  'notificationservice',
  'translationservice',
  'pbmservice',
  'gdvservice',
  'publicapi',
]);

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

/** One keep-alive connection pool per upstream, shared by every proxy of the BFF. */
const agents = new Map<string, HttpAgent>();
export function upstreamAgent(upstreamUrl: string): HttpAgent {
  let agent = agents.get(upstreamUrl);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 60_000 };
    agent = upstreamUrl.startsWith('https:') ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(upstreamUrl, agent);
  }
  return agent;
}

/** True when a path (in any of up to three decodings) could climb out of its service or smuggle
 * a host: dot segments, backslashes, NUL/control characters, or an encoded slash. */
export function isUnsafePath(raw: string): boolean {
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
    upstreamAuthorization?: string;
    /** Which session account a proxied call used. */
    bffAccount?: { sid: string; index: string };
  }
}

/**
 * `/api/{accountIndex}/{service}/...` and `/api/guest/...`: the browser's session picks the
 * account, the BFF adds its bearer, the client's own credentials and forwarding headers are
 * dropped, and upstream cookies never come back. Mounted before any body parser so request
 * bodies stream through untouched.
 */
export function apiProxy(deps: {
  upstreamUrl: string;
  kit: SessionKit;
  tokens: TokenService;
  timeoutMs: number;
  log: Logger;
  /** Guest calls per client address and window: guessing invitation or reset tokens, or
   * flooding someone with reset mails, stays slow. */
  guestLimit?: { max: number; windowMs: number };
}): RequestHandler {
  const { kit, tokens, log } = deps;
  const guestLimit = deps.guestLimit ?? { max: 300, windowMs: 15 * 60_000 };

  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: deps.upstreamUrl,
    changeOrigin: true,
    xfwd: false,
    // Without an agent http-proxy opens (and closes) a connection per call, which roughly halves
    // throughput and makes every browser response `Connection: close` (bench/README.md).
    agent: upstreamAgent(deps.upstreamUrl),
    // Responses are written in proxyRes below, so that an upstream 401 can wait for the verdict
    // of a refresh before the browser gets an answer.
    selfHandleResponse: true,
    // The proxy's own error handling below answers in JSON; without this it would log and hang.
    on: {
      proxyReq(proxyReq: ClientRequest, req: IncomingMessage) {
        for (const h of ['cookie', 'authorization', 'forwarded', 'x-csrf', 'origin', 'referer']) {
          proxyReq.removeHeader(h);
        }
        for (const h of proxyReq.getHeaderNames()) {
          if (h.startsWith('x-forwarded-') || h === 'x-real-ip') proxyReq.removeHeader(h);
        }
        if (req.upstreamAuthorization)
          proxyReq.setHeader('authorization', req.upstreamAuthorization);
        proxyReq.setTimeout(deps.timeoutMs, () => {
          proxyReq.destroy(Object.assign(new Error('upstream timeout'), { code: 'ETIMEDOUT' }));
        });
      },
      proxyRes(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) {
        delete proxyRes.headers['set-cookie'];
        // Hop-by-hop: the browser's connection is ours to manage, not the upstream's.
        delete proxyRes.headers.connection;
        delete proxyRes.headers['keep-alive'];
        proxyRes.headers['cache-control'] ??= 'no-store';
        if (proxyRes.statusCode === 401 && req.bffAccount) {
          answerRefusal(proxyRes, req.bffAccount, res).catch((err: unknown) => {
            log.warn({ err: (err as Error).message }, 'answering an upstream 401 failed');
            res.destroy();
          });
          return;
        }
        res.writeHead(proxyRes.statusCode ?? 502, proxyRes.headers);
        proxyRes.pipe(res);
      },
      error(err: Error, _req: IncomingMessage, res: ServerResponse | import('node:net').Socket) {
        const code = (err as NodeJS.ErrnoException).code;
        log.warn({ code, err: err.message }, 'proxy error');
        if (!('setHeader' in res)) return void res.destroy();
        if (res.headersSent) return void res.destroy();
        const timeout = code === 'ETIMEDOUT';
        res.statusCode = timeout ? 504 : 502;
        res.setHeader('content-type', 'application/json');
        res.setHeader('cache-control', 'no-store');
        res.end(
          JSON.stringify({
            error: timeout ? 'upstream_timeout' : 'upstream_unavailable',
            message: timeout
              ? 'The service did not answer in time.'
              : 'The service is not reachable right now.',
          }),
        );
      },
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
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of proxyRes as AsyncIterable<Buffer>) {
      // A refusal is a short error body; more than this is not worth keeping in memory.
      size += chunk.length;
      if (size <= 64 * 1024) chunks.push(chunk);
    }
    const t = await tokens
      .accessToken(account.sid, account.index, Date.now(), { force: true })
      .catch(() => null);
    if (t && !t.ok && t.error === 'session_expired') {
      return sendError(res as Response, 401, 'session_expired', undefined, {
        accountIndex: Number(account.index),
        ...(t.reason ? { reason: t.reason } : {}),
      });
    }
    const body = Buffer.concat(chunks);
    const headers = { ...proxyRes.headers, 'content-length': String(body.length) };
    delete headers['transfer-encoding'];
    res.writeHead(401, headers);
    res.end(body);
  }

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      // req.url here is relative to the /api mount: /{index|guest}/{service}/{rest}?{query}
      const q = req.url.indexOf('?');
      const path = q < 0 ? req.url : req.url.slice(0, q);
      const query = q < 0 ? '' : req.url.slice(q);
      const m = /^\/(\d{1,3}|guest)\/([a-z-]+)(\/[^?#]*)?$/.exec(path);
      if (!m || !METHODS.has(req.method) || isUnsafePath(path))
        return sendError(res, 404, 'not_found');
      const [, who, service, rest = ''] = m;
      const upstreamPath = `/${service}${rest}`;

      if (who === 'guest') {
        if (!GUEST_CALLS.has(`${req.method} ${upstreamPath}`))
          return sendError(res, 404, 'not_found');
        const hit = await kit.counters
          .hit(`guest:${req.ip ?? 'unknown'}`, guestLimit.windowMs)
          .catch((err: unknown) => {
            throw new SessionStoreUnavailable(String(err));
          });
        if (hit.count > guestLimit.max) {
          res.set('retry-after', String(hit.resetIn));
          return sendError(
            res,
            429,
            'rate_limited',
            'Too many requests. Please wait and try again.',
          );
        }
        req.url = upstreamPath + query;
        return proxy(req, res, next);
      }
      if (!SERVICES.has(service!)) return sendError(res, 404, 'not_found');

      const sid = kit.readSid(req);
      if (!sid)
        return sendError(res, 401, 'session_expired', undefined, { accountIndex: Number(who) });
      const t = await tokens.accessToken(sid, who!);
      if (!t.ok)
        return sendError(res, t.status, t.error, undefined, {
          accountIndex: Number(who),
          ...(t.reason ? { reason: t.reason } : {}),
        });
      // The public API identifies the tenant, not a user: its bearer is the tenant slug.
      req.upstreamAuthorization = `Bearer ${service === 'publicapi' ? t.account.tenantSlug : t.accessToken}`;
      req.bffAccount = { sid, index: who! };
      req.url = upstreamPath + query;
      return proxy(req, res, next);
    } catch (err) {
      if (err instanceof SessionStoreUnavailable)
        return sendError(res, 503, 'session_store_unavailable');
      return next(err);
    }
  };
}
