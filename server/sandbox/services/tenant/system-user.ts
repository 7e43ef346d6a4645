import { randomUUID } from 'node:crypto';
import type { Db } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import { newUserCode } from './seed.ts';

/**
 * A workspace's system user: who the workflow engine is when one of its tasks calls another
 * service over HTTP (`http.call`, issue 17). A real user row, because every service resolves a
 * token to a live user of the workspace and checks that user's permissions: the calls go
 * through the same checks, tenant scoping and audit stamps as anybody's. It has no password (no
 * one signs in as it) and one role, `workflow-system`, with the business rights a workflow
 * needs and none of the administration: a workflow editor cannot reach users or roles through it.
 * Made on first use, so workspaces without such workflows carry no extra user.
 */

export const SYSTEM_ROLE = 'workflow-system';

const SYSTEM_PERMISSIONS = [
  'policy-management.policies.*',
  'policy-management.leads.*',
  'policy-management.products.view',
  'account-management.accounts.*',
  'claim-management.claims.*',
  'document-management.documents.*',
  'partner-management.partners.view',
];

interface SystemUser {
  sub: string;
  code: string;
  email: string;
  tenant_id: number;
  slug: string;
  name: string;
}

const SELECT = `SELECT u.sub, u.code, u.email, t.id AS tenant_id, t.slug, t.name
   FROM users u
   JOIN user_roles ur ON ur.user_id = u.id AND ur.tenant_id = $1
   JOIN roles r ON r.id = ur.role_id AND r.code = '${SYSTEM_ROLE}'
   JOIN tenants t ON t.id = $1
  WHERE u.tenant_id = $1
  ORDER BY u.id LIMIT 1`;

/** The workspace's system user, made (with its role) when it does not exist yet. */
export async function ensureSystemUser(db: Db, tenantId: number): Promise<SystemUser> {
  const [found] = await db.query<SystemUser>(SELECT, [tenantId]);
  if (found) return found;
  return db.transaction(async (tx) => {
    // Two tasks of one workspace may ask at once: one makes it, the other finds it.
    await tx.query('SELECT pg_advisory_xact_lock(724317, $1)', [tenantId]);
    const [again] = await tx.query<SystemUser>(SELECT, [tenantId]);
    if (again) return again;
    const [tenant] = await tx.query<{ tenant_group_id: number; slug: string }>(
      'SELECT tenant_group_id, slug FROM tenants WHERE id = $1',
      [tenantId],
    );
    if (!tenant) throw new Error(`workspace ${tenantId} does not exist`);
    const [role] = await tx.query<{ id: number }>(
      `INSERT INTO roles (tenant_id, code, label, description)
       VALUES ($1, $2, 'Workflow engine', 'What workflow tasks may do in the other services')
       ON CONFLICT (tenant_id, code) DO UPDATE SET code = EXCLUDED.code RETURNING id`,
      [tenantId, SYSTEM_ROLE],
    );
    await tx.query(
      `INSERT INTO role_permissions (tenant_id, role_id, permission)
       SELECT $1, $2, unnest($3::text[]) ON CONFLICT (role_id, permission) DO NOTHING`,
      [tenantId, role!.id, SYSTEM_PERMISSIONS],
    );
    // `.invalid` (RFC 2606): no mail to it can ever be delivered.
    const [user] = await tx.query<{ id: number }>(
      `INSERT INTO users (tenant_group_id, tenant_id, code, sub, email, password_hash, first_name,
                          last_name, status)
       VALUES ($1, $2, $3, $4, $5, NULL, 'Workflow', 'Engine', 'active') RETURNING id`,
      [
        tenant.tenant_group_id,
        tenantId,
        newUserCode(),
        randomUUID(),
        `workflows@${tenant.slug}.system.invalid`,
      ],
    );
    await tx.query('INSERT INTO tenant_users (tenant_id, user_id) VALUES ($1, $2)', [
      tenantId,
      user!.id,
    ]);
    await tx.query('INSERT INTO user_roles (tenant_id, user_id, role_id) VALUES ($1, $2, $3)', [
      tenantId,
      user!.id,
      role!.id,
    ]);
    const [made] = await tx.query<SystemUser>(SELECT, [tenantId]);
    return made!;
  });
}

/** A short-lived access token of the workspace's system user, signed like a sign-in's. */
export async function systemUserToken(
  db: Db,
  signer: TokenSigner,
  tenantId: number,
): Promise<string> {
  const user = await ensureSystemUser(db, tenantId);
  return signer.sign({
    sub: user.sub,
    email: user.email,
    given_name: 'Workflow',
    family_name: 'Engine',
    user_code: user.code,
    tenant_id: user.tenant_id,
    tenant_slug: user.slug,
    tenant_name: user.name,
    role: SYSTEM_ROLE,
    tier: 'standard',
  });
}
