import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import * as v from 'valibot';
import type { Logger } from 'pino';
import type { Db } from './db.ts';
import type { AccessTokenClaims, TokenSigner } from './crypto.ts';
import { hasPermission } from '#common/permissions.ts';
import { errorBody, issuesOf, type ErrorIssue } from '#common/contracts/error.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message?: string,
    /** More of the answer beside error and message (the problems of a file, the current record). */
    readonly details?: Record<string, unknown>,
    /** The fields at fault and a machine code for each (`{path: 'phone', code: 'invalid_phone'}`). */
    readonly issues?: readonly ErrorIssue[],
  ) {
    super(message ?? code);
  }
}

/** A 400 `validation_error` naming each problem at its path; the message lists them for logs. */
export const invalidInput = (issues: readonly ErrorIssue[], message?: string): HttpError =>
  new HttpError(
    400,
    'validation_error',
    message ?? issues.map((issue) => `${issue.path}: ${issue.code}`).join('; '),
    undefined,
    issues,
  );

/** One field refused: `code` for the client, `why` (English, for logs) in the message. */
export const invalidField = (path: string, code: string, why = code): HttpError =>
  invalidInput([{ path, code }], `${path}: ${why}`);

/** The sandbox's only writer of an error answer: the shape of common/contracts/error.ts. */
export function sendError(
  res: Response,
  status: number,
  error: string,
  message: string,
  issues?: readonly ErrorIssue[],
  extra?: Record<string, unknown>,
): void {
  res.status(status).json(errorBody(error, message, issues, extra));
}

export const notFound = (what = 'resource'): HttpError =>
  new HttpError(404, 'not_found', `${what} not found`);

export interface AuthContext {
  userId: number;
  userCode: string;
  email: string;
  tenantId: number;
  tenantSlug: string;
  tenantGroupId: number;
  permissions: string[];
}

export function getAuth(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new HttpError(401, 'unauthorized', 'missing bearer token');
  return auth;
}

export function bearerFrom(req: Request): string | null {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header);
  return match?.[1] ?? null;
}

function issuedAtMs(claims: AccessTokenClaims): number {
  if (typeof claims.iat_ms === 'number') return claims.iat_ms;
  return typeof claims.iat === 'number' ? claims.iat * 1000 : 0;
}

/**
 * Resolves a token to a live identity: the signature alone is not enough, because a user may have
 * been disabled or removed from the workspace since the token was issued.
 */
export async function resolveToken(
  db: Db,
  signer: TokenSigner,
  token: string,
): Promise<AuthContext | null> {
  const claims = await signer.verify(token);
  if (!claims) return null;
  const [row] = await db.query<{
    user_id: number;
    code: string;
    email: string;
    tenant_id: number;
    slug: string;
    tenant_group_id: number;
  }>(
    `SELECT u.id AS user_id, u.code, u.email, t.id AS tenant_id, t.slug, t.tenant_group_id
       FROM users u
       JOIN tenant_users tu ON tu.user_id = u.id
       JOIN tenants t ON t.id = tu.tenant_id
      WHERE u.sub = $1 AND t.id = $2 AND u.status = 'active' AND NOT t.is_disabled
        AND (u.tokens_valid_after IS NULL OR u.tokens_valid_after <= $3::timestamptz)`,
    [claims.sub, claims.tenant_id, new Date(issuedAtMs(claims))],
  );
  if (!row) return null;
  return {
    userId: row.user_id,
    userCode: row.code,
    email: row.email,
    tenantId: row.tenant_id,
    tenantSlug: row.slug,
    tenantGroupId: row.tenant_group_id,
    permissions: await loadPermissions(db, row.user_id, row.tenant_id),
  };
}

export async function loadPermissions(db: Db, userId: number, tenantId: number): Promise<string[]> {
  const rows = await db.query<{ permission: string }>(
    `SELECT DISTINCT rp.permission
       FROM user_roles ur
       JOIN role_permissions rp ON rp.role_id = ur.role_id AND rp.tenant_id = ur.tenant_id
      WHERE ur.user_id = $1 AND ur.tenant_id = $2
      ORDER BY rp.permission`,
    [userId, tenantId],
  );
  return rows.map((r) => r.permission);
}

export function requireAuth(db: Db, signer: TokenSigner): RequestHandler {
  return async (req, res, next) => {
    // Several routers share one service prefix; the first one that authenticated is enough.
    if (res.locals.auth) {
      next();
      return;
    }
    const token = bearerFrom(req);
    if (!token) throw new HttpError(401, 'unauthorized', 'missing bearer token');
    const auth = await resolveToken(db, signer, token);
    if (!auth) throw new HttpError(401, 'unauthorized', 'invalid or expired token');
    res.locals.auth = auth;
    next();
  };
}

/** Needs `permission`, or one of `alternatives` (older names of the same right). */
export function requirePermission(permission: string, ...alternatives: string[]): RequestHandler {
  return (_req, res, next) => {
    const held = getAuth(res).permissions;
    if (![permission, ...alternatives].some((p) => hasPermission(held, p))) {
      throw new HttpError(403, 'forbidden', `missing permission ${permission}`);
    }
    next();
  };
}

/**
 * The insurance services accept a permission in its current form (`account-management.accounts.view`)
 * or in the legacy `eis.*` form of the older platform (`eis.accounts.view`): roles created before
 * the modules were split still carry the legacy names.
 */
export function requireServicePermission(
  module: string,
  resource: string,
  action: string,
): RequestHandler {
  return requirePermission(`${module}.${resource}.${action}`, `eis.${resource}.${action}`);
}

export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body ?? {});
  if (!result.success) {
    // The message keeps naming the first problem in words; `issues` carries every one as codes.
    const issue = result.issues[0];
    const where = issue ? v.getDotPath(issue) : null;
    throw new HttpError(
      400,
      'validation_error',
      `${where ? `${where}: ` : ''}${issue?.message ?? 'invalid body'}`,
      undefined,
      issuesOf(result.issues),
    );
  }
  return result.output;
}

export interface ListQuery {
  pageSize: number;
  page: number;
  filter: Map<string, string>;
  order: { field: string; direction: 'ASC' | 'DESC' } | null;
  search: string | null;
  expand: Set<string>;
}

export interface ListSpec {
  filters: readonly string[];
  orders: readonly string[];
  expands: readonly string[];
  /** Lists with a larger page in the spec (product fields 100, insured objects 100). */
  maxPageSize?: number;
}

function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, 'invalid_query', `${name} given twice`);
  return value;
}

function positiveInt(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) {
    throw new HttpError(400, 'invalid_query', `${name} must be a positive integer`);
  }
  return Number(text);
}

/**
 * A filter value arrives URI-encoded inside the filter (`city=Bad%20%26%20Bunt`): `&` separates
 * the filters, so a value holding one must be encoded by the caller.
 */
function decodedValue(text: string, field: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(400, 'invalid_query', `filter ${field} is not URI-encoded`);
  }
}

export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 50;

/** Reads the list parameters shared by every list call; unknown fields are a 400, not ignored. */
export function parseListQuery(query: Request['query'], spec: ListSpec): ListQuery {
  const pageSize = Math.min(
    positiveInt(single(query.pageSize, 'pageSize'), 'pageSize') ?? DEFAULT_PAGE_SIZE,
    spec.maxPageSize ?? MAX_PAGE_SIZE,
  );
  const page = positiveInt(single(query.pageToken, 'pageToken'), 'pageToken') ?? 1;

  const filter = new Map<string, string>();
  for (const part of (single(query.filter, 'filter') ?? '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const field = eq < 0 ? part : part.slice(0, eq);
    if (eq < 0 || !spec.filters.includes(field)) {
      throw new HttpError(400, 'invalid_query', `unsupported filter ${field}`);
    }
    filter.set(field, decodedValue(part.slice(eq + 1), field));
  }

  let order: ListQuery['order'] = null;
  const orderText = single(query.order, 'order');
  if (orderText) {
    const match = /^([A-Za-z_]+)(?:[: ](ASC|DESC))?$/i.exec(orderText.trim());
    if (!match?.[1] || !spec.orders.includes(match[1])) {
      throw new HttpError(400, 'invalid_query', `unsupported order ${orderText}`);
    }
    order = {
      field: match[1],
      direction: (match[2] ?? 'ASC').toUpperCase() === 'DESC' ? 'DESC' : 'ASC',
    };
  }

  const searchText = (single(query.search, 'search') ?? single(query.query, 'query') ?? '').trim();
  const expand = new Set<string>();
  for (const item of (single(query.expand, 'expand') ?? '').split(',')) {
    const name = item.trim();
    if (!name) continue;
    if (!spec.expands.includes(name)) {
      throw new HttpError(400, 'invalid_query', `unsupported expand ${name}`);
    }
    expand.add(name);
  }
  return { pageSize, page, filter, order, search: searchText || null, expand };
}

/** Callers fetch pageSize + 1 rows; the extra one only tells whether another page exists. */
export function pageOf<T>(
  rows: T[],
  list: ListQuery,
): { items: T[]; nextPageToken: string | null } {
  const more = rows.length > list.pageSize;
  return {
    items: more ? rows.slice(0, list.pageSize) : rows,
    nextPageToken: more ? String(list.page + 1) : null,
  };
}

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
