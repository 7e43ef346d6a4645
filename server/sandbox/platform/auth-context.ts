import type { Request, RequestHandler, Response } from 'express';
import type { Db } from './db.ts';
import type { AccessTokenClaims, TokenSigner } from './crypto.ts';
import { HttpError } from './errors.ts';
import { hasPermission } from '#common/permissions.ts';

/** Who calls: the bearer token resolved to a live user of a workspace, and permission checks. */

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The token's session id, or null for a token minted before sessions were kept. */
function sessionIdOf(claims: AccessTokenClaims): string | null {
  return typeof claims.sid === 'string' && UUID.test(claims.sid) ? claims.sid : null;
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
        AND (u.tokens_valid_after IS NULL OR u.tokens_valid_after <= $3::timestamptz)
        AND NOT EXISTS (SELECT 1 FROM auth_sessions s WHERE s.id = $4::uuid AND s.ended_at IS NOT NULL)`,
    // An administrator's "sign out" of one session ends its access tokens at once, not at expiry.
    [claims.sub, claims.tenant_id, new Date(issuedAtMs(claims)), sessionIdOf(claims)],
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
