import type {
  Agent as HttpAgent,
  ClientRequest,
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Agent as PlainAgent } from 'node:http';
import type { Socket } from 'node:net';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { sendError, withAnswerHeaders } from '#server/http-errors.ts';
import {
  COMPRESS_MIN_BYTES,
  gzipJson,
  jsonCompressor,
  varyOnEncoding,
} from '#server/upstream/compress.ts';
import { watchClose } from '#server/upstream/response-close.ts';
import * as v from 'valibot';
import { ErrorBodySchema } from '#common/contracts/error.ts';

/**
 * One keep-alive connection pool per upstream and purpose ('api', 'storage'), so that slow
 * uploads can never hold the sockets API calls need. The pool sets no socket limit: the gate in
 * front of it does (server/upstream/gate.ts), and a pool that queued on its own would hand a
 * socket to a call long after its headers were final.
 *
 * The pool's socket timeout is the calls' timeout: an upstream that says nothing for `timeoutMs`
 * times the call out (Node emits 'timeout' on the request of a pool with a timeout), and an idle
 * socket is closed after as long. A timeout set per call instead re-armed the socket's timer
 * twice per call (to the call's timeout, back to the pool's when freed) and took three listeners
 * and two closures (issue 14). Only when the upstream's `Keep-Alive: timeout=` hint shortened an
 * idle socket's timer does a reused socket get the calls' timeout back.
 */
const agents = new Map<string, HttpAgent>();
export function upstreamAgent(upstreamUrl: string, pool: string, timeoutMs: number): HttpAgent {
  const key = `${pool} ${timeoutMs} ${upstreamUrl}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxFreeSockets: 64, timeout: timeoutMs };
    agent = upstreamUrl.startsWith('https:') ? new HttpsAgent(options) : new PlainAgent(options);
    const reuse = agent.reuseSocket.bind(agent);
    agent.reuseSocket = (socket, request) => {
      reuse(socket, request);
      const s = socket as Socket;
      if (s.timeout !== timeoutMs) s.setTimeout(timeoutMs);
    };
    agents.set(key, agent);
  }
  return agent;
}

/**
 * Drops the browser's credentials and forwarding claims from a request about to be proxied.
 * Done on the incoming request, before the proxy copies its headers: a proxy hook that edits the
 * outgoing request can run after its headers went out, and then throws outside any handler.
 */
export function stripClientHeaders(headers: IncomingHttpHeaders): void {
  delete headers.cookie;
  delete headers.authorization;
  delete headers.forwarded;
  delete headers['x-real-ip'];
  delete headers['x-csrf'];
  delete headers.origin;
  delete headers.referer;
  for (const h in headers) if (h.startsWith('x-forwarded-')) delete headers[h];
}

/** The only upstream response headers a browser gets; the rest (server names, cookies, debug
 * and internal headers, the upstream's own security policy) stays behind the BFF. */
const PASSED_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-disposition',
  'content-range',
  'accept-ranges',
  'cache-control',
  'etag',
  'last-modified',
  'expires',
  'vary',
  'retry-after',
  'x-request-id',
  'x-correlation-id',
] as const;

function passedHeaders(
  upstream: IncomingHttpHeaders,
  alsoPass?: readonly string[],
): OutgoingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (const list of alsoPass ? [PASSED_HEADERS, alsoPass] : [PASSED_HEADERS]) {
    for (const h of list) {
      const value = upstream[h];
      if (value !== undefined) out[h] = value;
    }
  }
  // A redirect may only stay on this origin: a path, never another host (`//host`, `/\host`).
  const location = upstream.location;
  if (location && /^\/(?![/\\])/.test(location)) out.location = location;
  return out;
}

/** The head of every answer made from an upstream answer: its allowlisted headers, and
 * `no-store` unless the upstream says otherwise. */
export function upstreamHead(
  proxyRes: IncomingMessage,
  alsoPass?: readonly string[],
): OutgoingHttpHeaders {
  const headers = passedHeaders(proxyRes.headers, alsoPass);
  headers['cache-control'] ??= 'no-store';
  return headers;
}

/**
 * Writes an upstream-shaped answer whose body the BFF holds whole (an answer it made from the
 * upstream's, or a short one it read): `headers` from `upstreamHead`, the length of what goes.
 * With `gzipOk` given the body is the BFF's own JSON: gzipped as a streamed answer would be
 * (level 1, from COMPRESS_MIN_BYTES up) when the browser takes it, and `Vary: Accept-Encoding`.
 */
export async function answerWhole(
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: Buffer,
  gzipOk?: boolean,
): Promise<void> {
  let sent = body;
  if (gzipOk !== undefined) {
    varyOnEncoding(headers);
    if (gzipOk && body.length >= COMPRESS_MIN_BYTES) {
      sent = await gzipJson(body);
      headers['content-encoding'] = 'gzip';
    }
  }
  headers['content-length'] = String(sent.length);
  res.writeHead(status, withAnswerHeaders(res, headers));
  res.end(sent);
}

/** Reads a short upstream body (an error) into memory; beyond `cap` bytes it is drained, not kept. */
export async function readCapped(stream: IncomingMessage, cap = 64 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= cap) chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The upstream's own error shape, and nothing else of its body (no stack, no internals). */
function upstreamErrorShape(body: Buffer, contentType: string | undefined) {
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? '')) return null;
  try {
    const parsed = v.safeParse(ErrorBodySchema, JSON.parse(body.toString('utf8')));
    if (!parsed.success) return null;
    const { error, message, issues } = parsed.output;
    return {
      error: error.slice(0, 100),
      message: message.slice(0, 500),
      issues: issues?.slice(0, 50),
    };
  } catch {
    return null;
  }
}

/**
 * An upstream 5xx reaches the browser in the JSON error shape: the upstream's `{error, message}`
 * with its status when it sent that, else 502 `upstream_error`. HTML pages and stack traces of a
 * failing service never pass.
 */
async function answerUpstreamFailure(
  proxyRes: IncomingMessage,
  res: ServerResponse,
  log: Logger,
): Promise<void> {
  const body = await readCapped(proxyRes);
  const own = upstreamErrorShape(body, proxyRes.headers['content-type']);
  if (!own) log.warn({ status: proxyRes.statusCode }, 'upstream failed without its error shape');
  const retryAfter = proxyRes.headers['retry-after'];
  if (retryAfter && !res.headersSent) res.setHeader('retry-after', retryAfter);
  if (!own) return sendError(res, 502, 'upstream_error');
  sendError(res, proxyRes.statusCode ?? 502, own.error, own.message, {}, own.issues);
}

/** What every proxy to the upstream is told: its pool, its timeout, what it passes beyond the
 * allowlist, and an optional taker of answers (it returns the promise of writing one). */
export interface UpstreamProxyOptions {
  upstreamUrl: string;
  pool: string;
  timeoutMs: number;
  log: Logger;
  /** Headers this proxy passes beyond the allowlist. */
  alsoPass?: readonly string[];
  /** gzip JSON answers of some size for browsers that take it (the API; not the file store). */
  compressJson?: boolean;
  intercept?: (
    proxyRes: IncomingMessage,
    req: IncomingMessage,
    res: ServerResponse,
  ) => Promise<void> | undefined;
}

/**
 * Writes an upstream answer to the browser, filtered: allowlisted headers only (`no-store`
 * unless the upstream says otherwise), a 5xx in the JSON error shape, or the answer `intercept`
 * takes over. Shared by both transports (http-proxy-middleware and the lean /api forwarder).
 */
export function answerFromUpstream(
  o: UpstreamProxyOptions,
  proxyRes: IncomingMessage,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const status = proxyRes.statusCode ?? 502;
  if (status >= 500) return void answerUpstreamFailure(proxyRes, res, o.log).catch(failed(o, res));
  const taken = o.intercept?.(proxyRes, req, res);
  if (taken) return void taken.catch(failed(o, res));
  const headers = upstreamHead(proxyRes, o.alsoPass);
  const gzip = o.compressJson ? jsonCompressor(req, proxyRes, headers) : null;
  res.writeHead(status, withAnswerHeaders(res, headers));
  if (!gzip) return void proxyRes.pipe(res);
  // A failing compressor cuts the answer: a browser must never take half a body for a whole one.
  gzip.on('error', () => res.destroy());
  proxyRes.pipe(gzip).pipe(res);
}

function failed(o: UpstreamProxyOptions, res: ServerResponse) {
  return (err: unknown) => {
    o.log.warn({ err: (err as Error).message }, 'answering from an upstream answer failed');
    res.destroy();
  };
}

/**
 * A streaming proxy to one upstream pool on http-proxy-middleware, for the pass-through paths
 * (the object store's uploads and downloads, the dev tools). The /api calls, where the proxy's
 * own cost counts on every screen, take the lean forwarder (./forward.ts) with the same answers.
 */
export function upstreamProxy(o: UpstreamProxyOptions) {
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: o.upstreamUrl,
    changeOrigin: true,
    xfwd: false,
    // Without an agent http-proxy opens (and closes) a connection per call, which roughly halves
    // throughput and makes every browser response `Connection: close` (bench/README.md).
    agent: upstreamAgent(o.upstreamUrl, o.pool, o.timeoutMs),
    // Answers are written in proxyRes below: filtered, and an upstream 401 may wait for the
    // verdict of a refresh before the browser gets one.
    selfHandleResponse: true,
    on: {
      proxyReq(proxyReq: ClientRequest, _req: IncomingMessage, res: ServerResponse) {
        watchUpstream(proxyReq, res);
      },
      proxyRes(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) {
        answerFromUpstream(o, proxyRes, req, res);
      },
      // Without this http-proxy would log and leave the browser hanging.
      error(err: Error, _req: IncomingMessage, res: ServerResponse | Socket) {
        answerProxyError(o.log, err, res);
      },
    },
  });
}

/**
 * Run on every upstream request as it starts: only what cannot fail once the call's headers are
 * out (the credentials were settled on the incoming request). The request must use
 * `upstreamAgent`, whose socket timeout is the call's; no closures: the browser leaving is seen by
 * the response's one 'close' listener (./response-close.ts), the timeout by a plain function that
 * finds its call through `this`.
 */
export function watchUpstream(proxyReq: ClientRequest, res: ServerResponse): void {
  res.upstreamRequest = proxyReq;
  watchClose(res);
  proxyReq.on('timeout', upstreamTimedOut);
}

/** An upstream that says nothing for too long counts as a timeout (504 from the error handler). */
function upstreamTimedOut(this: ClientRequest): void {
  this.destroy(Object.assign(new Error('upstream timeout'), { code: 'ETIMEDOUT' }));
}

/** The proxy's own errors (unreachable, reset, timeout) as JSON; never a hang, never a throw. */
export function answerProxyError(log: Logger, err: Error, res: ServerResponse | Socket): void {
  const code = (err as NodeJS.ErrnoException).code;
  log.warn({ code, err: err.message }, 'proxy error');
  if (!('setHeader' in res)) return void res.destroy();
  // Answered already (the BFF cut the call itself): nothing left to say.
  if (res.writableEnded) return;
  const timeout = code === 'ETIMEDOUT';
  sendError(res, timeout ? 504 : 502, timeout ? 'upstream_timeout' : 'upstream_unavailable');
}
