import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/sandbox/platform/db.ts';
import { HistoryPageSchema, type HistoryEntry } from '#common/contracts/shared.ts';
import { contractProblems } from '#common/contracts/drift.ts';
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
/** The policy's history, newest first, as its page reads it. */
const history = async (code: string) => {
  const res = await call(care, `/policies/${code}/history`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(contractProblems(HistoryPageSchema, res.body)).toEqual([]);
  return res.body.items as HistoryEntry[];
};
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

    // The seeded renewals are in the policies' history as the run records its own (POL-000004
    // of the demo world renews yearly and was renewed by the time of the seed).
    const [seeded] = await world.db().query<{ code: string; created_at: Date }>(
      `SELECT p.code, v.created_at FROM policies p
         JOIN tenants tn ON tn.id = p.tenant_id AND tn.slug = 'demo'
         JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
        WHERE p.policy_number = 'POL-000004' AND v.metadata->>'reason' = 'renewed'`,
    );
    expect(seeded).toBeDefined();
    const [renewal] = await history(seeded!.code);
    expect(renewal).toMatchObject({
      actorName: 'system',
      bySystem: true,
      action: 'renewed',
      at: new Date(seeded!.created_at).toISOString(),
      changes: [{ field: 'contractEnd', before: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }],
    });
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
    // Both in the policy's history: who (the system, no user), when (the run's time) and what
    // (the term's end moved on; the status that ended).
    // (The run is dated back here, so it lists below the creation of a moment ago.)
    const renewals = (await history(renewing.code)).filter((e) => e.action !== 'created');
    expect(renewals).toEqual([
      expect.objectContaining({
        bySystem: true,
        action: 'renewed',
        at: new Date(nowMs).toISOString(),
        changes: [{ field: 'contractEnd', before: '2026-03-01', after: '2026-06-01' }],
      }),
    ]);
    expect((await history(lapsing.code)).find((e) => e.action !== 'created')).toMatchObject({
      bySystem: true,
      action: 'expired',
      changes: [{ field: 'status', before: 'ACTIVE', after: 'EXPIRED' }],
    });

    // Nothing changes an expired policy any more.
    const terminate = await post(care, `/policies/${lapsing.id}/terminate`, {
      basedOnVersionId: ended.currentVersionId,
      terminationDate: '2026-01-01',
    });
    expect(terminate.status).toBe(409);

    // Idempotent: the same run again changes nothing.
    expect(await runPolicyRenewals(world.db() as Db, nowMs)).toEqual({ renewed: 0, expired: 0 });
    expect((await history(renewing.code)).filter((e) => e.action === 'renewed')).toHaveLength(1);
    expect(current(await read(renewing.id)).versionNumber).toBe(2);
    expect(current(await read(lapsing.id)).versionNumber).toBe(2);
    // Later, past the renewed term, the next one follows.
    await runPolicyRenewals(world.db() as Db, Date.UTC(2026, 5, 1));
    expect(current(await read(renewing.id)).metadata).toMatchObject({
      renewedUntil: '2026-09-01T00:00:00.000Z',
    });
  });

  // Last in the file: it moves the seeded world 90 days on.
  it('lets the demo world’s policies come due on the clock: a run 90 days on renews and expires a share', async () => {
    const aheadMs = Date.now() + 90 * 86_400_000;
    // The demo workspace's live policies by the end of their current term, as of now.
    const live = await world.db().query<{ id: number; renewal_frequency: string; ends: Date }>(
      `SELECT p.id, p.renewal_frequency, max(t."to") AS ends
         FROM policies p
         JOIN tenants tn ON tn.id = p.tenant_id AND tn.slug = 'demo'
         JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
         JOIN timeslices t ON t.policy_version_id = v.id
        WHERE p.status = 'ACTIVE' AND p.created_by = 'system'
        GROUP BY p.id HAVING bool_and(t."to" IS NOT NULL)`,
    );
    const lapsing = live.filter((p) => p.renewal_frequency === 'none');
    // Non-renewing policies still run today (the seed follows the clock): none has ended.
    expect(lapsing.length).toBeGreaterThan(50);
    expect(lapsing.every((p) => new Date(p.ends).getTime() > Date.now())).toBe(true);
    const dueBy = (p: { ends: Date }) => new Date(p.ends).getTime() <= aheadMs;
    const expiring = lapsing.filter(dueBy).map((p) => p.id);
    const renewing = live
      .filter((p) => p.renewal_frequency !== 'none' && dueBy(p))
      .map((p) => p.id);
    // A share of them comes due within the 90 days, not all.
    expect(expiring.length).toBeGreaterThan(5);
    expect(expiring.length).toBeLessThan(lapsing.length);
    expect(renewing.length).toBeGreaterThan(5);

    const run = await runPolicyRenewals(world.db() as Db, aheadMs);
    expect(run.expired).toBeGreaterThanOrEqual(expiring.length);
    expect(run.renewed).toBeGreaterThanOrEqual(renewing.length);
    const after = await world
      .db()
      .query<{ id: number; status: string; reason: string; ends: Date }>(
        `SELECT p.id, p.status, v.metadata->>'reason' AS reason, max(t."to") AS ends
         FROM policies p
         JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
         JOIN timeslices t ON t.policy_version_id = v.id
        WHERE p.id = ANY($1::int[])
        GROUP BY p.id, v.id`,
        [[...expiring, ...renewing]],
      );
    const byId = new Map(after.map((p) => [p.id, p]));
    for (const id of expiring) {
      expect(byId.get(id)).toMatchObject({ status: 'EXPIRED', reason: 'expired' });
    }
    for (const id of renewing) {
      expect(byId.get(id)).toMatchObject({ status: 'ACTIVE', reason: 'renewed' });
      expect(new Date(byId.get(id)!.ends).getTime()).toBeGreaterThan(aheadMs);
    }
    // The rest of the non-renewing ones still run.
    const [still] = await world
      .db()
      .query<{ n: number }>(
        `SELECT count(*)::int AS n FROM policies WHERE id = ANY($1::int[]) AND status = 'ACTIVE'`,
        [lapsing.map((p) => p.id)],
      );
    expect(still!.n).toBe(lapsing.length - expiring.length);
  });
});
