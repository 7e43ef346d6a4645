import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import type { Clock } from '#common/clock.ts';
import {
  RequiredActionsBody,
  UserCreateBody,
  UserUpdateBody,
  type UserSession,
} from '#common/contracts/tenant.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { recordChange, writeAudited } from '#server/sandbox/platform/audit-trail.ts';
import { randomToken, sha256, type TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { HttpError, notFound } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import {
  INVITE_TTL_SECONDS,
  RESET_TTL_SECONDS,
  assertGrantable,
  resolveRoles,
} from '#server/sandbox/platform/admin-shared.ts';
import { sendTenantMail } from '#server/sandbox/services/notification/index.ts';
import {
  ACCESS_CHANGED,
  type NotificationHub,
} from '#server/sandbox/services/notification/index.ts';
import { USER_SELECT, presentUsers, type UserRow } from './tenant-routes.ts';
import { newUserCode } from './seed.ts';

/*
 * The user page of issue 16 (what a Keycloak administrator expects in one place): edit name and
 * e-mail on top of a version, create a user directly, send a password reset, list and end the
 * user's sign-in sessions (docs/decisions/007-user-sessions.md), and the required action "change
 * password at the next sign-in", which the sign-in's existing forced-change step carries out.
 * Everything is scoped to the caller's workspace: a user of another one is a 404.
 */

const USERS_VIEW = 'tenant-management.users.view';
const USERS_CREATE = 'tenant-management.users.create';
const USERS_UPDATE = 'tenant-management.users.update';

const emailTaken = () =>
  new HttpError(409, 'email_taken', 'another user has this e-mail address', undefined, [
    { path: 'email', code: 'email_taken' },
  ]);

/**
 * Reset links an administrator sends: as the self-service one, but a new user gets a week. In the
 * user's own language (the tenant's for a new user), the link absolute like every sandbox e-mail.
 */
async function sendPasswordLink(
  tx: Queryable,
  clock: Clock,
  publicBaseUrl: string,
  user: { id: number; email: string },
  tenantId: number,
  kind: 'reset' | 'welcome',
): Promise<void> {
  const token = randomToken();
  const ttlSeconds = kind === 'welcome' ? INVITE_TTL_SECONDS : RESET_TTL_SECONDS;
  await tx.query(
    `INSERT INTO password_reset_tokens (tenant_id, user_id, token_hash, expires_at)
     VALUES ($1, $2, $3, $4)`,
    [tenantId, user.id, sha256(token), new Date(clock.now() + ttlSeconds * 1000)],
  );
  await sendTenantMail(tx, {
    tenantId,
    userId: user.id,
    to: user.email,
    kind: kind === 'welcome' ? 'welcome' : 'adminPasswordReset',
    path: `/account/resetpassword?resetToken=${token}`,
    publicBaseUrl,
  });
}

async function emailInUse(
  db: Queryable,
  groupId: number,
  email: string,
  except: number | null,
): Promise<boolean> {
  const [row] = await db.query(
    `SELECT 1 FROM users WHERE tenant_group_id = $1 AND lower(email) = lower($2)
        AND ($3::int IS NULL OR id <> $3)`,
    [groupId, email, except],
  );
  return row !== undefined;
}

export function userPageRouter(deps: {
  db: Db;
  signer: TokenSigner;
  hub: NotificationHub;
  clock: Clock;
  publicBaseUrl: string;
}): Router {
  const { db, clock, publicBaseUrl } = deps;
  const router = Router();
  router.use(requireAuth(db, deps.signer));
  const now = () => new Date(clock.now());
  /** Who did it, for the user's history (the same trail as the other user writes). */
  const who = (auth: AuthContext) => ({ auth, clock });
  /** A user's name and e-mail as the history compares them, in the presented record's names. */
  const nameOf = (u: { first_name: string; last_name: string; email: string }) => ({
    firstName: u.first_name,
    lastName: u.last_name,
    email: u.email,
  });

  async function findUser(tenantId: number, idText: string): Promise<UserRow> {
    if (!/^\d{1,9}$/.test(idText)) throw notFound('user');
    const [user] = await db.query<UserRow>(`${USER_SELECT} WHERE tu.tenant_id = $1 AND u.id = $2`, [
      tenantId,
      Number(idText),
    ]);
    if (!user) throw notFound('user');
    return user;
  }

  async function present(auth: AuthContext, userId: number) {
    const [user] = await presentUsers(
      db,
      auth.tenantId,
      auth.tenantSlug,
      [await findUser(auth.tenantId, String(userId))],
      true,
    );
    return user;
  }

  router.post('/users', requirePermission(USERS_CREATE), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(UserCreateBody, req.body);
    const roles = await resolveRoles(db, auth.tenantId, body);
    assertGrantable(
      auth.permissions,
      roles.flatMap((r) => r.permissions),
    );
    if (await emailInUse(db, auth.tenantGroupId, body.email, null)) throw emailTaken();
    const userId = await db.transaction(async (tx) => {
      // No password: the user sets one through the e-mailed link (until then no sign-in works).
      const code = newUserCode();
      const [created] = await tx.query<{ id: number }>(
        `INSERT INTO users (tenant_group_id, tenant_id, code, sub, email, first_name, last_name,
                            status, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $8) RETURNING id`,
        [
          auth.tenantGroupId,
          auth.tenantId,
          code,
          randomUUID(),
          body.email,
          body.firstName,
          body.lastName,
          auth.userCode,
        ],
      );
      if (!created) throw new Error('user not created');
      await tx.query('INSERT INTO tenant_users (tenant_id, user_id) VALUES ($1, $2)', [
        auth.tenantId,
        created.id,
      ]);
      await tx.query(
        'INSERT INTO user_roles (tenant_id, user_id, role_id) SELECT $1, $2, unnest($3::int[])',
        [auth.tenantId, created.id, roles.map((r) => r.id)],
      );
      await sendPasswordLink(
        tx,
        clock,
        publicBaseUrl,
        { id: created.id, email: body.email },
        auth.tenantId,
        'welcome',
      );
      // A creation lists what it was made with: the history is where "who made this" is read.
      await recordChange(tx, who(auth), {
        entityType: 'user',
        entityId: code,
        action: 'created',
        changes: [
          ...Object.entries({
            firstName: body.firstName,
            lastName: body.lastName,
            email: body.email,
          }).map(([field, after]) => ({ field, before: null, after })),
          { field: 'roles', before: null, after: roles.map((r) => r.label).sort() },
        ],
      });
      return created.id;
    });
    res.status(201).json({ user: await present(auth, userId) });
  });

  router.put('/users/:id', requirePermission(USERS_UPDATE), async (req, res) => {
    const auth = getAuth(res);
    const user = await findUser(auth.tenantId, String(req.params.id));
    const body = parseBody(UserUpdateBody, req.body);
    if (await emailInUse(db, auth.tenantGroupId, body.email, user.id)) throw emailTaken();
    // The version compare is in the UPDATE, so two saves of one version cannot both pass.
    const updated = await writeAudited(
      db,
      who(auth),
      (tx) =>
        tx.query<{ first_name: string; last_name: string; email: string }>(
          `UPDATE users SET first_name = $1, last_name = $2, email = $3, version = version + 1,
                  updated_at = $4, updated_by = $5
            WHERE id = $6 AND version = $7 RETURNING first_name, last_name, email`,
          [body.firstName, body.lastName, body.email, now(), auth.userCode, user.id, body.version],
        ),
      ([row]) =>
        row && {
          entityType: 'user',
          entityId: user.code,
          action: 'updated',
          before: nameOf(user),
          after: nameOf(row),
        },
    );
    if (!updated.length) {
      throw new HttpError(409, 'version_conflict', 'somebody else changed this user', {
        user: await present(auth, user.id),
      });
    }
    res.json({ user: await present(auth, user.id) });
  });

  router.post('/users/:id/reset-password', requirePermission(USERS_UPDATE), async (req, res) => {
    const auth = getAuth(res);
    const user = await findUser(auth.tenantId, String(req.params.id));
    if (user.status !== 'active') {
      throw new HttpError(409, 'user_not_active', 'only an active user can reset a password');
    }
    await db.transaction(async (tx) => {
      await sendPasswordLink(tx, clock, publicBaseUrl, user, auth.tenantId, 'reset');
      await recordChange(tx, who(auth), {
        entityType: 'user',
        entityId: user.code,
        action: 'password_reset_sent',
      });
    });
    res.status(204).end();
  });

  router.put('/users/:id/required-actions', requirePermission(USERS_UPDATE), async (req, res) => {
    const auth = getAuth(res);
    const user = await findUser(auth.tenantId, String(req.params.id));
    const body = parseBody(RequiredActionsBody, req.body);
    // The sign-in asks for a new password before anything else (auth-routes' password_change).
    // Setting what is already set records nothing (recordChange skips an update without changes).
    await writeAudited(
      db,
      who(auth),
      (tx) =>
        tx.query(
          `UPDATE users SET must_change_password = $1, updated_at = $2, updated_by = $3
            WHERE id = $4`,
          [body.changePassword, now(), auth.userCode, user.id],
        ),
      () => ({
        entityType: 'user',
        entityId: user.code,
        action: 'required_actions_changed',
        before: { mustChangePassword: user.must_change_password },
        after: { mustChangePassword: body.changePassword },
      }),
    );
    res.json({ user: await present(auth, user.id) });
  });

  router.get('/users/:id/sessions', requirePermission(USERS_VIEW), async (req, res) => {
    const auth = getAuth(res);
    const user = await findUser(auth.tenantId, String(req.params.id));
    const rows = await db.query<{
      id: string;
      started_at: Date;
      last_refresh_at: Date;
      slug: string;
    }>(
      // A session lives while it has a refresh token that is neither revoked nor expired; the
      // sessions of the user's other workspaces are theirs to see, not this one's.
      `SELECT s.id, s.started_at, max(rt.created_at) AS last_refresh_at, t.slug
         FROM auth_sessions s
         JOIN tenants t ON t.id = s.tenant_id
         JOIN refresh_tokens rt ON rt.session_id = s.id
        WHERE s.user_id = $1 AND s.tenant_id = $2 AND s.ended_at IS NULL
          AND rt.revoked_at IS NULL AND rt.expires_at > $3
        GROUP BY s.id, t.slug
        ORDER BY s.started_at DESC`,
      [user.id, auth.tenantId, now()],
    );
    const items: UserSession[] = rows.map((r) => ({
      id: r.id,
      startedAt: new Date(r.started_at).toISOString(),
      lastRefreshAt: new Date(r.last_refresh_at).toISOString(),
      workspace: r.slug,
    }));
    res.json({ items });
  });

  router.delete('/users/:id/sessions/:sid', requirePermission(USERS_UPDATE), async (req, res) => {
    const auth = getAuth(res);
    const user = await findUser(auth.tenantId, String(req.params.id));
    const sid = String(req.params.sid);
    if (!/^[0-9a-f-]{36}$/.test(sid)) throw notFound('session');
    const ended = await db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE auth_sessions SET ended_at = $1, ended_by = $2
          WHERE id = $3 AND user_id = $4 AND tenant_id = $5 AND ended_at IS NULL RETURNING id`,
        [now(), auth.userCode, sid, user.id, auth.tenantId],
      );
      // Its refresh tokens die with it; its access tokens through auth_sessions (resolveToken).
      await tx.query(
        'UPDATE refresh_tokens SET revoked_at = now() WHERE session_id = $1 AND revoked_at IS NULL',
        [sid],
      );
      if (rows.length) {
        await recordChange(tx, who(auth), {
          entityType: 'user',
          entityId: user.code,
          action: 'session_ended',
        });
      }
      return rows.length > 0;
    });
    if (!ended) throw notFound('session');
    // The signed-out browser learns it at once rather than at its next call.
    deps.hub.publishToUsers(auth.tenantId, [user.id], ACCESS_CHANGED);
    res.status(204).end();
  });

  return router;
}
