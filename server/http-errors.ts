import type { Response } from 'express';

/** Every error the BFF produces has this JSON shape; never a stack trace. */
export function sendError(
  res: Response,
  status: number,
  error: string,
  message = defaultMessages[error] ?? error,
  extra: Record<string, unknown> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .status(status)
    .set('cache-control', 'no-store')
    .json({ error, message, ...extra });
}

/** The same shape as a JSON text, for answers written on a bare Node response (the proxies). */
export function errorJson(error: string, message = defaultMessages[error] ?? error): string {
  return JSON.stringify({ error, message });
}

const defaultMessages: Record<string, string> = {
  csrf: 'Missing X-CSRF header.',
  session_expired: 'Your session has ended. Please sign in again.',
  invalid_credentials: 'Incorrect e-mail address or password.',
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
