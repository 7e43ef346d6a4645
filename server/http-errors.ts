import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorBody, type ErrorIssue } from '#common/contracts/error.ts';

declare module 'http' {
  interface ServerResponse {
    /**
     * Headers every answer of this response carries, whoever writes it: the lean /api path's
     * hardening headers (server/app.ts). Given to `writeHead` with the answer's own headers
     * (`withAnswerHeaders`) instead of set one by one beforehand: `setHeader` validates each, and
     * a `writeHead` after it merges the answer's headers in one by one again (issue 14).
     */
    answerHeaders?: Readonly<Record<string, string>>;
  }
}

/** `headers` (about to go to `writeHead`) with the response's `answerHeaders` it does not set. */
export function withAnswerHeaders<T extends OutgoingHttpHeaders>(
  res: ServerResponse,
  headers: T,
): T {
  const extra = res.answerHeaders;
  if (extra) {
    for (const name in extra)
      if (headers[name] === undefined) (headers as OutgoingHttpHeaders)[name] = extra[name];
  }
  return headers;
}

/**
 * Every error the BFF produces has the shape of common/contracts/error.ts; never a stack trace.
 * These two are its only writers: `sendError` on a response (Express's or a bare Node one),
 * `errorJson` as the text written on a bare socket (a request Node could not parse).
 */
export function sendError(
  res: ServerResponse,
  status: number,
  error: string,
  message = defaultMessages[error] ?? error,
  extra: Record<string, unknown> = {},
  issues?: readonly ErrorIssue[],
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // Written on the bare Node response, so the lean /api path (no Express) answers the same way;
  // headers set before (retry-after, the security headers) stay.
  const text = JSON.stringify(errorBody(error, message, issues, extra));
  res.writeHead(
    status,
    withAnswerHeaders(res, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    }),
  );
  res.end(text);
}

/** The same shape as a JSON text, for answers written on a bare Node response (the proxies). */
export function errorJson(
  error: string,
  message = defaultMessages[error] ?? error,
  issues?: readonly ErrorIssue[],
): string {
  return JSON.stringify(errorBody(error, message, issues));
}

const defaultMessages: Record<string, string> = {
  csrf: 'Missing X-CSRF header.',
  session_expired: 'Your session has ended. Please sign in again.',
  invalid_credentials: 'Incorrect e-mail address or password.',
  user_disabled: 'This account is disabled.',
  no_ui_permission: 'This user has no access to the user interface.',
  rate_limited: 'Too many sign-in attempts. Please wait and try again.',
  upstream_unavailable: 'The service is not reachable right now.',
  upstream_timeout: 'The service did not answer in time.',
  upstream_busy: 'The service is busy. Please try again in a moment.',
  upstream_error: 'The service could not complete this request.',
  request_timeout: 'The request did not arrive in time.',
  session_store_unavailable: 'Sessions are temporarily unavailable.',
  not_found: 'Not found.',
  malformed_json: 'The request body is not valid JSON.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'Send JSON with Content-Type: application/json.',
  bad_request: 'The request is not valid.',
  password_change_required: 'The password must be changed first.',
  forbidden: 'Not allowed.',
};
