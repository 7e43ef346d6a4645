import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { migrate, openPglite, openPostgres, type Db, type Queryable } from './platform/db.ts';
import { TokenSigner, loadSigningKey } from './platform/crypto.ts';
import { HttpError, errorHandler, refuseNul } from './platform/http.ts';
import { authRouter } from './services/auth/auth-routes.ts';
import { idpRouter } from './dev/idp-routes.ts';
import { tenantRouter } from './services/tenant/tenant-routes.ts';
import {
  NotificationHub,
  attachNotificationSocket,
  notificationRouter,
} from './services/notification/notifications.ts';
import { seedDemoWorld } from './services/tenant/seed.ts';
import { seedAdministration } from './services/tenant/seed-administration.ts';
import { userAdminRouter } from './services/tenant/user-admin-routes.ts';
import { organizationRouter } from './services/tenant/organization-routes.ts';
import { guestRouter } from './services/auth/guest-routes.ts';
import { outboxRouter } from './dev/outbox.ts';
import { settingsRouter } from './services/tenant/settings-routes.ts';
import { chatWidgetRouter } from './dev/chat-widget-routes.ts';
import { insuranceProductRouter } from './services/insurance/insurance-product-routes.ts';
import { seedProducts } from './services/insurance/seed-products.ts';
import { accountRouter } from './services/account/account-routes.ts';
import { listViewRouter } from './services/tenant/list-view-routes.ts';
import { partnerRouter } from './services/partner/partner-routes.ts';
import { seedAccounts } from './services/account/seed-accounts.ts';
import { insurancePolicyRouter } from './services/insurance/insurance-policy-routes.ts';
import { seedPolicies } from './services/insurance/seed-policies.ts';
import { insurancePolicyWriteRouter } from './services/insurance/insurance-policy-write-routes.ts';
import { productLookupRouter } from './services/insurance/product-lookup-routes.ts';
import { insuredObjectRouter } from './services/insurance/insured-object-routes.ts';
import { bookingFunnelRouter } from './services/insurance/booking-funnel-routes.ts';
import { translationRouter } from './services/translation/translation-routes.ts';
import { leadRouter } from './services/insurance/lead-routes.ts';
import { documentRouter } from './services/document/document-routes.ts';
import { seedLeadsStep } from './services/insurance/seed-leads.ts';
import { claimRouter } from './services/claim/claim-routes.ts';
import { settlementRouter } from './services/claim/settlement-routes.ts';
import { seedClaimsStep } from './services/claim/seed-claims.ts';
import { seedDocuments } from './services/document/seed-documents.ts';
import {
  OWN_STORAGE_PATH,
  OwnObjectStore,
  S3ObjectStore,
  loadStorageCredentials,
  type ObjectStore,
  type S3Settings,
} from './platform/object-store.ts';
import { storageRouter } from './platform/storage-routes.ts';

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
}

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
}

const SERVICES = [
  'authservice',
  'tenantservice',
  'notificationservice',
  'accountservice',
  'partnerservice',
  'translationservice',
  'documentservice',
  'claimservice',
] as const;

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
  for (const service of SERVICES) {
    app.get(`/${service}/health`, health);
    app.get(`/${service}/v1/health`, health);
  }
  app.use('/authservice/v1', authRouter(ctx));
  app.use('/authservice/v1', guestRouter(ctx));
  // Before the base router: its `/users/:id` would otherwise take `/users/invites` for an id.
  app.use('/tenantservice/v1', userAdminRouter(ctx));
  app.use('/tenantservice/v1', tenantRouter(ctx));
  app.use('/tenantservice/v1', organizationRouter(ctx));
  app.use('/tenantservice/v1', settingsRouter(ctx));
  app.use('/tenantservice/v1', listViewRouter(ctx));
  app.get('/insuranceservice/health', health);
  app.use('/insuranceservice/v1', insuranceProductRouter(ctx));
  app.use('/insuranceservice/v1', insurancePolicyRouter(ctx));
  app.use('/insuranceservice/v1', insurancePolicyWriteRouter(ctx));
  app.use('/insuranceservice/v1', productLookupRouter(ctx));
  app.use('/insuranceservice/v1', insuredObjectRouter(ctx));
  app.use('/insuranceservice/v1', bookingFunnelRouter(ctx));
  app.use('/translationservice/v1', translationRouter(ctx));
  app.use('/insuranceservice/v1', leadRouter(ctx));
  app.use('/documentservice/v1', documentRouter(ctx));
  app.use('/claimservice/v1', claimRouter(ctx));
  app.use('/claimservice/v1', settlementRouter(ctx));
  // The own object store, which the browser reaches through the BFF at the same path.
  if (ctx.store instanceof OwnObjectStore)
    app.use(OWN_STORAGE_PATH, storageRouter(ctx.db, ctx.store));
  app.use('/accountservice/v1', accountRouter(ctx));
  app.use('/partnerservice/v1', partnerRouter(ctx));
  app.use('/notificationservice/v1', notificationRouter(ctx));
  if (ctx.tools) {
    app.use('/sandbox', outboxRouter(ctx.db));
    app.use(
      '/sandbox-idp',
      express.urlencoded({ extended: false, limit: '10kb' }),
      idpRouter(ctx.db),
    );
  }
  app.use('/chat-widget', chatWidgetRouter());

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
  const db = opts.databaseUrl ? openPostgres(opts.databaseUrl) : await openPglite(opts.dataDir);
  let server: Server | undefined;
  try {
    const applied = await migrate(db);
    if (applied.length) logger.info({ applied }, 'sandbox migrations applied');
    // The object store before the seeds: the documents step stores the demo files in it.
    const store = opts.s3
      ? new S3ObjectStore(opts.s3)
      : new OwnObjectStore(db, await loadStorageCredentials(db));
    if (opts.seed ?? true) {
      await seedDemoWorld(db, logger);
      // A second step, so that data directories seeded before these tables existed get it too.
      await seedAdministration(db, logger);
      await seedProducts(db, logger);
      await seedAccounts(db, logger);
      await seedPolicies(db, logger);
      await seedLeadsStep(db, logger);
      await seedClaimsStep(db, logger);
      await seedDocuments(db, logger, store);
    }
    const signer = new TokenSigner(await loadSigningKey(db), opts.accessTokenTtlSeconds);
    const hub = new NotificationHub();
    const ctx: SandboxContext = { db, signer, hub, logger, store, tools: opts.tools };

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
    logger.info({ url, driver: opts.databaseUrl ? 'postgres' : 'pglite' }, 'sandbox listening');
    logTools(logger, opts);

    const running = server;
    let closing: Promise<void> | undefined;
    return {
      url,
      db,
      close(graceMs = 0) {
        closing ??= (async () => {
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
    server?.close();
    await db.close().catch(() => {});
    throw err;
  }
}
