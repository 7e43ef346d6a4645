import { errorIssues, type ErrorIssue } from '#common/contracts/error.ts';
import { ApiError } from './fetch-json.ts';

/**
 * The error codes of the sandbox and the BFF that the client says in the user's language
 * (`errors:api.*` in locales/). The English `message` of an answer is never shown or parsed:
 * a code not listed here is said by its status class.
 */
const CODES = [
  'validation_error',
  'bad_request',
  'invalid_query',
  'invalid_input',
  'invalid_json',
  'malformed_json',
  'payload_too_large',
  'unsupported_media_type',
  'unauthorized',
  'session_expired',
  'forbidden',
  'csrf',
  'not_found',
  'version_conflict',
  'illegal_transition',
  'calculation_failed',
  'rate_limited',
  'request_timeout',
  'upstream_unavailable',
  'upstream_timeout',
  'upstream_busy',
  'upstream_error',
  'internal_error',
] as const;
type Code = (typeof CODES)[number];
const KNOWN = new Set<string>(CODES);

export type ApiErrorKey = `errors:api.${Code | 'conflict' | 'failed'}`;

/** The locale key that says what went wrong: by the answer's `error`, else by its status. */
export function apiErrorKey(error: unknown): ApiErrorKey {
  if (!(error instanceof ApiError)) return 'errors:api.failed';
  if (KNOWN.has(error.code)) return `errors:api.${error.code as Code}`;
  const { status } = error;
  if (status === 400 || status === 422) return 'errors:api.bad_request';
  if (status === 401) return 'errors:api.session_expired';
  if (status === 403) return 'errors:api.forbidden';
  if (status === 404) return 'errors:api.not_found';
  if (status === 409) return 'errors:api.conflict';
  if (status >= 500) return 'errors:api.upstream_error';
  return 'errors:api.failed';
}

/**
 * The fields a refused write names (`[{path: 'phone', code: 'invalid_phone'}]`): the `issues` of a
 * 400, none for any other failure. A form shows each at its field by the path.
 */
export function fieldIssues(error: unknown): ErrorIssue[] {
  const refused = refusal(error);
  return refused?.status === 400 ? refused.issues : [];
}

/** A service's refusal: a 4xx answer, its `error` code and the issues it names (maybe none). */
export interface Refusal {
  status: number;
  code: string;
  issues: ErrorIssue[];
}

/**
 * The refusal an error is, for a form that explains more than a 400's fields (a 409 that names
 * the taken name); undefined for no answer or a 5xx, which a form can only offer to try again.
 */
export function refusal(error: unknown): Refusal | undefined {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return undefined;
  return { status: error.status, code: error.code, issues: errorIssues(error.body) };
}
