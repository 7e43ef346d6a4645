import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { fromRoot } from '#server/paths.ts';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Config } from '#server/config.ts';
import { sendError } from '#server/http-errors.ts';
import { LoginLimiter, type LoginLimits } from '#server/rate-limit.ts';
import { apiProxy } from '#server/routes/api-proxy.ts';
import { BANK_PAGES_PATH, bankPages } from '#server/routes/bank-pages.ts';
import { bffRoutes } from '#server/routes/bff-routes.ts';
import { csvExport } from '#server/routes/csv-export.ts';
import { staticRoutes } from '#server/routes/static-routes.ts';
import { SessionStoreUnavailable, type SessionKit } from '#server/session/session.ts';
import { TokenService } from '#server/session/token-service.ts';
import { AuthClient } from '#server/upstream/auth-client.ts';
import { UpstreamGate } from '#server/upstream/gate.ts';
import { passThroughProxy } from '#server/upstream/pass-through.ts';
import { logOnClose } from '#server/upstream/response-close.ts';
import { wsBridge } from '#server/ws-bridge.ts';

export interface AppDeps {
  log: Logger;
  kit: SessionKit;
  upstreamUrl: string;
  /** Whether the upstream is the embedded sandbox (then its identity-provider page is served). */
  sandbox: boolean;
  /** Whether its tester tools (/sandbox-idp, /sandbox/*) are proxied; off in production. */
  sandboxTools: boolean;
  buildId: string;
  clientDir?: string;
  localesDir?: string;
  loginLimits?: Partial<LoginLimits>;
  guestLimit?: { max: number; windowMs: number };
}

/** Builds the BFF without listening; `server/index.ts` listens, tests call it directly. */
export function createApp(config: Config, deps: AppDeps) {
  const { log, kit } = deps;
  const auth = new AuthClient(deps.upstreamUrl, config.upstreamTimeoutMs);
  const tokens = new TokenService(kit, auth, log, { lockTtlMs: config.upstreamTimeoutMs + 5_000 });
  const limiter = new LoginLimiter(kit.counters, deps.loginLimits);
  // A queued call waits at most as long as an upstream call may take.
  const maxWaitMs = config.upstreamTimeoutMs;
  const apiGate = new UpstreamGate('api', { ...config.upstreamLimits, maxWaitMs }, log);
  const storageGate = new UpstreamGate('storage', { ...config.storageLimits, maxWaitMs }, log);
  const app = express();

  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  if (config.production && config.trustProxy === true)
    log.warn(
      'TRUST_PROXY=true takes the first X-Forwarded-For address, which the client writes itself: ' +
        'sign-in limits per address can be evaded. Set the number of proxies in front instead (1 behind one nginx).',
    );
  app.set('etag', false);

  // Security headers on every response, the API included. Strict CSP: scripts and styles only
  // from this origin (the build emits files, no inline code); no plugins, no framing, no <base>.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'", ...(config.storageOrigin ? [config.storageOrigin] : [])],
        // Frames: only the bank pages the BFF serves itself (docs/decisions/015-bank-pages.md).
        'frame-src': [(req) => ownPathSource(req as Request, BANK_PAGES_PATH)],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
        ...(config.production ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    hsts: config.production ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.use(securityHeaders);
  const apiHeaders = apiAnswerHeaders(config.production);

  // One structured line per request (never the query string: it may carry codes or tokens of
  // other systems). API traffic logs at debug so a busy proxy does not drown the log.
  app.use((req, res, next) => {
    logOnClose(log, res, pathOf(req.url));
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.set('cache-control', 'no-store').json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const [store, upstream] = await Promise.all([
      kit.ping(),
      fetch(`${deps.upstreamUrl}/tenantservice/v1/health`, { signal: AbortSignal.timeout(2000) })
        .then((r) => r.ok)
        .catch(() => false),
    ]);
    res
      .status(store && upstream ? 200 : 503)
      .set('cache-control', 'no-store')
      .json({ status: store && upstream ? 'ok' : 'unavailable', store, upstream });
  });

  // CSRF: a custom header cannot be set by another site's form or image, and SameSite=Strict
  // keeps the cookie off cross-site requests; together they guard every state change.
  app.use(['/bff', '/api'], (req: Request, res: Response, next: NextFunction) => {
    if (csrfSafe(req)) return next();
    sendError(res, 403, 'csrf');
  });

  // The proxy comes before body parsing, compression and sessions: bodies stream through, and
  // the only per-request session work is one signed-cookie check and one store read.
  // Exports are the BFF's own work over the upstream lists, so they come before the proxy (which
  // answers 404 for anything that is not an upstream service).
  app.get(
    '/api/:index/export/:file',
    csvExport({
      upstreamUrl: deps.upstreamUrl,
      kit,
      tokens,
      timeoutMs: config.upstreamTimeoutMs,
      log,
    }),
  );
  // The embedded bank pages (issue 18): fetched with the session's token, framed by the shell.
  app.get(
    `${BANK_PAGES_PATH}:index/:page`,
    bankPages({
      upstreamUrl: deps.upstreamUrl,
      kit,
      tokens,
      timeoutMs: config.upstreamTimeoutMs,
      log,
    }),
  );
  const api = apiProxy({
    upstreamUrl: deps.upstreamUrl,
    kit,
    tokens,
    timeoutMs: config.upstreamTimeoutMs,
    log,
    gate: apiGate,
    ...(deps.guestLimit ? { guestLimit: deps.guestLimit } : {}),
  });
  app.use('/api', api.handler);

  // Tools off: their own 404, not the SPA page that any other unknown path gets.
  if (!deps.sandboxTools) {
    app.use(['/sandbox-idp', '/sandbox'], (_req: Request, res: Response) =>
      sendError(res, 404, 'not_found'),
    );
  }
  if (deps.sandbox) {
    // The sandbox's object store (signed uploads and downloads, no session needed) and the
    // stand-in chat provider (widget script and demo webhook), on their own pool and gate:
    // uploads, however slow or many, never take the connections API calls need.
    app.use(
      passThroughProxy({
        upstreamUrl: deps.upstreamUrl,
        pool: 'storage',
        gate: storageGate,
        timeoutMs: config.upstreamTimeoutMs,
        log,
        paths: (path) => path.startsWith('/storage/') || path.startsWith('/chat-widget/'),
        // The store's own limit (a document of 10 MiB and its form fields).
        body: { maxBytes: 10 * 1024 * 1024 + 64 * 1024, ...config.storageBody },
      }),
    );
  }
  if (deps.sandbox && deps.sandboxTools) {
    // The sandbox identity provider stands in for an external SAML IdP page; /sandbox/* holds
    // the tester's tools (the outbox of e-mails the sandbox would have sent). Neither exists
    // when the BFF runs in front of the real services.
    app.use(
      passThroughProxy({
        upstreamUrl: deps.upstreamUrl,
        pool: 'api',
        gate: apiGate,
        timeoutMs: config.upstreamTimeoutMs,
        log,
        paths: (path) => path.startsWith('/sandbox-idp') || path.startsWith('/sandbox/'),
        // Their HTML pages carry a stricter policy than the app's (no script at all).
        alsoPass: ['content-security-policy'],
      }),
    );
  }

  app.use(compression());
  app.use(
    '/bff',
    bffRoutes({
      kit,
      auth,
      tokens,
      limiter,
      log,
      publicConfig: {
        appEnv: config.appEnv,
        buildId: deps.buildId,
        sandbox: deps.sandbox,
        storageOrigin: config.storageOrigin,
      },
    }),
  );
  app.use(
    staticRoutes({
      clientDir: deps.clientDir ?? fromRoot('dist/client'),
      localesDir: deps.localesDir ?? fromRoot('locales'),
      buildId: deps.buildId,
    }),
  );

  // Last stop for errors: JSON with a status, never a stack trace.
  const lastStop = (err: unknown, req: IncomingMessage, res: ServerResponse) => {
    const e = err as { type?: string; status?: number; message?: string };
    if (e.type === 'entity.parse.failed') return sendError(res, 400, 'malformed_json');
    if (e.type === 'entity.too.large') return sendError(res, 413, 'payload_too_large');
    if (err instanceof SessionStoreUnavailable)
      return sendError(res, 503, 'session_store_unavailable');
    if (e.status === 404) return sendError(res, 404, 'not_found');
    if (e.status && e.status >= 400 && e.status < 500)
      return sendError(res, e.status, 'bad_request');
    log.error({ err: e.message, path: req.url?.split('?')[0] }, 'unhandled error');
    sendError(res, 500, 'internal', 'Something went wrong.');
  };
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) =>
    lastStop(err, req, res),
  );

  const ws = wsBridge({ upstreamUrl: deps.upstreamUrl, kit, tokens, log });
  return {
    app,
    /**
     * The server's request listener. A signed-in call to an upstream service (most of the
     * traffic) takes the lean path, with what Express would have added on the way: the security
     * headers, the log line, the CSRF check. Everything else goes through Express.
     */
    handle(req: IncomingMessage, res: ServerResponse): void {
      // Guest calls, exports and unknown paths are not the lean path's: Express answers them.
      const call = req.url?.startsWith('/api/') ? api.claim(req) : null;
      if (!call) return void app(req, res);
      res.answerHeaders = apiHeaders;
      logOnClose(log, res, pathOf(req.url));
      if (!csrfSafe(req)) return sendError(res, 403, 'csrf');
      api.serve(call, req, res, (err?: unknown) => lastStop(err, req, res));
    },
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/ws') return void ws.handleUpgrade(req, socket, head);
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    },
    close() {
      ws.close();
    },
    /** Waits (until `deadline`) for refreshes and token writes still in flight. */
    drain: (deadline: number) => tokens.drain(deadline),
    /** Proxied calls with an upstream right now (a shutdown can wait for them to end). */
    proxiedInFlight(): number {
      return apiGate.inFlight + storageGate.inFlight;
    },
  };
}

/** GET and HEAD change nothing; anything else must carry the header another site cannot set. */
function csrfSafe(req: IncomingMessage): boolean {
  return req.method === 'GET' || req.method === 'HEAD' || req.headers['x-csrf'] === '1';
}

/**
 * A CSP source for `path` on this origin (`https://host/embedded/bank/`), narrower than `'self'`,
 * which would allow every path. A host that is not a plain name or address (a forged Host header)
 * gets `'none'`: nothing is framed rather than a policy with injected text.
 */
export function ownPathSource(req: Request, path: string): string {
  const host = req.host;
  const protocol = req.protocol;
  if (
    (protocol !== 'http' && protocol !== 'https') ||
    !host ||
    !/^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i.test(host)
  )
    return "'none'";
  return `${protocol}://${host}${path}`;
}

/** The path of a request URL without its query, which may carry codes or tokens of other systems. */
function pathOf(url: string | undefined): string {
  const u = url ?? '';
  const q = u.indexOf('?');
  return q < 0 ? u : u.slice(0, q);
}

/**
 * The hardening headers of an upstream answer on the lean /api path: JSON is never a page, so
 * it needs no page policy, only that nothing renders, frames or embeds it elsewhere: a CSP that
 * allows nothing, nosniff (so the JSON is never taken for script or HTML), the same-origin
 * resource and referrer policies, and HSTS in production. Five headers instead of helmet's
 * dozen on every call a screen makes.
 */
function apiAnswerHeaders(production: boolean): Readonly<Record<string, string>> {
  return {
    'content-security-policy': "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    ...(production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
