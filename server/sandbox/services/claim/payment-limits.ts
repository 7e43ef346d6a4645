import type { Logger } from 'pino';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';

/**
 * Payment authority (issue 15): the most a holder of a role may pay out on a settlement in one
 * step without a second person's approval, in cents of the workspace's currency. A user's limit
 * is the highest of their roles'; a role without a limit has none, so every payment it books
 * waits for approval. The demo roles by their code: customer care (who handles claims) up to
 * 5 000.00, the administrator up to 50 000.00; the others book no payments. Above the limit the
 * payment is recorded as awaiting approval (settlement-routes.ts).
 */
export const DEMO_PAYMENT_LIMITS: Readonly<Record<string, number>> = {
  admin: 5_000_000,
  'customer-care': 500_000,
};

/** The caller's authority limit in cents: the highest of their roles' limits, else 0. */
export async function paymentLimitOf(
  db: Queryable,
  tenantId: number,
  userId: number,
): Promise<number> {
  const [row] = await db.query<{ limit_cents: string | number | null }>(
    `SELECT max(l.limit_cents) AS limit_cents
       FROM user_roles ur JOIN claim_payment_limits l ON l.role_id = ur.role_id
      WHERE ur.tenant_id = $1 AND ur.user_id = $2`,
    [tenantId, userId],
  );
  return Number(row?.limit_cents ?? 0);
}

/**
 * Gives every demo role without a limit its limit: one statement, idempotent, so that a data
 * directory seeded before migration 016 gets them too, and a limit set since stays.
 */
export async function seedPaymentLimits(db: Db, logger: Logger): Promise<void> {
  const codes = Object.keys(DEMO_PAYMENT_LIMITS);
  const added = await db.query(
    `INSERT INTO claim_payment_limits (role_id, tenant_id, limit_cents)
     SELECT r.id, r.tenant_id, x.limit_cents
       FROM roles r JOIN unnest($1::text[], $2::bigint[]) AS x(code, limit_cents)
         ON x.code = r.code
     ON CONFLICT (role_id) DO NOTHING
     RETURNING role_id`,
    [codes, codes.map((code) => DEMO_PAYMENT_LIMITS[code])],
  );
  if (added.length) logger.info({ roles: added.length }, 'claim payment limits seeded');
}
