import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import { createApp } from '#server/app.ts';
import { localesBuildId } from '#server/build-id.ts';
import type { Config } from '#server/config.ts';
import { startSandbox } from '#server/sandbox/sandbox.ts';
import { createSessionKit } from '#server/session/session.ts';
import { errorJson } from '#server/http-errors.ts';
import { watchClose } from '#server/upstream/response-close.ts';

export interface Running {
  url: string;
  upstreamUrl: string;
  server: Server;
  /** Stops taking connections, answers `Connection: close`, lets running requests, token
   * refreshes and session writes finish (up to `graceMs` in all), then closes the stores and the
   * sandbox. */
  close(graceMs?: number): Promise<void>;
}

/** Starts the embedded sandbox (unless UPSTREAM_URL is set) and the BFF on `config.port`.
 * `clock`: the time of day of both (the system clock unless a test moves its own). */
export async function startServer(
  config: Config,
  log: Logger,
  overrides: Partial<Parameters<typeof createApp>[1]> = {},
  options: { clock?: Clock } = {},
): Promise<Running> {
  // The session store first: a missing Redis is a configuration error worth failing on quickly.
  const kit = await createSessionKit(config, log, options.clock);

  // The port is bound before the sandbox starts: its e-mail links need the address people open,
  // and with PORT=0 only the bound socket knows it. Until the app is ready a request gets 503.
  let bff: ReturnType<typeof createApp> | undefined = undefined;
  // While draining, every response closes its connection, so keep-alive clients move to
  // another instance instead of sending more requests here.
  let draining = false;
  const active = new Set<ServerResponse>();
  const server = createServer(
    { maxHeaderSize: 16 * 1024, requestTimeout: 60_000 },
    (req: IncomingMessage, res: ServerResponse) => {
      if (!bff) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(errorJson('starting', 'The service is starting.'));
        return;
      }
      if (draining) res.setHeader('connection', 'close');
      active.add(res);
      // Left by the response's one 'close' listener (server/upstream/response-close.ts).
      res.openSet = active;
      watchClose(res);
      bff.handle(req, res);
    },
  );
  server.headersTimeout = 20_000;
  server.keepAliveTimeout = 65_000;
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (bff) bff.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  // Malformed requests (bad header characters, oversized headers) get a JSON 400 instead of
  // Node's bare reply; the process carries on.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
    const body = errorJson('bad_request', 'Malformed request.');
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    await kit.close();
    throw err;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;

  let sandbox: Awaited<ReturnType<typeof startSandbox>> | null = null;
  try {
    sandbox = config.upstreamUrl
      ? null
      : await startSandbox({
          dataDir: config.dataDir,
          databaseUrl: config.databaseUrl,
          accessTokenTtlSeconds: config.sandboxAccessTokenTtl,
          logger: log,
          port: config.sandboxPort,
          s3: config.s3,
          tools: config.sandboxTools,
          production: config.production,
          publicBaseUrl: config.publicBaseUrl ?? `http://localhost:${port}`,
          ...(config.chromiumPath ? { chromiumPath: config.chromiumPath } : {}),
          ...(options.clock ? { clock: options.clock } : {}),
        });
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await kit.close();
    throw err;
  }
  const upstreamUrl = config.upstreamUrl ?? sandbox!.url;
  const app = createApp(config, {
    log,
    kit,
    upstreamUrl,
    sandbox: sandbox !== null,
    sandboxTools: sandbox !== null && config.sandboxTools,
    buildId: localesBuildId(),
    ...overrides,
  });
  bff = app;

  return {
    url: `http://127.0.0.1:${port}`,
    upstreamUrl,
    server,
    async close(graceMs = 10_000) {
      const deadline = Date.now() + graceMs;
      draining = true;
      for (const res of active) if (!res.headersSent) res.setHeader('connection', 'close');
      app.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // From here on a new connection is refused; said once, so an operator (and a test) can tell
      // the instance has left the pool while its last requests finish.
      log.info({ open: active.size }, 'stopped listening');
      const timer = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, graceMs);
      await closed;
      clearTimeout(timer);
      await app.drain(deadline);
      await kit.close();
      await sandbox?.close();
    },
  };
}
