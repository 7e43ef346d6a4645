import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { sendError } from '#server/http-errors.ts';
import type { UpstreamGate } from '#server/upstream/gate.ts';
import { stripClientHeaders, upstreamProxy } from '#server/upstream/proxy-common.ts';

export interface BodyLimits {
  /** Largest body accepted; more bytes than that arriving is a 413. */
  maxBytes: number;
  /** The whole body must have arrived this long after the call was let through, else 408. */
  deadlineMs: number;
  /** Bytes per second, measured over each window; a body arriving slower is a 408. */
  minBytesPerSecond: number;
}

/** How often a body's progress is measured against the minimum rate. */
const RATE_WINDOW_MS = 5_000;

/**
 * Sandbox paths the browser reaches without a session (the object store's signed uploads and
 * downloads, the stand-in chat widget, the tester's tools): streamed both ways, no token added,
 * the client's credentials and forwarding headers dropped, the upstream's answer filtered like an
 * API answer. Each proxy sits behind a gate, and with `body` limits a request body must arrive
 * whole, in time and at a minimum rate, so that slow senders cannot hold the pool.
 */
export function passThroughProxy(deps: {
  upstreamUrl: string;
  /** Which connection pool: uploads get their own, apart from API calls. */
  pool: string;
  gate: UpstreamGate;
  timeoutMs: number;
  log: Logger;
  paths: (path: string) => boolean;
  body?: BodyLimits;
  alsoPass?: readonly string[];
}): RequestHandler {
  const { log, gate, body } = deps;
  const proxy = upstreamProxy({
    upstreamUrl: deps.upstreamUrl,
    pool: deps.pool,
    timeoutMs: deps.timeoutMs,
    log,
    ...(deps.alsoPass ? { alsoPass: deps.alsoPass } : {}),
  });

  // With body limits the proxy runs through this, once the gate lets the call through: the
  // deadline counts from then, not from a wait in the gate's queue.
  const guarded = (req: IncomingMessage, res: ServerResponse, next: NextFunction) => {
    if (!req.complete && hasBody(req)) watchBody(req, res, body!, log);
    return proxy(req, res, next);
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (!deps.paths(req.path)) return next();
    // A declared size beyond the limit passes: the store refuses it at once, in its own words
    // (S3's EntityTooLarge), which is what the browser's upload code reads.
    stripClientHeaders(req.headers);
    gate.enter(req, res, next, body ? guarded : proxy);
  };
}

function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0
  );
}

/** Measures a body by the bytes its connection delivered (no listener on the body itself, which
 * would take it from the proxy) and cuts it when it is late, too slow or too large. */
function watchBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits, log: Logger) {
  const socket = req.socket;
  const start = socket.bytesRead;
  let last = start;
  const minPerWindow = (limits.minBytesPerSecond * RATE_WINDOW_MS) / 1000;
  const stop = () => {
    clearTimeout(deadline);
    clearInterval(rate);
  };
  const cut = (status: number, error: string, message: string) => {
    stop();
    if (req.complete) return;
    // Never the query: it carries the upload's signature.
    const path = req.url?.split('?')[0];
    log.warn({ path, status, bytes: socket.bytesRead - start }, 'upload cut');
    cutBody(req, res, status, error, message);
    // The partial body must not reach the store as if it were whole.
    res.upstreamRequest?.destroy();
  };
  const deadline = setTimeout(
    cut,
    limits.deadlineMs,
    408,
    'request_timeout',
    'The upload did not arrive in time.',
  );
  const rate = setInterval(() => {
    const read = socket.bytesRead;
    if (read - start > limits.maxBytes + 64 * 1024) {
      return cut(413, 'payload_too_large', 'The upload is too large.');
    }
    if (read - last < minPerWindow) {
      return cut(408, 'request_timeout', 'The upload arrived too slowly.');
    }
    last = read;
  }, RATE_WINDOW_MS);
  req.once('end', stop);
  res.once('close', stop);
}

/** Answers a refused body in JSON and closes the connection instead of reading the rest. */
function cutBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  error: string,
  message: string,
) {
  if (res.headersSent) return void req.socket.destroy();
  res.setHeader('connection', 'close');
  sendError(res, status, error, message);
}
