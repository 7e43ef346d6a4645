/**
 * The one fetch wrapper of the client. Every call to `/bff` and `/api` goes through here so that
 * the CSRF header, JSON handling and the "session expired" rule live in one place.
 */
import type { SessionEndReason } from '#machines/session.machine.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, code: string, message: string, body: unknown, retryAfter?: number) {
    super(message || code);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
    this.retryAfterSeconds = retryAfter;
  }
}

type SessionExpiredListener = (accountIndex: number, reason: SessionEndReason | undefined) => void;

const END_REASONS: readonly SessionEndReason[] = ['no_ui_permission', 'user_disabled'];
const endReasonOf = (body: unknown): SessionEndReason | undefined =>
  END_REASONS.find((reason) => (body as { reason?: unknown } | null)?.reason === reason);
let onSessionExpired: SessionExpiredListener | undefined;

/** The session provider registers here; a 401 `session_expired` becomes a session-machine event. */
export function setSessionExpiredListener(listener: SessionExpiredListener | undefined): void {
  onSessionExpired = listener;
}

// Spec, error catalogue: a 401 redirects to login "unless on /login/saml or /forms".
function mayRedirectOn401(): boolean {
  const path = window.location.pathname;
  return !path.startsWith('/login/saml') && !path.startsWith('/forms');
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function fileOf(response: Response): Promise<{ blob: Blob; filename: string | null }> {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

/** A 401 of an account's proxied call that is the upstream's, not the BFF's session_expired. */
function isUpstreamRefusal(path: string, response: Response, body: unknown): boolean {
  return (
    response.status === 401 &&
    /^\/api\/\d+\//.test(path) &&
    (body as { error?: unknown } | null | undefined)?.error !== 'session_expired'
  );
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON, or a FormData for an upload (the browser sets its multipart type). */
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Headers a call needs beyond the wrapper's own (a payment's `Idempotency-Key`). */
  headers?: Readonly<Record<string, string>>;
}

export async function fetchJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await request<T>(path, options, false)) as T;
}

/**
 * A download: the file as a Blob and the name the server gave it; failures as fetchJson's.
 * `options`: a call that answers a file to a POST (a preview printed from unsaved sources).
 */
export async function fetchFile(
  path: string,
  signal?: AbortSignal,
  options: Omit<RequestOptions, 'signal'> = {},
): Promise<{ blob: Blob; filename: string | null }> {
  return (await request(path, { ...options, signal }, true)) as {
    blob: Blob;
    filename: string | null;
  };
}

async function request<T>(
  path: string,
  options: RequestOptions,
  asFile: boolean,
): Promise<T | { blob: Blob; filename: string | null }> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = {
    ...options.headers,
    Accept: asFile ? '*/*' : 'application/json',
  };
  // The BFF refuses any state-changing call without it: a cross-site form cannot set headers.
  if (method !== 'GET') headers['X-CSRF'] = '1';
  const isForm = typeof FormData !== 'undefined' && options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';

  const send = () =>
    fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(options.body !== undefined
        ? { body: isForm ? (options.body as FormData) : JSON.stringify(options.body) }
        : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });

  let response = await send();
  if (asFile && response.ok) return fileOf(response);
  let body = await readBody(response);
  if (isUpstreamRefusal(path, response, body)) {
    // The upstream refused the account's token. The BFF refreshed the account before answering:
    // had the upstream refused that too (password reset, user disabled or deleted), this would
    // already be session_expired. So the account holds a fresh token now, and the same call once
    // more works. A 401 means the upstream did nothing, so repeating a write is safe.
    response = await send();
    if (asFile && response.ok) return fileOf(response);
    body = await readBody(response);
  }

  if (response.status === 204) return undefined as T;
  if (response.ok) return body as T;

  const { error, message, accountIndex } = (body ?? {}) as {
    error?: string;
    message?: string;
    accountIndex?: number;
  };
  const retryAfter = Number(response.headers.get('Retry-After'));
  const apiError = new ApiError(
    response.status,
    error ?? `http_${response.status}`,
    message ?? '',
    body,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
  if (
    response.status === 401 &&
    error === 'session_expired' &&
    typeof accountIndex === 'number' &&
    mayRedirectOn401()
  ) {
    // The BFF adds a reason when a refresh showed the UI permission gone or the user disabled.
    onSessionExpired?.(accountIndex, endReasonOf(body));
  }
  throw apiError;
}
