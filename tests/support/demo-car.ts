import type { Queryable } from '#server/sandbox/platform/db.ts';

/**
 * The demo tenant's active car product version (its insured objects by name) and its first
 * customer: what the policy lifecycle tests sell their policies with.
 */
export async function demoCar(db: Queryable) {
  const rows = await db.query<{ version_id: number; object_id: number; name: string }>(
    `SELECT v.id AS version_id, o.id AS object_id, o.name FROM product_versions v
       JOIN products p ON p.id = v.product_id JOIN tenants t ON t.id = p.tenant_id
       JOIN insured_objects o ON o.product_version_id = v.id
      WHERE t.slug = 'demo' AND p.slug = 'car-comfort' AND v.status = 'active'`,
  );
  const [acc] = await db.query<{ code: string }>(
    `SELECT a.code FROM accounts a JOIN tenants t ON t.id = a.tenant_id
      WHERE t.slug = 'demo' ORDER BY a.id LIMIT 1`,
  );
  return {
    versionId: rows[0]!.version_id,
    objects: Object.fromEntries(rows.map((r) => [r.name, r.object_id])) as Record<string, number>,
    account: acc!.code,
  };
}
