import { hasPermission } from '#common/permissions.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';

/*
 * A workspace must never be left without someone who can give access back. Self-disable and
 * self-delete were refused from the start; this covers the other ways to get there: taking one's
 * own (or the last other) administrator role away, editing the last administrator role down,
 * disabling or deleting the last other administrator.
 */

/**
 * What makes an administrator here: managing users and their roles, and the roles themselves.
 * Whoever holds these can repair any access the others lost (within what they hold).
 */
export const ADMINISTRATOR_RIGHTS = [
  'tenant-management.users.update',
  'identity-management.roles.update',
] as const;

/** Does any active member of the workspace hold every administrator right, as the data stands? */
export async function hasAdministrator(tx: Queryable, tenantId: number): Promise<boolean> {
  const rows = await tx.query<{ user_id: number; permissions: string[] }>(
    `SELECT tu.user_id, array_agg(DISTINCT rp.permission) AS permissions
       FROM tenant_users tu
       JOIN users u ON u.id = tu.user_id AND u.status = 'active'
       JOIN user_roles ur ON ur.tenant_id = tu.tenant_id AND ur.user_id = tu.user_id
       JOIN role_permissions rp ON rp.role_id = ur.role_id
      WHERE tu.tenant_id = $1
      GROUP BY tu.user_id`,
    [tenantId],
  );
  return rows.some((row) => ADMINISTRATOR_RIGHTS.every((r) => hasPermission(row.permissions, r)));
}

/**
 * Called inside the transaction of a change to users, roles or their assignment, after the
 * change: throws (and so rolls it back) when no administrator would be left. The lock makes two
 * administrators who strip each other at the same moment wait for one another, so that the
 * second sees the first's change and is refused.
 */
export async function assertAdministratorLeft(tx: Queryable, tenantId: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [ADMIN_LOCK, tenantId]);
  if (!(await hasAdministrator(tx, tenantId))) {
    throw new HttpError(
      409,
      LAST_ADMINISTRATOR,
      'the workspace would be left without an administrator; give another user the rights first',
    );
  }
}

export const LAST_ADMINISTRATOR = 'last_administrator';

// The advisory-lock namespace of "who administers a workspace" (any number the sandbox does not
// use elsewhere; the second key is the tenant).
const ADMIN_LOCK = 4_170_001;
