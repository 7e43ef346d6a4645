import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { HttpError, sendError } from './errors.ts';

/** The app-wide guards: every thrown error answered in the one shape, NUL refused up front. */

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    if (err instanceof HttpError) {
      sendError(res, err.status, err.code, err.message, err.issues, err.details);
      return;
    }
    const bodyError = err as { type?: string; status?: number; code?: unknown };
    // PostgreSQL's refusal of a NUL in text (22021) or in a JSON value (22P05): the caller's
    // input, not a fault of the service. The guard below catches most of it before a query.
    if (bodyError.code === '22021' || bodyError.code === '22P05') {
      refuseNulText(res);
      return;
    }
    if (bodyError.type === 'entity.parse.failed') {
      sendError(res, 400, 'invalid_json', 'request body is not valid JSON');
      return;
    }
    if (bodyError.type === 'entity.too.large') {
      sendError(res, 413, 'payload_too_large', 'request body too large');
      return;
    }
    if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
      sendError(res, bodyError.status, 'bad_request', 'bad request');
      return;
    }
    logger.error({ err }, 'sandbox request failed');
    sendError(res, 500, 'internal_error', 'internal error');
  };
}

const refuseNulText = (res: Response) =>
  sendError(res, 400, 'invalid_input', 'text may not contain the NUL character (\\u0000)');

function holdsNul(value: unknown): boolean {
  // A loop, not recursion: a JSON body of deeply nested arrays must not exhaust the stack.
  const pending = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (v && typeof v === 'object') {
      for (const [key, inner] of Object.entries(v)) {
        if (key.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/**
 * Refuses a NUL in the address (path or query, `%00`) or anywhere in a JSON body before any
 * route sees it: PostgreSQL cannot store or compare it, and a clear 400 beats a failed query.
 * Mount after the JSON parser.
 */
export const refuseNul: RequestHandler = (req, res, next) => {
  if (/%00/i.test(req.originalUrl) || holdsNul(req.body)) {
    refuseNulText(res);
    return;
  }
  next();
};
