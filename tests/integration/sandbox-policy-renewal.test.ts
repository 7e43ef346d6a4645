import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/sandbox/platform/db.ts';
import { runPolicyRenewals } from '#server/sandbox/services/insurance/policy-renewal.ts';
import { INSURANCE_USERS } from '#tests/support/sandbox.ts';
import { demoCar, sellDemoCar, type DemoCar } from '#tests/support/demo-car.ts';
import { sandboxWorld } from '#tests/support/sandbox-world.ts';

// The renewal run (issue 15, point 6; docs/decisions/006-policy-renewal-run.md).
const I = '/insuranceservice/v1';
const world = sandboxWorld(I, INSURANCE_USERS);
const { care } = world.sessions;
const { call, post } = world;

let car: DemoCar;

beforeAll(async () => {
  car = await demoCar(world.db());
});

/** A car policy of one year from `start`, renewing as given (set as the product would). */
const policyFrom = (start: string, renewal: string) =>
  sellDemoCar<{ id: number; code: string }>(world, care, car, { start, renewal });

const read = async (id: number) => (await call(care, `/policies/${id}`)).body.policy;
const current = (policy: { versions: { isCurrent: boolean }[] }) =>
  policy.versions.find((v) => v.isCurrent) as unknown as {
    versionNumber: number;
    metadata: Record<string, unknown>;
    createdBy: string;
    timeline: { from: string; to: string }[];
  };

/** Live policies whose current term has ended by now. */
const overdue = async () =>
  (
    await world.db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT p.id FROM policies p
           JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
           JOIN timeslices t ON t.policy_version_id = v.id
          WHERE p.status IN ('ACTIVE', 'SUSPENDED')
          GROUP BY p.id HAVING bool_and(t."to" IS NOT NULL) AND max(t."to") <= now()) due`,
    )
  )[0]!.n;

describe('the policy renewal run', () => {
  it('has renewed or expired every seeded policy whose term ended, when the sandbox started', async () => {
    expect(await overdue()).toBe(0);
    const [counts] = await world.db().query<{ expired: number; renewed: number }>(
      `SELECT count(*) FILTER (WHERE p.status = 'EXPIRED')::int AS expired,
              count(*) FILTER (WHERE v.metadata->>'reason' = 'renewed')::int AS renewed
         FROM policies p JOIN policy_versions v ON v.policy_id = p.id AND v.is_current`,
    );
    // The seed's terms ended in 2025 and 2026: some run out, others renew (three in four).
    expect(counts!.expired).toBeGreaterThan(100);
    expect(counts!.renewed).toBeGreaterThan(100);
  });

  it('renews a due policy per its frequency into the next terms, once; expires one that does not renew', async () => {
    const renewing = await policyFrom('2025-03-01', 'quarterly');
    const lapsing = await policyFrom('2025-03-01', 'none');
    const nowMs = Date.UTC(2026, 3, 10, 12); // 10 April 2026
    expect(await runPolicyRenewals(world.db() as Db, nowMs)).toMatchObject({
      renewed: expect.any(Number),
      expired: expect.any(Number),
    });

    const renewed = await read(renewing.id);
    expect(renewed.status).toBe('ACTIVE');
    const version = current(renewed);
    expect(version.versionNumber).toBe(2);
    expect(version.createdBy).toBe('system');
    expect(version.metadata).toMatchObject({
      reason: 'renewed',
      renewalFrequency: 'quarterly',
      previousEnd: '2026-03-01T00:00:00.000Z',
      renewedUntil: '2026-06-01T00:00:00.000Z',
      terms: 1,
    });
    expect(version.timeline.map((s) => [s.from, s.to])).toEqual([
      ['2025-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
      ['2026-03-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z'],
    ]);

    const ended = await read(lapsing.id);
    expect(ended.status).toBe('EXPIRED');
    expect(current(ended).metadata).toMatchObject({
      reason: 'expired',
      expiredOn: '2026-03-01T00:00:00.000Z',
    });
    // Nothing changes an expired policy any more.
    const terminate = await post(care, `/policies/${lapsing.id}/terminate`, {
      basedOnVersionId: ended.currentVersionId,
      terminationDate: '2026-01-01',
    });
    expect(terminate.status).toBe(409);

    // Idempotent: the same run again changes nothing.
    expect(await runPolicyRenewals(world.db() as Db, nowMs)).toEqual({ renewed: 0, expired: 0 });
    expect(current(await read(renewing.id)).versionNumber).toBe(2);
    expect(current(await read(lapsing.id)).versionNumber).toBe(2);
    // Later, past the renewed term, the next one follows.
    await runPolicyRenewals(world.db() as Db, Date.UTC(2026, 5, 1));
    expect(current(await read(renewing.id)).metadata).toMatchObject({
      renewedUntil: '2026-09-01T00:00:00.000Z',
    });
  });
});
