import { systemClock, type Clock } from '#common/clock.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { migrate, openPglite, openPostgres, type Db, type Queryable } from './platform/db.ts';
import { TokenSigner, loadSigningKey } from './platform/crypto.ts';
import { HttpError } from './platform/errors.ts';
import { errorHandler, refuseNul } from './platform/error-handler.ts';
import {
  OWN_STORAGE_PATH,
  OwnObjectStore,
  S3ObjectStore,
  loadStorageCredentials,
  type ObjectStore,
  type S3Settings,
} from './platform/object-store.ts';
import { storageRouter } from './platform/storage-routes.ts';
import { mountDevTools } from './dev/index.ts';
import { NotificationHub, attachNotificationSocket } from './services/notification/index.ts';
import { migrationFiles, orderedServices } from './services/registry.ts';
import { DomainEvents } from './platform/domain-events.ts';

export type { S3Settings };

export interface SandboxOptions {
  dataDir: string;
  databaseUrl?: string;
  accessTokenTtlSeconds: number;
  logger: Logger;
  port?: number;
  /** The address to listen on; loopback unless the sandbox runs as its own service. */
  host?: string;
  seed?: boolean;
  /** An S3-compatible store for document bytes; without it the sandbox keeps them itself. */
  s3?: S3Settings | null;
  /**
   * The tester's tools: the identity-provider page that signs anyone in as any user, and the
   * outbox that shows every e-mail with its reset and invitation links. Off, neither exists
   * (404) and the SSO link is not offered. No default: every caller decides.
   */
  tools: boolean;
  /** Real people sign in here (NODE_ENV=production): tools that are on are logged as a warning. */
  production?: boolean;
  /** The time of day for token lifetimes; the system clock unless a test moves its own. */
  clock?: Clock;
  /**
   * The back office's public address (PUBLIC_BASE_URL): e-mail links are absolute, built from
   * it. Default: the BFF's default local address.
   */
  publicBaseUrl?: string;
  /** The Chromium that prints documents to PDF (CHROMIUM_PATH); default: Debian's. */
  chromiumPath?: string;
}

/** Debian's Chromium, which the runtime image installs (docs/decisions/018-pdf-output.md). */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** The BFF's address with its default port, as `npm start` serves it on this machine. */
export const DEFAULT_PUBLIC_BASE_URL = 'http://localhost:3000';

export interface RunningSandbox {
  url: string;
  /** The sandbox's own database, for tests that need to age a token or inspect a row. */
  db: Queryable;
  /** Stops taking connections; requests under way get `graceMs` (default none) to finish. */
  close(graceMs?: number): Promise<void>;
}

/** What feature routers inside the sandbox get: the database, tokens and the tenant fan-out. */
export interface SandboxContext {
  db: Db;
  signer: TokenSigner;
  hub: NotificationHub;
  logger: Logger;
  store: ObjectStore;
  /** Whether the tester's tools (identity-provider page, outbox) are served. */
  tools: boolean;
  /** The time of day for expiries (tokens, refresh tokens). */
  clock: Clock;
  /** Where e-mail links point: the back office's public address. */
  publicBaseUrl: string;
  /** The Chromium the document service prints PDFs with (started on the first document). */
  chromiumPath: string;
  /** What happened in one service that another acts on (workflows start from them). */
  events: DomainEvents;
  /**
   * The sandbox's own address, resolved once it listens: a workflow's http.call task reaches
   * the other services through it, as any caller would (processmanager/http-call.ts).
   */
  ownUrl: Promise<string>;
}

const health: RequestHandler = (_req, res) => {
  res.json({ status: 'ok' });
};

export function createSandboxApp(ctx: SandboxContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use((_req, res, next) => {
    // Tokens and personal data flow through every answer; nothing here may be cached.
    res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    next();
  });
  app.use(express.json({ limit: '200kb' }));
  app.use(refuseNul);

  app.get('/health', health);
  const services = orderedServices();
  for (const service of services) {
    app.get(`/${service.name}/health`, health);
    app.get(`${service.prefix}/health`, health);
  }
  for (const service of services) {
    for (const router of service.routers) app.use(service.prefix, router(ctx));
  }
  // The own object store, which the browser reaches through the BFF at the same path.
  if (ctx.store instanceof OwnObjectStore)
    app.use(OWN_STORAGE_PATH, storageRouter(ctx.db, ctx.store));
  mountDevTools(app, ctx);

  app.use(() => {
    throw new HttpError(404, 'not_found', 'no such endpoint');
  });
  app.use(errorHandler(ctx.logger));
  return app;
}

/** The operator must see at a glance whether this sandbox lets anyone in without a password. */
function logTools(logger: Logger, opts: SandboxOptions): void {
  const tools = { sandboxTools: opts.tools ? 'on' : 'off' };
  if (!opts.tools) {
    logger.info(
      tools,
      'sandbox tools are off: no /sandbox-idp sign-in, no /sandbox/outbox or /sandbox/mail (SANDBOX_TOOLS=on turns them on)',
    );
  } else if (opts.production) {
    logger.warn(
      tools,
      'SANDBOX TOOLS ARE ON IN PRODUCTION: /sandbox-idp signs anyone in as any user without a password and /sandbox/outbox shows password-reset links; use this for a demo only, SANDBOX_TOOLS=off turns them off',
    );
  } else {
    logger.info(tools, 'sandbox tools are on: /sandbox-idp, /sandbox/outbox, /sandbox/mail');
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startSandbox(opts: SandboxOptions): Promise<RunningSandbox> {
  const logger = opts.logger.child({ component: 'sandbox' });
  const publicBaseUrl = opts.publicBaseUrl ?? DEFAULT_PUBLIC_BASE_URL;
  const db = opts.databaseUrl ? openPostgres(opts.databaseUrl) : await openPglite(opts.dataDir);
  let server: Server | undefined;
  const stops: (() => void | Promise<void>)[] = [];
  try {
    const applied = await migrate(db, migrationFiles());
    if (applied.length) logger.info({ applied }, 'sandbox migrations applied');
    // The object store before the seeds: the documents step stores the demo files in it.
    const store = opts.s3
      ? new S3ObjectStore(opts.s3)
      : new OwnObjectStore(db, await loadStorageCredentials(db));
    if (opts.seed ?? true) {
      const clock = opts.clock ?? systemClock;
      for (const service of orderedServices()) {
        await service.seed?.({ db, logger, store, publicBaseUrl, clock });
      }
    }
    const signer = new TokenSigner(
      await loadSigningKey(db),
      opts.accessTokenTtlSeconds,
      opts.clock,
    );
    const hub = new NotificationHub();
    let listening: (url: string) => void = () => {};
    const ownUrl = new Promise<string>((resolve) => {
      listening = resolve;
    });
    const ctx: SandboxContext = {
      db,
      signer,
      hub,
      logger,
      store,
      tools: opts.tools,
      clock: opts.clock ?? systemClock,
      publicBaseUrl,
      chromiumPath: opts.chromiumPath ?? DEFAULT_CHROMIUM_PATH,
      events: new DomainEvents(),
      ownUrl,
    };

    // Jobs on the clock (policy renewals) run what is due before the first request is served.
    for (const service of orderedServices()) {
      if (service.start) stops.push(await service.start(ctx));
    }

    server = createServer(createSandboxApp(ctx));
    // The BFF keeps idle upstream sockets for up to 60 s; Node's default of 5 s here let the
    // sandbox close a socket just as the BFF reused it (ECONNRESET, a 502 for that call).
    server.keepAliveTimeout = 65_000;
    const wss = attachNotificationSocket(server, ctx);
    const host = opts.host ?? '127.0.0.1';
    const address = await listen(server, opts.port ?? 0, host);
    // A wildcard address is not somewhere to connect to; loopback reaches it from this machine.
    const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    const url = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${address.port}`;
    listening(url);
    logger.info({ url, driver: opts.databaseUrl ? 'postgres' : 'pglite' }, 'sandbox listening');
    logTools(logger, opts);

    const running = server;
    let closing: Promise<void> | undefined;
    return {
      url,
      db,
      close(graceMs = 0) {
        closing ??= (async () => {
          for (const stop of stops) await stop();
          hub.closeAll();
          await new Promise<void>((resolve) => wss.close(() => resolve()));
          await new Promise<void>((resolve) => {
            running.close(() => resolve());
            running.closeIdleConnections();
            // Requests under way get the grace to finish (a SIGTERM'd service); tests use none.
            const timer = setTimeout(() => running.closeAllConnections(), graceMs);
            running.once('close', () => clearTimeout(timer));
          });
          await db.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    for (const stop of stops) await Promise.resolve(stop()).catch(() => {});
    server?.close();
    await db.close().catch(() => {});
    throw err;
  }
}
