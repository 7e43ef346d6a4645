import { randomUUID } from 'node:crypto';
import type { Clock } from '#common/clock.ts';
import { Router, type Request, type Response } from 'express';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import {
  burnPasswordCheck,
  hashPassword,
  randomToken,
  sha256,
  verifyPassword,
  type TokenSigner,
} from '#server/sandbox/platform/crypto.ts';
import { passwordMeetsRules } from '#common/password-rules.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import {
  bearerFrom,
  loadPermissions,
  resolveToken,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import {
  ForcedChangeBody,
  LoginBody,
  SamlLoginBody,
  SignedInChangeBody,
  SwitchBody,
  UsernameBody,
} from '#common/contracts/auth.ts';

export const REFRESH_COOKIE = 'refreshToken';
const REFRESH_PATH = '/authservice/v1';
const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
export const CHALLENGE_TTL_SECONDS = 10 * 60;
export const SAML_CODE_TTL_SECONDS = 5 * 60;

interface UserRow {
  id: number;
  email: string;
  sub: string;
  first_name: string;
  last_name: string;
  status: string;
  password_hash: string | null;
  must_change_password: boolean;
  tenant_id: number;
  tenant_group_id: number;
}

const USER_COLUMNS = `u.id, u.email, u.sub, u.first_name, u.last_name, u.status, u.password_hash,
  u.must_change_password, u.tenant_id, u.tenant_group_id`;

export function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value || null;
    }
  }
  return null;
}

function setRefreshCookie(res: Response, token: string): void {
  res.append(
    'Set-Cookie',
    `${REFRESH_COOKIE}=${token}; HttpOnly; Path=${REFRESH_PATH}; SameSite=Strict; Max-Age=${REFRESH_TTL_SECONDS}`,
  );
}

function clearRefreshCookie(res: Response): void {
  res.append(
    'Set-Cookie',
    `${REFRESH_COOKIE}=; HttpOnly; Path=${REFRESH_PATH}; SameSite=Strict; Max-Age=0`,
  );
}

export interface AuthDeps {
  db: Db;
  signer: TokenSigner;
  /** When refresh tokens expire, and whether one has. */
  clock: Clock;
}

/**
 * Mints an access token and a fresh refresh token for one user in one workspace. A sign-in starts
 * a session (`auth_sessions`); a refresh or a workspace switch continues the one its refresh token
 * belongs to, so that an administrator sees one session per sign-in and ending it ends them all.
 */
async function issueSession(
  deps: AuthDeps,
  res: Response,
  userId: number,
  tenantId: number,
  continuing: string | null = null,
): Promise<void> {
  const { db, signer } = deps;
  const [row] = await db.query<{
    sub: string;
    code: string;
    email: string;
    first_name: string;
    last_name: string;
    tenant_id: number;
    slug: string;
    name: string;
  }>(
    `SELECT u.sub, u.code, u.email, u.first_name, u.last_name, t.id AS tenant_id, t.slug, t.name
       FROM users u
       JOIN tenant_users tu ON tu.user_id = u.id
       JOIN tenants t ON t.id = tu.tenant_id
      WHERE u.id = $1 AND t.id = $2`,
    [userId, tenantId],
  );
  if (!row) throw new HttpError(403, 'forbidden', 'no access to this workspace');
  const [role] = await db.query<{ code: string }>(
    `SELECT r.code FROM user_roles ur JOIN roles r ON r.id = ur.role_id
      WHERE ur.user_id = $1 AND ur.tenant_id = $2 ORDER BY r.id LIMIT 1`,
    [userId, tenantId],
  );
  const permissions = await loadPermissions(db, userId, tenantId);
  const sessionId = continuing ?? randomUUID();
  await db.query(
    `INSERT INTO auth_sessions (id, tenant_id, user_id, started_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id`,
    [sessionId, tenantId, userId, new Date(deps.clock.now())],
  );
  const accessToken = await signer.sign({
    sub: row.sub,
    email: row.email,
    given_name: row.first_name,
    family_name: row.last_name,
    user_code: row.code,
    tenant_id: row.tenant_id,
    tenant_slug: row.slug,
    tenant_name: row.name,
    role: role?.code ?? '',
    tier: 'standard',
    sid: sessionId,
  });
  const refreshToken = randomToken();
  await db.query(
    `INSERT INTO refresh_tokens (tenant_id, user_id, token_hash, expires_at, session_id)
     VALUES ($1, $2, $3, $5::timestamptz + make_interval(secs => $4), $6)`,
    [
      tenantId,
      userId,
      sha256(refreshToken),
      REFRESH_TTL_SECONDS,
      new Date(deps.clock.now()),
      sessionId,
    ],
  );
  setRefreshCookie(res, refreshToken);
  res.status(200).json({ accessToken, permissions: permissions.join(',') });
}

/** Takes a one-time code exactly once, whatever the concurrency: the UPDATE is the gate. */
async function consumeCode(
  db: Queryable,
  clock: Clock,
  kind: 'saml' | 'password_change',
  code: string,
): Promise<{ user_id: number; tenant_id: number } | null> {
  const [row] = await db.query<{ user_id: number; tenant_id: number }>(
    `UPDATE one_time_codes SET used_at = now()
      WHERE code_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3::timestamptz
      RETURNING user_id, tenant_id`,
    [sha256(code), kind, new Date(clock.now())],
  );
  return row ?? null;
}

/** A single-use code that expires `ttlSeconds` after now on `clock`, the sandbox's time. */
export async function createCode(
  db: Queryable,
  clock: Clock,
  kind: 'saml' | 'password_change',
  userId: number,
  tenantId: number,
  ttlSeconds: number,
): Promise<string> {
  const code = randomToken();
  await db.query(
    `INSERT INTO one_time_codes (tenant_id, user_id, kind, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [tenantId, userId, kind, sha256(code), new Date(clock.now() + ttlSeconds * 1000)],
  );
  return code;
}

const invalidCredentials = (): HttpError =>
  new HttpError(401, 'invalid_credentials', 'invalid username or password');
const passwordUnchanged = (): HttpError =>
  new HttpError(400, 'password_unchanged', 'the new password must differ from the current one');
const invalidRefresh = (): HttpError =>
  new HttpError(401, 'invalid_refresh_token', 'refresh token missing, unknown or expired');

interface RefreshRow {
  id: number;
  user_id: number;
  tenant_id: number;
  email: string;
  /** null for tokens minted before sessions were kept (migration 024). */
  session_id: string | null;
}

async function findRefresh(db: Db, req: Request, now: Date): Promise<RefreshRow | null> {
  const token = readCookie(req, REFRESH_COOKIE);
  if (!token) return null;
  const [row] = await db.query<RefreshRow>(
    `SELECT rt.id, rt.user_id, rt.tenant_id, u.email, rt.session_id
       FROM refresh_tokens rt JOIN users u ON u.id = rt.user_id
      WHERE rt.token_hash = $1 AND rt.revoked_at IS NULL AND rt.expires_at > $2::timestamptz`,
    [sha256(token), now],
  );
  return row ?? null;
}

/**
 * Why a refresh is refused. Disabling a user revokes their refresh tokens, so their next refresh
 * would read as a plain time-out; when the cookie is one of a disabled user's (revoked or not,
 * still within its lifetime) the answer says so, as the sign-in does to whoever knows the
 * password: the cookie is a credential of that same user, so its holder learns nothing new.
 */
async function refreshRefusal(
  db: Db,
  req: Request,
  username: string,
  now: Date,
): Promise<HttpError> {
  const token = readCookie(req, REFRESH_COOKIE);
  if (!token) return invalidRefresh();
  const [disabled] = await db.query(
    `SELECT 1 FROM refresh_tokens rt JOIN users u ON u.id = rt.user_id
      WHERE rt.token_hash = $1 AND rt.expires_at > $2::timestamptz
        AND lower(u.email) = lower($3) AND u.status = 'disabled'`,
    [sha256(token), now, username],
  );
  return disabled
    ? new HttpError(403, 'user_disabled', 'this account is disabled')
    : invalidRefresh();
}

/** Revokes one refresh token; false when someone else revoked it first (a replayed cookie). */
async function revokeRefresh(db: Db, id: number): Promise<boolean> {
  const rows = await db.query(
    'UPDATE refresh_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
    [id],
  );
  return rows.length > 0;
}

/** The tenant a user enters by password: the home workspace, else any enabled one of theirs. */
async function landingTenant(db: Db, user: UserRow): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(
    `SELECT t.id FROM tenant_users tu JOIN tenants t ON t.id = tu.tenant_id
      WHERE tu.user_id = $1 AND NOT t.is_disabled
      ORDER BY (t.id = $2) DESC, t.is_default DESC, t.id LIMIT 1`,
    [user.id, user.tenant_id],
  );
  return row?.id ?? null;
}

const sameEmail = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export function authRouter(deps: AuthDeps & { tools: boolean }): Router {
  const { db, signer } = deps;
  const router = Router();

  router.post('/login', async (req, res) => {
    const body = parseBody(LoginBody, req.body);
    // Emails are unique per tenant group only; the password decides which account is meant.
    const candidates = await db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users u WHERE lower(u.email) = lower($1) ORDER BY u.id`,
      [body.username],
    );
    let user: UserRow | undefined;
    for (const candidate of candidates) {
      if (await verifyPassword(body.password, candidate.password_hash)) {
        user = candidate;
        break;
      }
    }
    if (candidates.length === 0) await burnPasswordCheck(body.password);
    if (user?.status === 'disabled') {
      // Said only to whoever knows the password: they learn nothing a stranger could use, and
      // are not sent hunting for a typo in a password that is right.
      throw new HttpError(403, 'user_disabled', 'this account is disabled');
    }
    if (!user || user.status !== 'active') throw invalidCredentials();
    const tenantId = await landingTenant(db, user);
    if (tenantId === null) throw invalidCredentials();
    if (user.must_change_password) {
      const challenge = await createCode(
        db,
        deps.clock,
        'password_change',
        user.id,
        tenantId,
        CHALLENGE_TTL_SECONDS,
      );
      res.status(200).json({ newPasswordRequired: true, challenge });
      return;
    }
    await issueSession(deps, res, user.id, tenantId);
  });

  router.post('/refresh-token', async (req, res) => {
    const body = parseBody(UsernameBody, req.body);
    const now = new Date(deps.clock.now());
    const current = await findRefresh(db, req, now);
    if (!current || !sameEmail(current.email, body.username)) {
      throw await refreshRefusal(db, req, body.username, now);
    }
    const [alive] = await db.query(
      `SELECT 1 FROM users u JOIN tenant_users tu ON tu.user_id = u.id
         JOIN tenants t ON t.id = tu.tenant_id
        WHERE u.id = $1 AND t.id = $2 AND u.status = 'active' AND NOT t.is_disabled`,
      [current.user_id, current.tenant_id],
    );
    if (!alive) throw await refreshRefusal(db, req, body.username, now);
    // Rotation: the old cookie dies now, so a stolen copy used later is rejected.
    if (!(await revokeRefresh(db, current.id))) throw invalidRefresh();
    await issueSession(deps, res, current.user_id, current.tenant_id, current.session_id);
  });

  router.post('/logout', async (req, res) => {
    parseBody(UsernameBody, req.body);
    const current = await findRefresh(db, req, new Date(deps.clock.now()));
    if (current) await revokeRefresh(db, current.id);
    clearRefreshCookie(res);
    res.status(204).end();
  });

  router.post('/change-password', async (req, res) => {
    const raw = (req.body ?? {}) as Record<string, unknown>;
    if (typeof raw === 'object' && raw !== null && 'challenge' in raw) {
      const body = parseBody(ForcedChangeBody, raw);
      if (!passwordMeetsRules(body.newPassword)) {
        throw new HttpError(400, 'invalid_password', 'min 8 characters, upper, lower and digit');
      }
      const hash = await hashPassword(body.newPassword);
      const target = await db.transaction(async (tx) => {
        const code = await consumeCode(tx, deps.clock, 'password_change', body.challenge);
        if (!code) return null;
        const [current] = await tx.query<{ password_hash: string | null }>(
          'SELECT password_hash FROM users WHERE id = $1',
          [code.user_id],
        );
        // A forced change that keeps the password changes nothing; the throw also rolls the
        // challenge back, so the user can try another password.
        if (await verifyPassword(body.newPassword, current?.password_hash ?? null)) {
          throw passwordUnchanged();
        }
        const [user] = await tx.query<{ id: number }>(
          `UPDATE users SET password_hash = $1, must_change_password = false, updated_at = now(),
                  updated_by = code
            WHERE id = $2 AND lower(email) = lower($3) AND status = 'active' RETURNING id`,
          [hash, code.user_id, body.username],
        );
        return user ? code : null;
      });
      if (!target)
        throw new HttpError(401, 'invalid_challenge', 'challenge unknown, used or expired');
      await issueSession(deps, res, target.user_id, target.tenant_id);
      return;
    }
    const body = parseBody(SignedInChangeBody, raw);
    const token = bearerFrom(req);
    const auth = token ? await resolveToken(db, signer, token) : null;
    if (!auth) throw new HttpError(401, 'unauthorized', 'invalid or expired token');
    if (!sameEmail(auth.email, body.username)) throw new HttpError(403, 'forbidden', 'not you');
    const [user] = await db.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [auth.userId],
    );
    if (!(await verifyPassword(body.oldPassword, user?.password_hash ?? null))) {
      throw new HttpError(400, 'invalid_old_password', 'the current password is wrong');
    }
    if (!passwordMeetsRules(body.newPassword)) {
      throw new HttpError(400, 'invalid_password', 'min 8 characters, upper, lower and digit');
    }
    if (body.newPassword === body.oldPassword) throw passwordUnchanged();
    await db.query(
      `UPDATE users SET password_hash = $1, must_change_password = false, updated_at = now(),
              updated_by = code WHERE id = $2`,
      [await hashPassword(body.newPassword), auth.userId],
    );
    res.status(204).end();
  });

  router.get('/workspaces', async (req, res) => {
    const token = bearerFrom(req);
    const auth = token ? await resolveToken(db, signer, token) : null;
    if (!auth) throw new HttpError(401, 'unauthorized', 'invalid or expired token');
    const rows = await db.query<{
      name: string;
      slug: string;
      tenant_name: string;
      is_default: boolean;
      is_disabled: boolean;
    }>(
      `SELECT t.name, t.slug, g.name AS tenant_name, t.is_default, t.is_disabled
         FROM tenant_users tu
         JOIN tenants t ON t.id = tu.tenant_id
         JOIN tenant_groups g ON g.id = t.tenant_group_id
        WHERE tu.user_id = $1 AND t.tenant_group_id = $2
        ORDER BY t.is_default DESC, t.id`,
      [auth.userId, auth.tenantGroupId],
    );
    res.json({
      workspaces: rows.map((r) => ({
        name: r.name,
        slug: r.slug,
        tenantName: r.tenant_name,
        isDefault: r.is_default,
        isDisabled: r.is_disabled,
      })),
    });
  });

  router.post('/workspaces/switch', async (req, res) => {
    const token = bearerFrom(req);
    const auth = token ? await resolveToken(db, signer, token) : null;
    if (!auth) throw new HttpError(401, 'unauthorized', 'invalid or expired token');
    const body = parseBody(SwitchBody, req.body);
    const forbidden = new HttpError(403, 'forbidden', 'workspace not available');
    if (!sameEmail(auth.email, body.username)) throw forbidden;
    const [target] = await db.query<{ id: number }>(
      `SELECT t.id FROM tenants t JOIN tenant_users tu ON tu.tenant_id = t.id
        WHERE t.slug = $1 AND tu.user_id = $2 AND t.tenant_group_id = $3 AND NOT t.is_disabled`,
      [body.targetWorkspace, auth.userId, auth.tenantGroupId],
    );
    if (!target) throw forbidden;
    // The refresh token follows the workspace; the old one is retired with the old workspace.
    const current = await findRefresh(db, req, new Date(deps.clock.now()));
    const same = current && current.user_id === auth.userId ? current : null;
    if (same) await revokeRefresh(db, same.id);
    await issueSession(deps, res, auth.userId, target.id, same?.session_id ?? null);
  });

  router.get('/saml-login-link', async (req, res) => {
    const slug = typeof req.query.tenantSlug === 'string' ? req.query.tenantSlug.trim() : '';
    if (!slug) throw new HttpError(400, 'invalid_query', 'tenantSlug is required');
    const [tenant] = await db.query<{ slug: string }>(
      'SELECT slug FROM tenants WHERE slug = $1 AND NOT is_disabled',
      [slug],
    );
    if (!tenant) throw new HttpError(404, 'not_found', 'tenant not found');
    // The link would lead to a page that does not exist: no single sign-on, as for a tenant
    // without an identity provider.
    if (!deps.tools) throw new HttpError(404, 'not_found', 'no single sign-on for this tenant');
    res.json({ url: `/sandbox-idp/login?tenantSlug=${encodeURIComponent(tenant.slug)}` });
  });

  router.post('/login/saml', async (req, res) => {
    const body = parseBody(SamlLoginBody, req.body);
    const unauthorized = new HttpError(401, 'UNAUTHORIZED', 'code unknown, used or expired');
    const target = await db.transaction(async (tx) => {
      const code = await consumeCode(tx, deps.clock, 'saml', body.code);
      if (!code) return null;
      const [ok] = await tx.query(
        `SELECT 1 FROM tenants t JOIN tenant_users tu ON tu.tenant_id = t.id
           JOIN users u ON u.id = tu.user_id
          WHERE t.id = $1 AND t.slug = $2 AND u.id = $3 AND u.status = 'active'
            AND NOT t.is_disabled`,
        [code.tenant_id, body.tenantSlug, code.user_id],
      );
      return ok ? code : null;
    });
    if (!target) throw unauthorized;
    await issueSession(deps, res, target.user_id, target.tenant_id);
  });

  return router;
}
