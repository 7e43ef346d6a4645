/**
 * A server of the proxy benchmarks in its own process, so the load generator, the sandbox and the
 * proxies do not share one event loop (on one thread the client's own work would be counted as
 * the proxy's). Forked by bench/lib/load.ts; speaks over the IPC channel.
 *
 *   server-process.ts sandbox                     the real sandbox, standalone
 *   server-process.ts fast <sandboxUrl> <jwt> <path>  an upstream that answers <path> from memory
 *   server-process.ts proxies <sandboxUrl> <jwt>  a bare Node reverse proxy and the real BFF
 *   server-process.ts layers <sandboxUrl> <jwt>   the BFF taken apart, layer by layer
 */
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import { subscribe } from 'node:diagnostics_channel';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Request } from 'express';
import express from 'express';
import helmet from 'helmet';
import { createProxyMiddleware, proxyEventsPlugin, type Options } from 'http-proxy-middleware';
import { createApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { createLogger } from '#server/logger.ts';
import { apiProxy } from '#server/routes/api-proxy.ts';
import { createSessionKit } from '#server/session/session.ts';
import { TokenService } from '#server/session/token-service.ts';
import { AuthClient } from '#server/upstream/auth-client.ts';
import { UpstreamGate } from '#server/upstream/gate.ts';
import { startStack } from '#tests/support/stack.ts';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';

export type ServerMessage =
  | { type: 'ready'; urls: Record<string, string> }
  | { type: 'stats'; cpuMicros: number; accepted: number; opened: number }
  | { type: 'micro'; micros: Record<string, number> };

export type ControlMessage =
  { type: 'stats' } | { type: 'micro'; cookie: string } | { type: 'stop' };

function send(m: ServerMessage) {
  process.send?.(m);
}

// TCP connections this process accepted and opened: whether keep-alive holds on each side.
const connections = { accepted: 0, opened: 0 };
subscribe('net.server.socket', () => connections.accepted++);
subscribe('net.client.socket', () => connections.opened++);

/** Counts requests, so a CPU profile's totals can be turned into time per request. */
const served: Record<string, number> = {};

async function serve(name: string, handler: RequestListener) {
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  served[name] = 0;
  server.on('request', () => served[name]!++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The yardstick: what a reverse proxy costs with nothing but Node's http module. It adds the
 * bearer like the BFF does (none: the caller's own passes) and reuses upstream connections. */
function bareProxy(upstreamUrl: string, bearer: string | null): RequestListener {
  const target = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return (req, res) => {
    const headers = { ...req.headers, host: target.host };
    if (bearer !== null) {
      headers.authorization = `Bearer ${bearer}`;
      delete headers.cookie;
    }
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  };
}

/**
 * An upstream as fast as Node answers: GET `path` from a copy held in memory (taken once from
 * the sandbox), every other call (sign-in, refresh) passed to the sandbox. In front of it a
 * proxy's own cost is the bottleneck, which is what the proxy benchmark compares; in front of
 * the sandbox, PGlite's time per call hides it.
 */
async function fastUpstream(sandboxUrl: string, bearer: string, path: string) {
  const copy = await fetch(sandboxUrl + path, { headers: { authorization: `Bearer ${bearer}` } });
  if (!copy.ok) throw new Error(`fast upstream: GET ${path} answered ${copy.status}`);
  const body = Buffer.from(await copy.arrayBuffer());
  const head = {
    'content-type': copy.headers.get('content-type') ?? 'application/json',
    'content-length': String(body.length),
  };
  const rest = bareProxy(sandboxUrl, null);
  const fast = await serve('fast', (req, res) => {
    if (req.method === 'GET' && req.url === path) return void res.writeHead(200, head).end(body);
    rest(req, res);
  });
  return { urls: { fast: fast.url }, stop: fast.close, micro: async () => ({}) };
}

async function proxies(upstreamUrl: string, bearer: string) {
  const bare = await serve('bare', bareProxy(upstreamUrl, bearer));
  const bff = await startStack({ UPSTREAM_URL: upstreamUrl });
  served.bff = 0;
  bff.server.on('request', () => served.bff!++);
  return {
    urls: { bare: bare.url, bff: bff.url },
    async stop() {
      await bare.close();
      await bff.stop();
    },
    micro: async () => ({}),
  };
}

/**
 * The BFF's proxy path rebuilt from its own parts, each layer adding one thing, all sharing one
 * session store so one sign-in cookie works on the last two. The differences between neighbours
 * are what each layer costs per request.
 */
async function layers(upstreamUrl: string, bearer: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-layers-'));
  const config = loadConfig({
    UPSTREAM_URL: upstreamUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    APP_ENV: 'test',
  });
  const log = createLogger('silent');
  const kit = await createSessionKit(config, log);
  const tokens = new TokenService(kit, new AuthClient(upstreamUrl, config.upstreamTimeoutMs), log);
  const hpm = (extra: Partial<Options<IncomingMessage, ServerResponse>> = {}) =>
    createProxyMiddleware<IncomingMessage, ServerResponse>({
      target: upstreamUrl,
      changeOrigin: true,
      headers: { authorization: `Bearer ${bearer}` },
      ...extra,
    });
  const plain = (mw: ReturnType<typeof hpm>): RequestListener => {
    return (req, res) => void mw(req, res, () => res.end());
  };
  // What the BFF could do instead: reuse upstream connections (http-proxy opens a new one per
  // request unless given an agent), and skip the default plugins, whose logger formats a URL on
  // every response even when nothing is logged; `on` handlers need only proxyEventsPlugin.
  const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 256 });
  const hpmKeepAlive = hpm({ agent: upstreamAgent });
  const hpmKeepAliveLean = hpm({
    agent: upstreamAgent,
    ejectPlugins: true,
    plugins: [proxyEventsPlugin],
  });

  const expressHpm = express().use(hpm());
  const gate = new UpstreamGate(
    'bench',
    { ...config.upstreamLimits, maxWaitMs: config.upstreamTimeoutMs },
    log,
  );
  const expressApiProxy = express().use(
    '/api',
    apiProxy({ upstreamUrl, kit, tokens, timeoutMs: config.upstreamTimeoutMs, log, gate }).handler,
  );
  // helmet's defaults rather than a copy of the BFF's settings: the same dozen headers, and no
  // second copy of the policy to keep in step.
  const expressHelmetApiProxy = express()
    .use(helmet())
    .use(
      '/api',
      apiProxy({ upstreamUrl, kit, tokens, timeoutMs: config.upstreamTimeoutMs, log, gate })
        .handler,
    );
  const bff = createApp(config, {
    log,
    kit,
    upstreamUrl,
    sandbox: false,
    sandboxTools: false,
    buildId: 'bench',
  });

  const servers = {
    bare: await serve('bare', bareProxy(upstreamUrl, bearer)),
    hpm: await serve('hpm', plain(hpm())),
    hpmKeepAlive: await serve('hpmKeepAlive', plain(hpmKeepAlive)),
    hpmKeepAliveLean: await serve('hpmKeepAliveLean', plain(hpmKeepAliveLean)),
    expressHpm: await serve('expressHpm', expressHpm),
    expressApiProxy: await serve('expressApiProxy', expressApiProxy),
    expressHelmetApiProxy: await serve('expressHelmetApiProxy', expressHelmetApiProxy),
    bffExpress: await serve('bffExpress', bff.app),
    bff: await serve('bff', bff.handle),
  };

  return {
    urls: Object.fromEntries(Object.entries(servers).map(([k, v]) => [k, v.url])),
    async stop() {
      bff.close();
      for (const s of Object.values(servers)) await s.close();
      upstreamAgent.destroy();
      await kit.close();
      await rm(dataDir, { recursive: true, force: true });
    },
    /** The per-request session work of the proxy, one piece at a time, in µs per call. */
    async micro(cookie: string) {
      const req = { headers: { cookie } } as unknown as Request;
      const sid = kit.readSid(req);
      if (!sid) throw new Error('the cookie does not carry a session of this store');
      const session = await kit.load(sid);
      const time = async (n: number, f: () => unknown) => {
        for (let i = 0; i < n / 10; i++) await f();
        const t0 = performance.now();
        for (let i = 0; i < n; i++) await f();
        return ((performance.now() - t0) * 1000) / n;
      };
      return {
        readSid: await time(20_000, () => kit.readSid(req)),
        load: await time(20_000, () => kit.load(sid)),
        structuredCloneOfSession: await time(20_000, () => structuredClone(session)),
        accessToken: await time(20_000, () => tokens.accessToken(sid, '0')),
        sessionJsonBytes: JSON.stringify(session).length,
      };
    },
  };
}

async function main() {
  const [role, upstreamUrl, bearer, path] = process.argv.slice(2);
  let running: {
    urls: Record<string, string>;
    stop(): Promise<void>;
    micro(cookie: string): Promise<Record<string, number>>;
  };
  if (role === 'sandbox') {
    const sandbox = await startStandaloneSandbox();
    running = { urls: { sandbox: sandbox.url }, stop: sandbox.close, micro: async () => ({}) };
  } else if (role === 'fast' && upstreamUrl && bearer && path) {
    running = await fastUpstream(upstreamUrl, bearer, path);
  } else if (role === 'proxies' && upstreamUrl && bearer) {
    running = await proxies(upstreamUrl, bearer);
  } else if (role === 'layers' && upstreamUrl && bearer) {
    running = await layers(upstreamUrl, bearer);
  } else {
    throw new Error(
      `usage: server-process.ts sandbox | proxies|layers <upstreamUrl> <bearer> | fast <sandboxUrl> <bearer> <path>`,
    );
  }
  const stop = async () => {
    if (process.env.BENCH_REPORT_SERVED) {
      console.error(`requests served (${role}): ${JSON.stringify(served)}`);
    }
    await running.stop();
  };
  send({ type: 'ready', urls: running.urls });

  process.on('message', (m: ControlMessage) => {
    if (m.type === 'stats') {
      const u = process.cpuUsage();
      send({ type: 'stats', cpuMicros: u.user + u.system, ...connections });
    } else if (m.type === 'micro') {
      void running.micro(m.cookie).then((micros) => send({ type: 'micro', micros }));
    } else if (m.type === 'stop') {
      // Exiting (rather than just closing) also writes a --cpu-prof profile when one was asked for.
      void stop().finally(() => process.exit(0));
    }
  });
  // The parent died without saying stop: do not linger.
  process.on('disconnect', () => void stop().finally(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
