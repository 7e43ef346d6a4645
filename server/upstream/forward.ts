import {
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  answerFromUpstream,
  answerProxyError,
  upstreamAgent,
  watchUpstream,
  type UpstreamProxyOptions,
} from '#server/upstream/proxy-common.ts';

declare module 'http' {
  interface ClientRequest {
    /** The browser's response this upstream request answers. */
    downstream?: ServerResponse;
  }
  interface IncomingMessage {
    /** The upstream request a browser's body streams into. */
    upstreamRequest?: ClientRequest;
  }
}

/** Headers of one connection, not of the call: never forwarded (RFC 9110 §7.6.1). The upstream
 * connection is the pool's, kept alive whatever the browser's connection does. `host` is the
 * upstream's own, set below. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'host',
]);
/** What a `Connection` list may not take away: the call's own framing and the bearer the BFF set. */
const KEPT = new Set(['authorization', 'host', 'content-length', 'transfer-encoding']);

/**
 * The upstream request's headers as a raw list (`name, value, ...`): the browser's (already
 * settled: credentials stripped, bearer set) without the hop-by-hop ones and those its
 * `Connection` header names, and the upstream's host. Made in one pass instead of deleting from
 * the incoming headers, and as a list `http.request` writes as it is, where a header object is
 * set (and validated) one header at a time first (issue 14).
 */
function forwardedHeaders(headers: IncomingHttpHeaders, host: string): string[] {
  const listed = headers.connection;
  let named: Set<string> | null = null;
  if (listed) {
    for (const raw of listed.toLowerCase().split(',')) {
      const h = raw.trim();
      if (!KEPT.has(h)) (named ??= new Set()).add(h);
    }
  }
  const out: string[] = [];
  for (const name in headers) {
    if (NOT_FORWARDED.has(name) || named?.has(name)) continue;
    const value = headers[name];
    if (value === undefined) continue;
    if (typeof value === 'string') out.push(name, value);
    else for (const v of value) out.push(name, v);
  }
  out.push('host', host);
  return out;
}

/**
 * The /api transport: one `http.request` on the pool's keep-alive agent, the body piped
 * through, the answer written by the same filter as every other proxy (answerFromUpstream).
 * It replaces http-proxy(-middleware) on this path because the proxy's own work is paid on
 * every call a screen makes: http-proxy's plugin chain, URL joining and header copying cost
 * more CPU than the call's forwarding itself (bench/proxy-breakdown.ts shows each layer).
 *
 * The caller has settled the request first: the URL is the upstream path and query, the
 * browser's credentials are stripped and the bearer set (server/routes/api-proxy.ts).
 */
export function upstreamForwarder(o: UpstreamProxyOptions) {
  const target = new URL(o.upstreamUrl);
  const base = target.pathname.replace(/\/$/, '');
  const agent = upstreamAgent(o.upstreamUrl, o.pool, o.timeoutMs);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const port = target.port || (target.protocol === 'https:' ? 443 : 80);

  // Plain functions made once per forwarder, finding their call through `this` and the fields
  // below: a closure per listener and call was a measurable share of the proxy's cost (issue 14).
  function answered(this: ClientRequest, proxyRes: IncomingMessage): void {
    const res = this.downstream!;
    answerFromUpstream(o, proxyRes, res.req, res);
  }
  function failed(this: ClientRequest, err: Error): void {
    answerProxyError(o.log, err, this.downstream!);
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const up = send({
      protocol: target.protocol,
      hostname: target.hostname,
      port,
      method: req.method,
      path: base + (req.url ?? '/'),
      headers: forwardedHeaders(req.headers, target.host),
      agent,
    });
    up.downstream = res;
    watchUpstream(up, res);
    up.on('response', answered);
    up.on('error', failed);
    // Without a body (no length, no chunks: RFC 9112 §6.3) there is nothing to stream, and piping
    // the empty request would cost half a dozen listeners on both sides for nothing.
    if (!hasBody(req.headers)) return void up.end();
    req.upstreamRequest = up;
    // A browser that breaks off its upload must not leave half a body looking whole upstream.
    req.on('error', uploadBroken);
    req.pipe(up);
  };
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function uploadBroken(this: IncomingMessage): void {
  this.upstreamRequest?.destroy();
}
