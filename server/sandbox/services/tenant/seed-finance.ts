import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '#server/sandbox/platform/db.ts';
import { hashPassword } from '#server/sandbox/platform/crypto.ts';
import { CARE_PAYMENTS, DEMO_PASSWORD, DEMO_ROLES, FINANCE_USER, newUserCode } from './seed.ts';

/**
 * Issue 18 for data directories seeded before it: the demo workspaces (those with the demo
 * customer-care role) get the finance role, customer care its payment rights, and the demo group
 * the finance user. Once per workspace: only where the finance role is missing, so that rights an
 * administrator took away since are not given back on the next start.
 */
export async function seedFinanceRole(db: Db, logger: Logger): Promise<void> {
  const finance = DEMO_ROLES.finance!;
  const added = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(724312)');
    const roles = await tx.query<{ id: number; tenant_id: number }>(
      `INSERT INTO roles (tenant_id, code, label, description)
       SELECT r.tenant_id, 'finance', $1, $2 FROM roles r
        WHERE r.code = 'customer-care'
          AND NOT EXISTS (SELECT 1 FROM roles f WHERE f.tenant_id = r.tenant_id AND f.code = 'finance')
       RETURNING id, tenant_id`,
      [finance.label, finance.description],
    );
    if (!roles.length) return 0;
    const tenants = roles.map((r) => r.tenant_id);
    await tx.query(
      `INSERT INTO role_permissions (tenant_id, role_id, permission)
       SELECT r.tenant_id, r.id, p FROM roles r, unnest($2::text[]) AS p
        WHERE r.id = ANY($1::int[])`,
      [roles.map((r) => r.id), finance.permissions],
    );
    await tx.query(
      `INSERT INTO role_permissions (tenant_id, role_id, permission)
       SELECT r.tenant_id, r.id, p FROM roles r, unnest($2::text[]) AS p
        WHERE r.code = 'customer-care' AND r.tenant_id = ANY($1::int[])
          AND NOT EXISTS (SELECT 1 FROM role_permissions x WHERE x.role_id = r.id
                            AND x.permission = p)`,
      [tenants, CARE_PAYMENTS],
    );
    // The user, in the group of the workspaces that got the role, unless there already.
    const groups = await tx.query<{ tenant_group_id: number; home: number }>(
      `SELECT t.tenant_group_id, min(t.id) AS home FROM tenants t
        WHERE t.id = ANY($1::int[])
          AND NOT EXISTS (SELECT 1 FROM users u WHERE u.tenant_group_id = t.tenant_group_id
                            AND lower(u.email) = lower($2))
        GROUP BY t.tenant_group_id`,
      [tenants, FINANCE_USER.email],
    );
    if (groups.length) {
      const hash = await hashPassword(DEMO_PASSWORD);
      for (const g of groups) {
        const [u] = await tx.query<{ id: number }>(
          `INSERT INTO users (tenant_group_id, tenant_id, code, sub, email, password_hash,
                              first_name, last_name, status, must_change_password)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', false) RETURNING id`,
          [
            g.tenant_group_id,
            g.home,
            newUserCode(),
            randomUUID(),
            FINANCE_USER.email,
            hash,
            FINANCE_USER.firstName,
            FINANCE_USER.lastName,
          ],
        );
        await tx.query(
          `INSERT INTO tenant_users (tenant_id, user_id)
           SELECT r.tenant_id, $2 FROM roles r
             JOIN tenants t ON t.id = r.tenant_id AND t.tenant_group_id = $1
            WHERE r.id = ANY($3::int[])`,
          [g.tenant_group_id, u!.id, roles.map((r) => r.id)],
        );
        await tx.query(
          `INSERT INTO user_roles (tenant_id, user_id, role_id)
           SELECT r.tenant_id, $2, r.id FROM roles r
             JOIN tenants t ON t.id = r.tenant_id AND t.tenant_group_id = $1
            WHERE r.id = ANY($3::int[])`,
          [g.tenant_group_id, u!.id, roles.map((r) => r.id)],
        );
      }
    }
    return roles.length;
  });
  if (added) logger.info({ workspaces: added }, 'finance role added to the demo workspaces');
}
