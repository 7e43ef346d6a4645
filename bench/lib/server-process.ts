/**
 * A server of the proxy benchmark in its own process, so the load generator, the sandbox and the
 * proxies do not share one event loop (on one thread the client's own work would be counted as
 * the proxy's). Started by bench/proxy-throughput.ts through `fork`; speaks over the IPC channel.
 *
 *   server-process.ts sandbox                      the real sandbox, standalone
 *   server-process.ts proxies <sandboxUrl> <jwt>   a bare Node reverse proxy and the real BFF
 */
import { Agent, createServer, request, type Server } from 'node:http';
import { startStack } from '#tests/support/stack.ts';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';

export type ServerMessage =
  { type: 'ready'; urls: Record<string, string> } | { type: 'cpu'; micros: number };

export type ControlMessage = { type: 'cpu' } | { type: 'stop' };

function send(m: ServerMessage) {
  process.send?.(m);
}

/** The yardstick: what a reverse proxy costs with nothing but Node's http module. It adds the
 * bearer like the BFF does and reuses upstream connections. */
async function startBareProxy(upstreamUrl: string, bearer: string) {
  const target = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, authorization: `Bearer ${bearer}` };
    delete headers.cookie;
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
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

async function main() {
  const [role, upstreamUrl, bearer] = process.argv.slice(2);
  let stop: () => Promise<void>;
  if (role === 'sandbox') {
    const sandbox = await startStandaloneSandbox();
    stop = sandbox.close;
    send({ type: 'ready', urls: { sandbox: sandbox.url } });
  } else if (role === 'proxies' && upstreamUrl && bearer) {
    const bare = await startBareProxy(upstreamUrl, bearer);
    const bff = await startStack({ UPSTREAM_URL: upstreamUrl });
    // Request counts turn a CPU profile's totals into time per request.
    const served = { bare: 0, bff: 0 };
    bare.server.on('request', () => served.bare++);
    bff.server.on('request', () => served.bff++);
    stop = async () => {
      if (process.env.BENCH_REPORT_SERVED) {
        console.error(`proxies' process served: bare ${served.bare}, BFF ${served.bff} requests`);
      }
      await bare.close();
      await bff.stop();
    };
    send({ type: 'ready', urls: { bare: bare.url, bff: bff.url } });
  } else {
    throw new Error(`usage: server-process.ts sandbox | proxies <upstreamUrl> <bearer>`);
  }

  process.on('message', (m: ControlMessage) => {
    if (m.type === 'cpu') {
      const u = process.cpuUsage();
      send({ type: 'cpu', micros: u.user + u.system });
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
