import type { ClientRequest, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

declare module 'http' {
  interface ServerResponse {
    /** The proxied call of this response, to give up when the browser leaves first. */
    upstreamRequest?: ClientRequest;
    /** The gate slot this response holds until it closes (server/upstream/gate.ts). */
    heldSlot?: { release(): void };
    /** Where this response's log line goes once it is answered (server/app.ts). */
    requestLog?: Logger;
    requestLogPath?: string;
    requestLogStart?: number;
    /** The server's set of open responses, which this one leaves when it closes (server/start.ts). */
    openSet?: Set<ServerResponse>;
    /** Whether `responseClosed` already listens on this response. */
    closeWatched?: boolean;
  }
}

/**
 * What a response's end means to the server (leave the set of open responses, give up the
 * upstream call, free the gate slot, write the log line) is kept in fields of the response and
 * done by this one 'close' listener. Four listeners (each a `once` wrapper or a closure) cost
 * measurably on every proxied call (bench/proxy-throughput.ts, issue 14); one plain function
 * that reads its call from `this` allocates nothing. 'close' comes once per response, after
 * 'finish' when it was answered, and also when the browser left first.
 */
export function watchClose(res: ServerResponse): void {
  if (res.closeWatched) return;
  res.closeWatched = true;
  res.on('close', responseClosed);
}

function responseClosed(this: ServerResponse): void {
  this.openSet?.delete(this);
  const up = this.upstreamRequest;
  if (up) {
    // The browser left before its answer was complete: give up the upstream call and its socket.
    if (!this.writableFinished) up.destroy();
    this.upstreamRequest = undefined;
  }
  const slot = this.heldSlot;
  if (slot) {
    this.heldSlot = undefined;
    slot.release();
  }
  // Only answered requests are logged, as when this was a 'finish' listener.
  if (this.requestLog && this.writableFinished) logAnswered(this, this.requestLog);
}

/**
 * Logs the response once it is answered: one structured line, never the query string (it may
 * carry codes or tokens of other systems). `path` is read now, before a proxy rewrites the URL.
 */
export function logOnClose(log: Logger, res: ServerResponse, path: string): void {
  res.requestLog = log;
  res.requestLogPath = path;
  res.requestLogStart = performance.now();
  watchClose(res);
}

/** At debug for API and asset traffic (a busy proxy must not drown the log), warn for a 5xx. */
function logAnswered(res: ServerResponse, log: Logger): void {
  const path = res.requestLogPath ?? '';
  const level =
    res.statusCode >= 500
      ? 'warn'
      : path.startsWith('/api/') || path.startsWith('/assets/')
        ? 'debug'
        : 'info';
  if (!log.isLevelEnabled(level)) return;
  const ms = Math.round((performance.now() - (res.requestLogStart ?? 0)) * 1000) / 1000;
  log[level]({ method: res.req.method, path, status: res.statusCode, ms }, 'request');
}
