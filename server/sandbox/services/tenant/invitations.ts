import type { RequestHandler } from 'express';
import type { Clock } from '#common/clock.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { getAuth } from '#server/sandbox/platform/auth-context.ts';
import {
  INVITE_TTL_SECONDS,
  assertGrantable,
  resolveRoles,
} from '#server/sandbox/platform/admin-shared.ts';
import { listPage, readList, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { rolesWithPermissions, type RoleRow } from './tenant-routes.ts';

/**
 * The tenant service's two kinds of invitation: a user's to join the workspace (`invites`) and an
 * organisation's to register (`organization_invitations`). Each is a mailed single-use token of
 * which only the hash is kept, an expiry on the sandbox's clock, and the roles granted on
 * acceptance; the lists show the open ones. The routes keep what differs (bodies, mails).
 */
export interface InvitationKind {
  /** The kind's table and its role links (constants, never input). */
  table: string;
  roleTable: string;
  /** The link table's column naming the invitation. */
  roleColumn: string;
  /** What a 404 calls it (`invite`, `invitation`). */
  noun: string;
}

export const USER_INVITES: InvitationKind = {
  table: 'invites',
  roleTable: 'invite_roles',
  roleColumn: 'invite_id',
  noun: 'invite',
};

export const ORGANIZATION_INVITATIONS: InvitationKind = {
  table: 'organization_invitations',
  roleTable: 'organization_invitation_roles',
  roleColumn: 'invitation_id',
  noun: 'invitation',
};

/** When an invitation made now stops working. */
export const expiryFrom = (clock: Clock) => new Date(clock.now() + INVITE_TTL_SECONDS * 1000);

/** Expired on the sandbox's clock (a test moves it instead of waiting a week). */
export const isExpired = (expiresAt: Date, clock: Clock) => expiresAt.getTime() <= clock.now();

/** The roles a caller grants with an invitation: known ones, and none that it does not hold. */
export async function grantableRoles(
  db: Queryable,
  auth: { tenantId: number; permissions: string[] },
  ref: { roleIds?: number[] | undefined; roleCodes?: string[] | undefined },
) {
  const roles = await resolveRoles(db, auth.tenantId, ref);
  assertGrantable(
    auth.permissions,
    roles.flatMap((r) => r.permissions),
  );
  return roles;
}

/** Links the roles to a new invitation, granted when it is accepted. */
export async function linkRoles(
  tx: Queryable,
  kind: InvitationKind,
  tenantId: number,
  invitationId: number,
  roles: readonly { id: number }[],
): Promise<void> {
  await tx.query(
    `INSERT INTO ${kind.roleTable} (tenant_id, ${kind.roleColumn}, role_id)
     SELECT $1, $2, unnest($3::int[])`,
    [tenantId, invitationId, roles.map((r) => r.id)],
  );
}

/** The roles of a page of invitations, with their permissions, in two queries. */
export async function rolesOfInvitations(
  db: Queryable,
  kind: InvitationKind,
  tenantId: number,
  rows: readonly { id: number }[],
) {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await db.query<RoleRow & { invitation: number }>(
        `SELECT l.${kind.roleColumn} AS invitation, r.id, r.code, r.label, r.description, r.description_labels, r.label_labels,
                r.created_at, r.updated_at, r.created_by, r.updated_by
           FROM ${kind.roleTable} l JOIN roles r ON r.id = l.role_id
          WHERE l.tenant_id = $1 AND l.${kind.roleColumn} = ANY($2::int[]) ORDER BY r.id`,
        [tenantId, ids],
      )
    : [];
  const roles = new Map(
    (
      await rolesWithPermissions(db, tenantId, [...new Map(links.map((l) => [l.id, l])).values()])
    ).map((r) => [r.id, r]),
  );
  return (invitationId: number) =>
    links
      .filter((l) => l.invitation === invitationId)
      .map((l) => roles.get(l.id))
      .filter((role) => role !== undefined);
}

/**
 * `GET` of the workspace's open (unused) invitations of the kind: one page as `source` reads the
 * query, each presented by `present` with the expands asked for.
 */
export function openInvitationsRoute<T>(
  db: Queryable,
  kind: InvitationKind,
  source: ListSource,
  columns: string,
  present: (tenantId: number, rows: T[], expand: Set<string>) => Promise<unknown[]>,
): RequestHandler {
  return async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = readList(req.query, source);
    const page = await listPage<T>(db, list, source, `SELECT ${columns} FROM ${kind.table}`, {
      where: ['tenant_id = $1', 'used_at IS NULL'],
      params: [tenantId],
    });
    res.json({
      items: await present(tenantId, page.items, list.expand),
      nextPageToken: page.nextPageToken,
      totalItems: page.totalItems,
    });
  };
}
