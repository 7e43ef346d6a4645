import { expect } from 'vitest';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import type { Session } from '#server/sandbox/testing.ts';
import type { SandboxWorld } from './sandbox-world.ts';

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

export type DemoCar = Awaited<ReturnType<typeof demoCar>>;

/**
 * Sells `car` as `session`: a policy of one year from `start` (value 20 000, class 10: premium
 * 192), and when `renewal` is given, sets its renewal frequency as the product would (the API
 * takes none). Answers the created policy as the test reads it.
 */
export async function sellDemoCar<P>(
  world: { post: SandboxWorld<string>['post']; db(): Queryable },
  session: Session,
  car: DemoCar,
  { start = '2025-03-01', renewal }: { start?: string; renewal?: string } = {},
): Promise<P> {
  const res = await world.post(session, '/policies', {
    productVersionId: car.versionId,
    accountCode: car.account,
    policyObjects: [
      {
        insuredObjectId: car.objects.default,
        data: { policyStartDate: start, policyDurationUnit: 'year', policyDurationValue: 1 },
      },
      {
        insuredObjectId: car.objects.vehicle,
        data: { vehicleValue: 20000, vehicleType: 'car', isCommercial: false },
      },
      { insuredObjectId: car.objects.driver, data: { birthDate: '1990-06-15', sfClass: 10 } },
    ],
  });
  expect(res.status).toBe(201);
  if (renewal !== undefined) {
    await world
      .db()
      .query('UPDATE policies SET renewal_frequency = $2 WHERE id = $1', [
        res.body.policy.id,
        renewal,
      ]);
  }
  return res.body.policy;
}
