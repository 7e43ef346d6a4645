import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { sendError } from '#server/http-errors.ts';
import type { SessionKit } from '#server/session/session.ts';
import type { TokenService } from '#server/session/token-service.ts';

/**
 * `GET /embedded/bank/{accountIndex}/{transactions|orders}?lang=de|en|pl`: the bank pages that the
 * shell frames at /bank/transactions and /bank/orders (docs/decisions/015-bank-pages.md). The BFF
 * fetches the page from the payment service with the session's token for that account (the
 * service checks the permission and scopes it to the workspace) and answers it under its own
 * origin, so the frame is same-origin and the token never leaves the server. The page keeps its
 * own headers: a policy that runs nothing and lets only the serving origin frame it.
 */

/** The shell's CSP allows frames from this path of its own origin and nowhere else. */
export const BANK_PAGES_PATH = '/embedded/bank/';

const PAGES = new Set(['transactions', 'orders']);
const LANGUAGES = new Set(['de', 'en', 'pl']);
/** What a page answer may weigh: a hundred rows of HTML are far below. */
const MAX_BYTES = 2 * 1024 * 1024;
/** If the page came without a policy of its own: nothing runs, nothing frames it but us. */
const FALLBACK_CSP =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

export function bankPages(deps: {
  upstreamUrl: string;
  kit: SessionKit;
  tokens: TokenService;
  timeoutMs: number;
  log: Logger;
}) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { index, page } = req.params as { index: string; page: string };
      if (!/^\d{1,3}$/.test(index) || !PAGES.has(page)) return sendError(res, 404, 'not_found');
      const lang = typeof req.query.lang === 'string' ? req.query.lang : 'en';
      if (!LANGUAGES.has(lang))
        return sendError(res, 400, 'bad_request', 'lang must be one of de, en, pl');
      const sid = deps.kit.readSid(req);
      if (!sid)
        return sendError(res, 401, 'session_expired', undefined, { accountIndex: Number(index) });
      const t = await deps.tokens.accessToken(sid, index);
      if (!t.ok)
        return sendError(res, t.status, t.error, undefined, { accountIndex: Number(index) });

      const query = new URLSearchParams({ lang, accountIndex: index });
      let upstream: globalThis.Response;
      try {
        upstream = await fetch(
          `${deps.upstreamUrl}/paymentservice/v1/bank-pages/${page}?${query}`,
          {
            headers: { authorization: `Bearer ${t.accessToken}`, accept: 'text/html' },
            signal: AbortSignal.timeout(deps.timeoutMs),
            redirect: 'error',
          },
        );
      } catch (err) {
        const timedOut = (err as Error).name === 'TimeoutError';
        deps.log.warn({ page, err: (err as Error).message }, 'bank page upstream failed');
        return sendError(
          res,
          timedOut ? 504 : 502,
          timedOut ? 'upstream_timeout' : 'upstream_unavailable',
        );
      }
      const type = upstream.headers.get('content-type') ?? '';
      if (!upstream.ok) {
        const body = (await upstream.json().catch(() => null)) as {
          error?: string;
          message?: string;
        } | null;
        return sendError(res, upstream.status, body?.error ?? 'upstream_error', body?.message);
      }
      const html = await upstream.text();
      if (!type.startsWith('text/html') || Buffer.byteLength(html) > MAX_BYTES)
        return sendError(res, 502, 'upstream_unavailable');
      res.status(200).set({
        'content-type': 'text/html; charset=utf-8',
        // The page's own framing rules replace the shell's `frame-ancestors 'none'`.
        'content-security-policy': upstream.headers.get('content-security-policy') ?? FALLBACK_CSP,
        'x-frame-options': 'SAMEORIGIN',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'no-store',
      });
      res.send(html);
    } catch (err) {
      next(err);
    }
  };
}
