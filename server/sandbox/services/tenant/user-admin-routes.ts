import { sendTenantMail } from '#server/sandbox/services/notification/index.ts';
import { Router } from 'express';
import type { Clock } from '#common/clock.ts';
import { storedLabels, type NameLabels } from '#common/name-labels.ts';
import {
  changesBetween,
  historyPage,
  recordChange,
  type AuditEvent,
} from '#server/sandbox/platform/audit-trail.ts';
import {
  AssignRolesBody,
  BatchBody,
  InviteBatchBody,
  RoleBody,
  RoleUpdateBody,
} from '#common/contracts/tenant.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { randomToken, sha256, type TokenSigner } from '#server/sandbox/platform/crypto.ts';
import {
  ACCESS_CHANGED,
  type NotificationHub,
} from '#server/sandbox/services/notification/index.ts';
import { HttpError, notFound } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import {
  USER_SELECT,
  presentUsers,
  rolesWithPermissions,
  type RoleRow,
  type UserRow,
} from './tenant-routes.ts';
import { assertGrantable, newCode, resolveRoles } from '#server/sandbox/platform/admin-shared.ts';
import { equalsIgnoringCase, numeric, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { audit, type Audit } from '#server/sandbox/platform/records.ts';
import * as invitations from './invitations.ts';
import { assertAdministratorLeft, LAST_ADMINISTRATOR } from './administrators.ts';

const USERS_VIEW = 'tenant-management.users.view';
const USERS_CREATE = 'tenant-management.users.create';
const USERS_UPDATE = 'tenant-management.users.update';
const USERS_DELETE = 'tenant-management.users.delete';

const numericId = (text: string, what: string): number => {
  if (!/^\d{1,9}$/.test(text)) throw notFound(what);
  return Number(text);
};

type UserAction = 'delete' | 'disable' | 'enable';

/** Ends every session of a user in one workspace; the access token dies with the membership. */
async function revokeSessions(tx: Queryable, userId: number, tenantId?: number): Promise<void> {
  await tx.query(
    `UPDATE refresh_tokens SET revoked_at = now()
      WHERE user_id = $1 AND revoked_at IS NULL AND ($2::int IS NULL OR tenant_id = $2)`,
    [userId, tenantId ?? null],
  );
}

/**
 * One user action, shared by the single and the batch endpoints. Returns an error code instead of
 * throwing, so that a batch reports per id.
 */
async function applyUserAction(
  db: Db,
  auth: AuthContext,
  action: UserAction,
  userId: number,
  clock: Clock,
): Promise<string | null> {
  const [member] = await db.query<{ id: number }>(
    'SELECT user_id AS id FROM tenant_users WHERE tenant_id = $1 AND user_id = $2',
    [auth.tenantId, userId],
  );
  if (!member) return 'not_found';
  if (action !== 'enable' && userId === auth.userId) return `cannot_${action}_self`;
  try {
    await changeUser(db, auth, action, userId, clock);
  } catch (error) {
    if (error instanceof HttpError && error.code === LAST_ADMINISTRATOR) return LAST_ADMINISTRATOR;
    throw error;
  }
  return null;
}

/** The history's entry of a user action, written before the action (a deleted row is gone). */
async function userEvent(tx: Queryable, userId: number, action: UserAction): Promise<AuditEvent> {
  const [user] = await tx.query<{ code: string; status: string; name: string }>(
    `SELECT code, status, coalesce(nullif(trim(first_name || ' ' || last_name), ''), email) AS name
       FROM users WHERE id = $1`,
    [userId],
  );
  const status = { delete: 'removed', enable: 'active', disable: 'disabled' }[action];
  return {
    entityType: 'user',
    entityId: user!.code,
    entityLabel: user!.name,
    action: { delete: 'removed', enable: 'enabled', disable: 'disabled' }[action],
    changes: [{ field: 'status', before: user!.status, after: status }],
  };
}

async function changeUser(
  db: Db,
  auth: AuthContext,
  action: UserAction,
  userId: number,
  clock: Clock,
): Promise<void> {
  await db.transaction(async (tx) => {
    await recordChange(tx, { auth, clock }, await userEvent(tx, userId, action));
    if (action === 'delete') {
      // Deleting removes the user from this workspace; the account itself goes with its last one.
      await tx.query('DELETE FROM user_roles WHERE tenant_id = $1 AND user_id = $2', [
        auth.tenantId,
        userId,
      ]);
      await tx.query('DELETE FROM tenant_users WHERE tenant_id = $1 AND user_id = $2', [
        auth.tenantId,
        userId,
      ]);
      await revokeSessions(tx, userId, auth.tenantId);
      await assertAdministratorLeft(tx, auth.tenantId);
      const [other] = await tx.query<{ tenant_id: number }>(
        'SELECT tenant_id FROM tenant_users WHERE user_id = $1 ORDER BY tenant_id LIMIT 1',
        [userId],
      );
      if (other) {
        await tx.query('UPDATE users SET tenant_id = $1 WHERE id = $2 AND tenant_id = $3', [
          other.tenant_id,
          userId,
          auth.tenantId,
        ]);
      } else {
        await tx.query('DELETE FROM user_roles WHERE user_id = $1', [userId]);
        await tx.query('DELETE FROM refresh_tokens WHERE user_id = $1', [userId]);
        await tx.query('DELETE FROM auth_sessions WHERE user_id = $1', [userId]);
        await tx.query('DELETE FROM one_time_codes WHERE user_id = $1', [userId]);
        await tx.query('DELETE FROM users WHERE id = $1', [userId]);
      }
      return;
    }
    await tx.query(
      'UPDATE users SET status = $1, updated_at = now(), updated_by = $2 WHERE id = $3',
      [action === 'enable' ? 'active' : 'disabled', auth.userCode, userId],
    );
    // The status is account-wide, so a disabled user loses the sessions of every workspace.
    if (action === 'disable') {
      await revokeSessions(tx, userId);
      await assertAdministratorLeft(tx, auth.tenantId);
    }
  });
}

interface InviteRow extends Audit {
  id: number;
  code: string;
  email: string;
  organization_id: number | null;
  expires_at: Date;
  metadata: unknown;
}

async function presentInvites(
  db: Queryable,
  tenantId: number,
  rows: InviteRow[],
  expand: Set<string>,
  clock: Clock,
) {
  const rolesOf = expand.has('roles')
    ? await invitations.rolesOfInvitations(db, invitations.USER_INVITES, tenantId, rows)
    : null;
  const orgIds = [...new Set(rows.map((r) => r.organization_id).filter((id) => id !== null))];
  const orgs =
    expand.has('organization') && orgIds.length
      ? await db.query<{ id: number; code: string; name: string }>(
          'SELECT id, code, name FROM organizations WHERE tenant_id = $1 AND id = ANY($2::int[])',
          [tenantId, orgIds],
        )
      : [];
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    email: r.email,
    organizationId: r.organization_id,
    ...(expand.has('organization')
      ? { organization: orgs.find((o) => o.id === r.organization_id) ?? null }
      : {}),
    ...(rolesOf ? { roles: rolesOf(r.id) } : {}),
    expiresOn: r.expires_at,
    isExpired: invitations.isExpired(r.expires_at, clock),
    metadata: r.metadata ?? null,
    ...audit(r),
  }));
}

const INVITE_LIST: ListSource = {
  filters: {
    id: numeric('id', 'id must be numeric'),
    email: equalsIgnoringCase('email'),
    organizationId: numeric('organization_id', 'organizationId must be numeric'),
  },
  search: ['email'],
  orders: { id: 'id', email: 'lower(email)', expiresOn: 'expires_at' },
  defaultOrder: ['id', 'ASC'],
  unique: 'id',
  expands: ['roles', 'organization', 'organizations'],
};

const INVITE_COLUMNS = `id, code, email, organization_id, expires_at, metadata, created_at, updated_at,
  created_by, updated_by`;

/**
 * The activity log's entry of a user invitation sent or withdrawn: the invitation's address is
 * its name (there is no user yet), with the roles it grants on sending.
 */
function inviteEvent(
  action: 'sent' | 'revoked',
  invite: { code: string; email: string },
  roles: readonly { code: string }[] = [],
): AuditEvent {
  const sent = action === 'sent';
  return {
    entityType: 'user_invitation',
    entityId: invite.code,
    entityLabel: invite.email,
    action,
    changes: [
      { field: 'email', before: sent ? null : invite.email, after: sent ? invite.email : null },
      ...(sent && roles.length
        ? [{ field: 'roles', before: null, after: roles.map((r) => r.code) }]
        : []),
    ],
  };
}

/** Deletes open or expired invitations of the workspace, each with its entry in the log. */
async function deleteInvites(
  db: Db,
  auth: AuthContext,
  clock: Clock,
  ids: readonly number[],
): Promise<Set<number>> {
  return db.transaction(async (tx) => {
    const deleted = await tx.query<{ id: number; code: string; email: string }>(
      'DELETE FROM invites WHERE tenant_id = $1 AND id = ANY($2::int[]) RETURNING id, code, email',
      [auth.tenantId, ids],
    );
    for (const invite of deleted) {
      await recordChange(tx, { auth, clock }, inviteEvent('revoked', invite));
    }
    return new Set(deleted.map((d) => d.id));
  });
}

export async function organizationInTenant(
  db: Queryable,
  tenantId: number,
  organizationId: number | null | undefined,
): Promise<{ id: number; name: string } | null> {
  if (organizationId === null || organizationId === undefined) return null;
  const [org] = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM organizations WHERE tenant_id = $1 AND id = $2',
    [tenantId, organizationId],
  );
  if (!org) throw new HttpError(400, 'unknown_organization', 'no such organisation');
  return org;
}

export function userAdminRouter(deps: {
  db: Db;
  signer: TokenSigner;
  hub: NotificationHub;
  clock: Clock;
  publicBaseUrl: string;
}): Router {
  const { db, clock } = deps;
  // The user's browser refreshes its session at once instead of at the next token expiry.
  const tellUsers = (tenantId: number, userIds: Iterable<number>) =>
    deps.hub.publishToUsers(tenantId, userIds, ACCESS_CHANGED);
  const router = Router();
  router.use(requireAuth(db, deps.signer));

  async function findUser(tenantId: number, idText: string): Promise<UserRow> {
    const [user] = await db.query<UserRow>(`${USER_SELECT} WHERE tu.tenant_id = $1 AND u.id = $2`, [
      tenantId,
      numericId(idText, 'user'),
    ]);
    if (!user) throw notFound('user');
    return user;
  }

  // --- invites (before /users/:id so that "invites" is never taken for an id) ---

  router.get(
    '/users/invites',
    requirePermission(USERS_VIEW),
    invitations.openInvitationsRoute<InviteRow>(
      db,
      invitations.USER_INVITES,
      INVITE_LIST,
      INVITE_COLUMNS,
      (tenantId, rows, asked) => {
        // `organizations` is an older name of the `organization` expand.
        const expand = new Set(asked);
        if (expand.has('organizations')) expand.add('organization');
        return presentInvites(db, tenantId, rows, expand, clock);
      },
    ),
  );

  router.post('/users/invites/batch', requirePermission(USERS_CREATE), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(InviteBatchBody, req.body);
    const roles = await invitations.grantableRoles(db, auth, body);
    const org = await organizationInTenant(db, auth.tenantId, body.organizationId);
    const results: { email: string; ok: boolean; invite?: unknown; error?: string }[] = [];
    const seen = new Set<string>();
    for (const email of body.emails) {
      const key = email.toLowerCase();
      if (seen.has(key)) {
        results.push({ email, ok: false, error: 'duplicate' });
        continue;
      }
      seen.add(key);
      const [member] = await db.query(
        `SELECT 1 FROM users u JOIN tenant_users tu ON tu.user_id = u.id
          WHERE tu.tenant_id = $1 AND lower(u.email) = $2 AND u.status <> 'invited'`,
        [auth.tenantId, key],
      );
      if (member) {
        results.push({ email, ok: false, error: 'already_member' });
        continue;
      }
      const [pending] = await db.query(
        `SELECT 1 FROM invites WHERE tenant_id = $1 AND lower(email) = $2 AND used_at IS NULL
            AND expires_at > $3`,
        [auth.tenantId, key, new Date(clock.now())],
      );
      if (pending) {
        results.push({ email, ok: false, error: 'already_invited' });
        continue;
      }
      const token = randomToken();
      const row = await db.transaction(async (tx) => {
        const [invite] = await tx.query<InviteRow>(
          `INSERT INTO invites (tenant_id, code, email, organization_id, token_hash, expires_at,
                                metadata, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
           RETURNING ${INVITE_COLUMNS}`,
          [
            auth.tenantId,
            newCode('inv'),
            email,
            org?.id ?? null,
            sha256(token),
            invitations.expiryFrom(clock),
            body.metadata ? JSON.stringify(body.metadata) : null,
            auth.userCode,
          ],
        );
        if (!invite) throw new Error('invite not created');
        await invitations.linkRoles(tx, invitations.USER_INVITES, auth.tenantId, invite.id, roles);
        await recordChange(tx, { auth, clock }, inviteEvent('sent', invite, roles));
        await sendTenantMail(tx, {
          tenantId: auth.tenantId,
          to: email,
          kind: 'userInvitation',
          ...(org ? { name: org.name } : {}),
          path: `/registration?token=${token}`,
          publicBaseUrl: deps.publicBaseUrl,
        });
        return invite;
      });
      const [invite] = await presentInvites(
        db,
        auth.tenantId,
        [row],
        new Set(['roles', 'organization']),
        clock,
      );
      results.push({ email, ok: true, invite });
    }
    res.json({ results });
  });

  router.post('/users/invites/delete-batch', requirePermission(USERS_DELETE), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(BatchBody, req.body);
    const gone = await deleteInvites(db, auth, clock, body.ids);
    res.json({
      results: [...new Set(body.ids)].map((id) =>
        gone.has(id) ? { id, ok: true } : { id, ok: false, error: 'not_found' },
      ),
    });
  });

  router.delete('/users/invites/:id', requirePermission(USERS_DELETE), async (req, res) => {
    const auth = getAuth(res);
    const idText = String(req.params.id);
    if (!/^\d{1,9}$/.test(idText)) throw notFound('invite');
    const gone = await deleteInvites(db, auth, clock, [Number(idText)]);
    if (!gone.size) throw notFound('invite');
    res.status(204).end();
  });

  // --- batch user actions ---

  for (const action of ['delete', 'disable', 'enable'] as const) {
    router.post(
      `/users/${action}-batch`,
      requirePermission(action === 'delete' ? USERS_DELETE : USERS_UPDATE),
      async (req, res) => {
        const auth = getAuth(res);
        const body = parseBody(BatchBody, req.body);
        const results: { id: number; ok: boolean; error?: string }[] = [];
        for (const id of new Set(body.ids)) {
          const error = await applyUserAction(db, auth, action, id, clock);
          results.push(error ? { id, ok: false, error } : { id, ok: true });
        }
        tellUsers(
          auth.tenantId,
          results.filter((r) => r.ok).map((r) => r.id),
        );
        res.json({ results });
      },
    );
  }

  router.delete('/users/:id', requirePermission(USERS_DELETE), async (req, res) => {
    const auth = getAuth(res);
    const user = await findUser(auth.tenantId, String(req.params.id));
    const error = await applyUserAction(db, auth, 'delete', user.id, clock);
    if (error === 'not_found') throw notFound('user');
    if (error === LAST_ADMINISTRATOR) {
      throw new HttpError(409, error, 'the workspace would be left without an administrator');
    }
    if (error) throw new HttpError(400, error, 'you cannot delete your own user');
    tellUsers(auth.tenantId, [user.id]);
    res.status(204).end();
  });

  router.post('/users/:id/assign-roles', requirePermission(USERS_UPDATE), async (req, res) => {
    const auth = getAuth(res);
    const user = await findUser(auth.tenantId, String(req.params.id));
    const body = parseBody(AssignRolesBody, req.body);
    if (body.userId !== undefined && body.userId !== user.id) {
      throw new HttpError(400, 'validation_error', 'userId does not match the path');
    }
    if (body.roleIds === undefined && body.roleCodes === undefined) {
      throw new HttpError(400, 'validation_error', 'roleIds or roleCodes required');
    }
    const wanted = await resolveRoles(db, auth.tenantId, body);
    const current = await db.query<{ role_id: number }>(
      'SELECT role_id FROM user_roles WHERE tenant_id = $1 AND user_id = $2',
      [auth.tenantId, user.id],
    );
    const currentIds = new Set(current.map((c) => c.role_id));
    const wantedIds = new Set(wanted.map((r) => r.id));
    const added = wanted.filter((r) => !currentIds.has(r.id));
    const removedIds = [...currentIds].filter((id) => !wantedIds.has(id));
    const removed = await resolveRoles(db, auth.tenantId, { roleIds: removedIds });
    // Taking a role away is as powerful as granting it (it could strip the only administrator).
    assertGrantable(
      auth.permissions,
      [...added, ...removed].flatMap((r) => r.permissions),
    );
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM user_roles WHERE tenant_id = $1 AND user_id = $2', [
        auth.tenantId,
        user.id,
      ]);
      await tx.query(
        `INSERT INTO user_roles (tenant_id, user_id, role_id) SELECT $1, $2, unnest($3::int[])`,
        [auth.tenantId, user.id, [...wantedIds]],
      );
      await assertAdministratorLeft(tx, auth.tenantId);
      await tx.query('UPDATE users SET updated_at = now(), updated_by = $1 WHERE id = $2', [
        auth.userCode,
        user.id,
      ]);
      const labels = (roles: { label: string }[]) => roles.map((r) => r.label).sort();
      await recordChange(
        tx,
        { auth, clock },
        {
          entityType: 'user',
          entityId: user.code,
          entityLabel: `${user.first_name} ${user.last_name}`.trim() || user.email,
          action: 'roles_changed',
          changes: [
            {
              field: 'roles',
              before: labels(await resolveRoles(tx, auth.tenantId, { roleIds: [...currentIds] })),
              after: labels(wanted),
            },
          ],
        },
      );
    });
    const [presented] = await presentUsers(
      db,
      auth.tenantId,
      auth.tenantSlug,
      [await findUser(auth.tenantId, String(user.id))],
      true,
    );
    tellUsers(auth.tenantId, [user.id]);
    res.json({ user: presented });
  });

  router.get('/users/:id/history', requirePermission(USERS_VIEW), async (req, res) => {
    const auth = getAuth(res);
    const user = await findUser(auth.tenantId, String(req.params.id));
    res.json(await historyPage(db, req, auth.tenantId, 'user', user.code));
  });

  router.get(
    '/users/:id/effective-permissions',
    requirePermission(USERS_VIEW),
    async (req, res) => {
      const auth = getAuth(res);
      const user = await findUser(auth.tenantId, String(req.params.id));
      const rows = await db.query<{ permission: string; code: string }>(
        `SELECT rp.permission, r.code
           FROM user_roles ur
           JOIN roles r ON r.id = ur.role_id
           JOIN role_permissions rp ON rp.role_id = r.id
          WHERE ur.tenant_id = $1 AND ur.user_id = $2
          ORDER BY rp.permission, r.code`,
        [auth.tenantId, user.id],
      );
      const byPermission = new Map<string, string[]>();
      for (const row of rows) {
        byPermission.set(row.permission, [...(byPermission.get(row.permission) ?? []), row.code]);
      }
      res.json({
        items: [...byPermission].map(([permission, roles]) => ({ permission, roles })),
      });
    },
  );

  // --- roles ---

  /**
   * A role as its history shows it: what an administrator edits, permissions sorted, and the
   * translations of its name and description (each language a field of the log: `labels.pl`,
   * `descriptionLabels.pl`).
   */
  const audited = (role: {
    label: string;
    labels?: NameLabels | null | undefined;
    description: string;
    descriptionLabels?: NameLabels | null | undefined;
    permissions: string[];
  }) => ({
    label: role.label,
    labels: storedLabels(role.labels ?? {}),
    description: role.description,
    descriptionLabels: storedLabels(role.descriptionLabels ?? {}),
    permissions: [...role.permissions].sort(),
  });
  type AuditedRole = ReturnType<typeof audited>;

  /** A created role lists what it grants, a removed one what it granted: the log keeps both. */
  const roleEvent = (
    action: string,
    code: string,
    before: AuditedRole | null,
    after: AuditedRole | null,
  ): AuditEvent => ({
    entityType: 'role',
    entityId: code,
    entityLabel: (after ?? before)?.label ?? code,
    action,
    before,
    after,
    ...(before && after
      ? {}
      : {
          changes: changesBetween(before, after),
        }),
  });

  async function findRole(tenantId: number, idText: string): Promise<RoleRow> {
    const [role] = await db.query<RoleRow>(
      `SELECT id, code, label, label_labels, description, description_labels, created_at, updated_at,
              created_by, updated_by
         FROM roles WHERE tenant_id = $1 AND id = $2`,
      [tenantId, numericId(idText, 'role')],
    );
    if (!role) throw notFound('role');
    return role;
  }

  async function presentRole(tenantId: number, id: number) {
    const role = await findRole(tenantId, String(id));
    const [presented] = await rolesWithPermissions(db, tenantId, [role]);
    return presented;
  }

  router.get(
    '/roles/:id',
    requirePermission('identity-management.roles.view'),
    async (req, res) => {
      const auth = getAuth(res);
      const role = await findRole(auth.tenantId, String(req.params.id));
      res.json({ role: await presentRole(auth.tenantId, role.id) });
    },
  );

  router.post('/roles', requirePermission('identity-management.roles.create'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(RoleBody, req.body);
    const permissions = [...new Set(body.permissions)];
    assertGrantable(auth.permissions, permissions);
    const [taken] = await db.query('SELECT 1 FROM roles WHERE tenant_id = $1 AND code = $2', [
      auth.tenantId,
      body.code,
    ]);
    if (taken) throw new HttpError(409, 'role_code_taken', 'a role with this code exists');
    const id = await db.transaction(async (tx) => {
      const [role] = await tx.query<{ id: number }>(
        `INSERT INTO roles (tenant_id, code, label, description, description_labels, label_labels,
                            created_by, updated_by)
         VALUES ($1, $2, $3, $4, $6, $7, $5, $5) RETURNING id`,
        [
          auth.tenantId,
          body.code,
          body.label,
          body.description,
          auth.userCode,
          JSON.stringify(storedLabels(body.descriptionLabels ?? {})),
          JSON.stringify(storedLabels(body.labels ?? {})),
        ],
      );
      if (!role) throw new Error('role not created');
      await tx.query(
        'INSERT INTO role_permissions (tenant_id, role_id, permission) SELECT $1, $2, unnest($3::text[])',
        [auth.tenantId, role.id, permissions],
      );
      await recordChange(tx, { auth, clock }, roleEvent('created', body.code, null, audited(body)));
      return role.id;
    });
    res.status(201).json({ role: await presentRole(auth.tenantId, id) });
  });

  async function permissionsOfRole(tenantId: number, roleId: number): Promise<string[]> {
    const rows = await db.query<{ permission: string }>(
      'SELECT permission FROM role_permissions WHERE tenant_id = $1 AND role_id = $2',
      [tenantId, roleId],
    );
    return rows.map((r) => r.permission);
  }

  router.put(
    '/roles/:id',
    requirePermission('identity-management.roles.update'),
    async (req, res) => {
      const auth = getAuth(res);
      const role = await findRole(auth.tenantId, String(req.params.id));
      const body = parseBody(RoleUpdateBody, req.body);
      if (body.code !== undefined && body.code !== role.code) {
        throw new HttpError(400, 'code_read_only', 'the code of a role cannot change');
      }
      const permissions = [...new Set(body.permissions)];
      // Editing a role you could not have created (e.g. stripping admin) is escalation too.
      assertGrantable(auth.permissions, [
        ...permissions,
        ...(await permissionsOfRole(auth.tenantId, role.id)),
      ]);
      const before = audited({
        ...role,
        labels: role.label_labels,
        descriptionLabels: role.description_labels,
        permissions: await permissionsOfRole(auth.tenantId, role.id),
      });
      // Left out of the body, the translations stay as they are (see the UPDATE).
      const after = audited({
        ...body,
        labels: body.labels ?? role.label_labels,
        descriptionLabels: body.descriptionLabels ?? role.description_labels,
        permissions,
      });
      await db.transaction(async (tx) => {
        await recordChange(tx, { auth, clock }, roleEvent('updated', role.code, before, after));
        await tx.query(
          `UPDATE roles SET label = $1, description = $2, updated_at = now(), updated_by = $3,
                  description_labels = coalesce($6, description_labels),
                  label_labels = coalesce($7, label_labels)
          WHERE id = $4 AND tenant_id = $5`,
          [
            body.label,
            body.description,
            auth.userCode,
            role.id,
            auth.tenantId,
            // Left out, the translations stay as they are.
            body.descriptionLabels ? JSON.stringify(storedLabels(body.descriptionLabels)) : null,
            body.labels ? JSON.stringify(storedLabels(body.labels)) : null,
          ],
        );
        await tx.query('DELETE FROM role_permissions WHERE tenant_id = $1 AND role_id = $2', [
          auth.tenantId,
          role.id,
        ]);
        await tx.query(
          'INSERT INTO role_permissions (tenant_id, role_id, permission) SELECT $1, $2, unnest($3::text[])',
          [auth.tenantId, role.id, permissions],
        );
        await assertAdministratorLeft(tx, auth.tenantId);
      });
      const holders = await db.query<{ user_id: number }>(
        'SELECT user_id FROM user_roles WHERE tenant_id = $1 AND role_id = $2',
        [auth.tenantId, role.id],
      );
      tellUsers(
        auth.tenantId,
        holders.map((h) => h.user_id),
      );
      res.json({ role: await presentRole(auth.tenantId, role.id) });
    },
  );

  router.delete(
    '/roles/:id',
    requirePermission('identity-management.roles.delete'),
    async (req, res) => {
      const auth = getAuth(res);
      const role = await findRole(auth.tenantId, String(req.params.id));
      assertGrantable(auth.permissions, await permissionsOfRole(auth.tenantId, role.id));
      const [used] = await db.query(
        'SELECT 1 FROM user_roles WHERE tenant_id = $1 AND role_id = $2',
        [auth.tenantId, role.id],
      );
      // Deleting a role in use would silently strip users of access; unassign it first.
      if (used) throw new HttpError(409, 'role_in_use', 'the role is still assigned to users');
      const before = audited({
        ...role,
        labels: role.label_labels,
        descriptionLabels: role.description_labels,
        permissions: await permissionsOfRole(auth.tenantId, role.id),
      });
      await db.transaction(async (tx) => {
        await tx.query('DELETE FROM roles WHERE tenant_id = $1 AND id = $2', [
          auth.tenantId,
          role.id,
        ]);
        await recordChange(tx, { auth, clock }, roleEvent('removed', role.code, before, null));
      });
      res.status(204).end();
    },
  );

  return router;
}
