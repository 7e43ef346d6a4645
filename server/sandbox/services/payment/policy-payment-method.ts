import type { Queryable } from '#server/sandbox/platform/db.ts';

/**
 * How a policy pays now (its current method's type: `sepa`, `invoice` or `card`, and a SEPA
 * mandate's reference); null when it has none. For the document service's invoice document,
 * which says how the amount is settled; the payment service owns these tables.
 */
export async function policyPaymentMethod(
  db: Queryable,
  tenantId: number,
  policyCode: string,
): Promise<{ type: string; mandateReference: string | null } | null> {
  const [row] = await db.query<{ type: string; mandate_reference: string | null }>(
    `SELECT m.type, m.mandate_reference
       FROM policy_payment_methods pm JOIN payment_methods m ON m.id = pm.payment_method_id
      WHERE pm.tenant_id = $1 AND pm.policy_code = $2 AND pm.valid_to IS NULL`,
    [tenantId, policyCode],
  );
  return row ? { type: row.type, mandateReference: row.mandate_reference } : null;
}
