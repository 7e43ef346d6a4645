import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/sandbox/platform/db.ts';
import { runPolicyRenewals } from '#server/sandbox/services/insurance/policy-renewal.ts';
import { INSURANCE_USERS } from '#tests/support/sandbox.ts';
import { demoCar, sellDemoCar, type DemoCar } from '#tests/support/demo-car.ts';
import { sandboxWorld } from '#tests/support/sandbox-world.ts';

// The premium in force stored on the policy (migration 030, issue 14): every write of a current
// version stores it again, the day's run (policy-renewal.ts) works out again what time has moved
// past, and the list sorted by premium only reads it.
const I = '/insuranceservice/v1';
const world = sandboxWorld(I, INSURANCE_USERS);
const { care } = world.sessions;
const { call, post, patch, put } = world;

let car: DemoCar;
let carObjects: Record<string, number>;

beforeAll(async () => {
  car = await demoCar(world.db());
  carObjects = car.objects;
});

interface Policy {
  id: number;
  policyNumber: string;
  currentVersionId: number;
  draftVersionId: number | null;
  versions: { id: number; versionNumber: number }[];
}

/** A car policy of one year from 2025-03-01: premium 192 (value 20 000, class 10). */
const newPolicy = (renewal = 'none') => sellDemoCar<Policy>(world, care, car, { renewal });

/** What the policy's row holds: the amount and the stretch it holds for (ISO, null unbounded). */
async function stored(id: number) {
  const [row] = await world.db().query<{ premium: string; since: string; until: string }>(
    `SELECT premium_in_force::text AS premium,
            to_char(premium_since AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS since,
            to_char(premium_until AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS until
       FROM policies WHERE id = $1`,
    [id],
  );
  return { premium: Number(row!.premium), since: row!.since, until: row!.until };
}

/** A new current version whose timeline changes from `effectiveFrom` on to this vehicle value. */
async function changed(policy: Policy, value: number, effectiveFrom?: string): Promise<Policy> {
  const drafted = await post(care, `/policies/${policy.id}/draft`, {
    basedOnVersionId: policy.currentVersionId,
  });
  expect(drafted.status).toBe(201);
  const patched = await patch(care, `/policies/${policy.id}/draft`, {
    basedOnVersionId: drafted.body.policy.draftVersionId,
    policyObjects: [{ insuredObjectId: carObjects.vehicle, data: { vehicleValue: value } }],
    ...(effectiveFrom ? { effectiveFrom } : {}),
  });
  expect(patched.status).toBe(200);
  const applied = await put(care, `/policies/${policy.id}`, {
    basedOnVersionId: patched.body.policy.draftVersionId,
  });
  expect(applied.status).toBe(200);
  return applied.body.policy;
}

/** Lists the policy alone, sorted by premium. */
async function listed(policy: Policy) {
  const res = await call(
    care,
    `/policies?filter=policyNumber%3D${policy.policyNumber}&order=premium:DESC&expand=timelines`,
  );
  expect(res.status).toBe(200);
  expect(res.body.items).toHaveLength(1);
  return res.body.items[0] as { id: number };
}

describe('the stored premium in force', () => {
  it('is stored with the policy and follows a new version, a restore and a termination', async () => {
    const policy = await newPolicy();
    // Today (after the term ended in 2026-03) the last timeslice is in force, for good.
    expect(await stored(policy.id)).toEqual({ premium: 192, since: '2026-03-01', until: null });

    const draft = await post(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: policy.currentVersionId,
    });
    const patched = await patch(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: draft.body.policy.draftVersionId,
      policyObjects: [{ insuredObjectId: carObjects.vehicle, data: { vehicleValue: 30000 } }],
    });
    expect(patched.status).toBe(200);
    // A draft is not in force.
    expect((await stored(policy.id)).premium).toBe(192);
    const applied = await put(care, `/policies/${policy.id}`, {
      basedOnVersionId: patched.body.policy.draftVersionId,
    });
    expect(applied.status).toBe(200);
    expect((await stored(policy.id)).premium).toBe(288);

    const first = (applied.body.policy as Policy).versions.find((v) => v.versionNumber === 1)!;
    const restored = await post(care, `/policies/${policy.id}/restore-policy-version`, {
      basedOnVersionId: applied.body.policy.currentVersionId,
      versionId: first.id,
    });
    expect(restored.status).toBe(200);
    expect((await stored(policy.id)).premium).toBe(192);

    // From 2025-09-01 on 288; terminating on 2025-08-15 drops that timeslice again.
    const split = await changed(restored.body.policy, 30000, '2025-09-01');
    expect(await stored(policy.id)).toEqual({ premium: 288, since: '2026-03-01', until: null });
    const terminated = await post(care, `/policies/${policy.id}/terminate`, {
      basedOnVersionId: split.currentVersionId,
      terminationDate: '2025-08-15',
    });
    expect(terminated.status).toBe(200);
    expect(await stored(policy.id)).toEqual({ premium: 192, since: '2025-08-15', until: null });
  });

  it('follows a renewal run, and the list only reads what is stored', async () => {
    const policy = await newPolicy('quarterly');
    // The run on 10 April 2026 renews into a term up to 2026-06-01, stored as of that day.
    await runPolicyRenewals(world.db() as Db, Date.UTC(2026, 3, 10, 12));
    expect(await stored(policy.id)).toEqual({
      premium: expect.any(Number),
      since: '2026-03-01',
      until: '2026-06-01',
    });
    const renewed = (await stored(policy.id)).premium;
    expect(renewed).toBeGreaterThan(0);

    // Today lies past 2026-06-01, yet the premium-sorted list writes nothing: what time moved
    // past is the day's run's to store again (the next test).
    await listed(policy);
    expect(await stored(policy.id)).toEqual({
      premium: renewed,
      since: '2026-03-01',
      until: '2026-06-01',
    });
    // The run of 1 June renews it for the next quarter and stores that.
    await runPolicyRenewals(world.db() as Db, Date.UTC(2026, 5, 1, 12));
    expect(await stored(policy.id)).toEqual({
      premium: renewed,
      since: '2026-06-01',
      until: '2026-09-01',
    });
  });

  it('sorts and pages the list by the stored amount', async () => {
    const cheap = await newPolicy();
    const dear = await changed(await newPolicy(), 90000);
    expect((await stored(dear.id)).premium).toBeGreaterThan((await stored(cheap.id)).premium);
    const res = await call(care, '/policies?order=premium:DESC&pageSize=20');
    expect(res.status).toBe(200);
    const next = await call(
      care,
      `/policies?order=premium:DESC&pageSize=20&pageToken=${encodeURIComponent(res.body.nextPageToken)}`,
    );
    expect(next.status).toBe(200);
    const rows = await world.db().query<{ id: number }>(
      `SELECT id FROM policies
        WHERE tenant_id = (SELECT tenant_id FROM policies WHERE id = $1)
        ORDER BY premium_in_force DESC, id DESC LIMIT 40`,
      [cheap.id],
    );
    const ids = [...res.body.items, ...next.body.items].map((p: { id: number }) => p.id);
    expect(ids).toEqual(rows.map((r) => r.id));
  });
  it("moves with the clock past a premium change date in the day's run", async () => {
    // 192 up to 2025-09-01, 288 from then to the term's end on 2026-03-01; renews yearly, so no
    // run before 2026-03-01 finds it due and only the premium in force moves.
    const policy = await changed(await newPolicy('yearly'), 30000, '2025-09-01');
    await runPolicyRenewals(world.db() as Db, Date.UTC(2025, 7, 31, 12));
    expect(await stored(policy.id)).toEqual({
      premium: 192,
      since: '2025-03-01',
      until: '2025-09-01',
    });
    // The clock passes the change date: the next day's run stores the new amount.
    await runPolicyRenewals(world.db() as Db, Date.UTC(2025, 8, 1, 12));
    expect(await stored(policy.id)).toEqual({
      premium: 288,
      since: '2025-09-01',
      until: '2026-03-01',
    });

    // A stored amount whose stretch does not hold the run's time is worked out again.
    await world.db().query(
      `UPDATE policies SET premium_in_force = 1, premium_since = now() + interval '1 day'
          WHERE id = $1`,
      [policy.id],
    );
    await runPolicyRenewals(world.db() as Db, Date.UTC(2025, 8, 1, 12));
    expect(await stored(policy.id)).toEqual({
      premium: 288,
      since: '2025-09-01',
      until: '2026-03-01',
    });

    // Today's run leaves the sandbox as of today again: the policy renewed past 2026-03-01.
    await runPolicyRenewals(world.db() as Db, Date.now());
    expect(await stored(policy.id)).toEqual({
      premium: 288,
      since: '2026-03-01',
      until: '2027-03-01',
    });
  });
});
