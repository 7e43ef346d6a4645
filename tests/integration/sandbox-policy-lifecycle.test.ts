import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '#server/sandbox/testing.ts';
import { INSURANCE_USERS } from '#tests/support/sandbox.ts';
import { demoCar, sellDemoCar, type DemoCar } from '#tests/support/demo-car.ts';
import { setPermissions, sandboxWorld } from '#tests/support/sandbox-world.ts';

const I = '/insuranceservice/v1';
const world = sandboxWorld(I, INSURANCE_USERS);
const { care, viewer, noui, nord } = world.sessions;
const { call, post, patch, put } = world;

interface Slice {
  from: string;
  to: string | null;
  premium: { grandTotal: number; premiumItems: { total: number }[] };
  policyObjects: { insuredObjectName: string; data: Record<string, unknown> }[];
}
interface Version {
  id: number;
  versionNumber: number;
  isCurrent: boolean;
  isDraft: boolean;
  revisionStatus: string;
  metadata: Record<string, unknown>;
  timeline: Slice[];
}
interface Policy {
  id: number;
  code: string;
  status: string;
  currentVersionId: number;
  draftVersionId: number | null;
  terminationDate: string | null;
  terminationReason: string | null;
  versions: Version[];
}

let car: DemoCar;
let carObjects: Record<string, number>;

beforeAll(async () => {
  car = await demoCar(world.db());
  carObjects = car.objects;
});

/** A fresh active car policy from 2025-03-01 for a year: premium 192 (value 20 000, class 10). */
const newPolicy = () => sellDemoCar<Policy>(world, care, car);

const draftOf = (policy: Policy) => policy.versions.find((v) => v.isDraft)!;
const currentOf = (policy: Policy) => policy.versions.find((v) => v.isCurrent)!;
const vehicleValue = (slice: Slice) =>
  slice.policyObjects.find((o) => o.insuredObjectName === 'vehicle')!.data.vehicleValue;

async function withDraft(): Promise<Policy> {
  const policy = await newPolicy();
  const res = await post(care, `/policies/${policy.id}/draft`, {
    basedOnVersionId: policy.currentVersionId,
  });
  expect(res.status).toBe(201);
  return res.body.policy;
}

const raise = (policy: Policy, value: number, extra: Record<string, unknown> = {}) =>
  patch(care, `/policies/${policy.id}/draft`, {
    basedOnVersionId: policy.draftVersionId,
    policyObjects: [{ insuredObjectId: carObjects.vehicle, data: { vehicleValue: value } }],
    ...extra,
  });

describe('policy drafts', () => {
  it('copies the current version into a draft, patches it, recomputes and applies it', async () => {
    const policy = await newPolicy();
    const created = await post(care, `/policies/${policy.code}/draft`, {
      basedOnVersionId: policy.currentVersionId,
    });
    expect(created.status).toBe(201);
    const withDraftPolicy: Policy = created.body.policy;
    const draft = draftOf(withDraftPolicy);
    expect(withDraftPolicy.draftVersionId).toBe(draft.id);
    expect(withDraftPolicy.currentVersionId).toBe(policy.currentVersionId);
    expect(draft).toMatchObject({
      versionNumber: 2,
      isCurrent: false,
      revisionStatus: 'draft',
      metadata: { basedOnVersionId: policy.currentVersionId },
    });
    expect(draft.timeline.map(vehicleValue)).toEqual([20000]);

    const read = await call(viewer, `/policies/${policy.id}/draft`);
    expect(read.status).toBe(200);
    expect(read.body.draft.id).toBe(draft.id);

    const patched = await raise(withDraftPolicy, 30000);
    expect(patched.status).toBe(200);
    const after: Policy = patched.body.policy;
    // Every patch makes a new draft row: a patch based on the old one is stale now.
    expect(after.draftVersionId).not.toBe(draft.id);
    expect(draftOf(after).versionNumber).toBe(2);
    expect(draftOf(after).timeline[0]!.premium.grandTotal).toBe(288);
    // The current version is untouched until the draft is applied.
    expect(currentOf(after).timeline[0]!.premium.grandTotal).toBe(192);

    const applied = await put(care, `/policies/${policy.id}`, {
      basedOnVersionId: after.draftVersionId,
    });
    expect(applied.status).toBe(200);
    const final: Policy = applied.body.policy;
    expect(final.draftVersionId).toBeNull();
    expect(final.currentVersionId).toBe(after.draftVersionId);
    expect(final.versions.map((v) => [v.versionNumber, v.revisionStatus])).toEqual([
      [2, 'applied'],
      [1, 'superseded'],
    ]);
    expect(currentOf(final).metadata.reason).toBe('changed');
    expect(currentOf(final).timeline[0]!.premium.grandTotal).toBe(288);
    const gone = await call(viewer, `/policies/${policy.id}/draft`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Policy has no draft');
  });

  it('changes from an effective date on, splitting the timeslice there', async () => {
    const policy = await withDraft();
    const res = await raise(policy, 30000, { effectiveFrom: '2025-09-01' });
    expect(res.status).toBe(200);
    const timeline = draftOf(res.body.policy).timeline;
    expect(timeline.map((s) => [s.from, s.to, vehicleValue(s), s.premium.grandTotal])).toEqual([
      ['2025-03-01T00:00:00.000Z', '2025-09-01T00:00:00.000Z', 20000, 192],
      ['2025-09-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 30000, 288],
    ]);
    for (const day of ['2025-03-01', '2026-03-01', '2027-01-01']) {
      const outside = await raise(res.body.policy, 1000, { effectiveFrom: day });
      expect(outside.status).toBe(400);
      expect(outside.body.issues).toEqual([{ path: 'effectiveFrom', code: 'outside_term' }]);
    }
    const bad = await raise(res.body.policy, 1000, { effectiveFrom: '2025-02-30' });
    expect(bad.body.issues).toEqual([{ path: 'effectiveFrom', code: 'invalid_date' }]);
  });

  it('refuses invalid data, the term fields and unknown objects with their issues', async () => {
    const policy = await withDraft();
    const wrong = await raise(policy, 'much' as unknown as number);
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ path: 'vehicle.vehicleValue', code: 'not_a_number' }]);
    const term = await patch(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: policy.draftVersionId,
      policyObjects: [
        { insuredObjectId: carObjects.default, data: { policyStartDate: '2025-04-01' } },
        { insuredObjectId: 999999, data: {} },
      ],
    });
    expect(term.body.issues).toEqual([
      { path: 'policyObjects.1.insuredObjectId', code: 'unknown_insured_object' },
      { path: 'default.policyStartDate', code: 'read_only' },
    ]);
    const emptied = await patch(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: policy.draftVersionId,
      policyObjects: [{ insuredObjectId: carObjects.driver, data: { birthDate: null } }],
    });
    expect(emptied.body.issues).toEqual([{ path: 'driver.birthDate', code: 'required' }]);
    for (const body of [
      {},
      { basedOnVersionId: policy.draftVersionId },
      { basedOnVersionId: 'x', policyObjects: [] },
      { basedOnVersionId: policy.draftVersionId, policyObjects: [{ insuredObjectId: 1 }] },
    ]) {
      expect((await patch(care, `/policies/${policy.id}/draft`, body)).status).toBe(400);
    }
    // Nothing of it was saved.
    const draft = await call(care, `/policies/${policy.id}/draft`);
    expect(draft.body.draft.id).toBe(policy.draftVersionId);
    expect(draft.body.draft.timeline.map(vehicleValue)).toEqual([20000]);
  });

  it('deletes the draft, named in the query or the body', async () => {
    const policy = await withDraft();
    const res = await call(
      care,
      `/policies/${policy.id}/draft?basedOnVersionId=${policy.draftVersionId}`,
      {
        method: 'DELETE',
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.policy.draftVersionId).toBeNull();
    expect(res.body.policy.versions).toHaveLength(1);
    const again = await post(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: policy.currentVersionId,
    });
    const byBody = await call(care, `/policies/${policy.id}/draft`, {
      method: 'DELETE',
      body: { basedOnVersionId: again.body.policy.draftVersionId },
    });
    expect(byBody.status).toBe(200);
    expect((await call(care, `/policies/${policy.id}/draft`, { method: 'DELETE' })).status).toBe(
      400,
    );
  });

  it('has one draft at a time, and a stale draft is a conflict with the current policy', async () => {
    const policy = await withDraft();
    const second = await post(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: policy.currentVersionId,
    });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('draft_exists');

    const first = await raise(policy, 25000);
    expect(first.status).toBe(200);
    // Based on the draft as it was before the first patch.
    const stale = await raise(policy, 26000);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.policy.draftVersionId).toBe(first.body.policy.draftVersionId);
    expect(draftOf(stale.body.policy).timeline.map(vehicleValue)).toEqual([25000]);
    const staleApply = await put(care, `/policies/${policy.id}`, {
      basedOnVersionId: policy.draftVersionId,
    });
    expect(staleApply.status).toBe(409);
    expect(staleApply.body.error).toBe('version_conflict');

    await call(care, `/policies/${policy.id}/draft`, {
      method: 'DELETE',
      body: { basedOnVersionId: first.body.policy.draftVersionId },
    });
    const none = await raise(first.body.policy, 27000);
    expect(none.status).toBe(409);
    expect(none.body.message).toContain('no draft');
  });
});

describe('terminate, withdraw and restore', () => {
  it('terminates from a date within the contract, ending the timeline there', async () => {
    const policy = await withDraft();
    const res = await post(care, `/policies/${policy.id}/terminate`, {
      basedOnVersionId: policy.currentVersionId,
      terminationDate: '2025-08-15',
      reason: 'Vehicle sold',
    });
    expect(res.status).toBe(200);
    const ended: Policy = res.body.policy;
    expect(ended).toMatchObject({
      status: 'TERMINATED',
      terminationDate: '2025-08-15T00:00:00.000Z',
      terminationReason: 'Vehicle sold',
      draftVersionId: null,
    });
    const current = currentOf(ended);
    expect(current.versionNumber).toBe(2);
    expect(current.metadata).toMatchObject({
      reason: 'terminated',
      terminationReason: 'Vehicle sold',
    });
    expect(current.timeline.map((s) => [s.from, s.to])).toEqual([
      ['2025-03-01T00:00:00.000Z', '2025-08-15T00:00:00.000Z'],
    ]);
    // The draft built on the old version went with it.
    expect(ended.versions.some((v) => v.isDraft)).toBe(false);

    const again = await post(care, `/policies/${policy.id}/terminate`, {
      basedOnVersionId: ended.currentVersionId,
      terminationDate: '2025-09-01',
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'illegal_transition',
      message: 'a TERMINATED policy cannot be terminated',
    });
    const draft = await post(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: ended.currentVersionId,
    });
    expect(draft.status).toBe(409);
    expect(draft.body.message).toBe('a TERMINATED policy cannot be changed');
  });

  it('previews and stores the earned premium pro rata and the refund in cents', async () => {
    const policy = await newPolicy();
    const preview = await post(care, `/policies/${policy.id}/termination-preview`, {
      terminationDate: '2025-08-15',
    });
    expect(preview.status).toBe(200);
    // 192.00 a year, paid for the year from 2025-03-01; 167 of its 365 days insured:
    // 19 200 * 167 / 365 = 8 784.66 cents earned, the rest refunded.
    const figures = {
      terminationDate: '2025-08-15T00:00:00.000Z',
      termDays: 365,
      insuredDays: 167,
      paidPremiumCents: 19200,
      earnedPremiumCents: 8785,
      refundCents: 10415,
      currency: 'EUR',
    };
    expect(preview.body).toEqual({ termination: figures });
    // A preview changes nothing; the same checks as the termination refuse a date outside.
    const still = await call(care, `/policies/${policy.id}`);
    expect(still.body.policy.status).toBe('ACTIVE');
    const outside = await post(care, `/policies/${policy.id}/termination-preview`, {
      terminationDate: '2026-03-02',
    });
    expect(outside.status).toBe(400);
    expect(outside.body.issues).toEqual([{ path: 'terminationDate', code: 'after_end' }]);
    expect((await post(viewer, `/policies/${policy.id}/termination-preview`, figures)).status).toBe(
      403,
    );

    const ended = await post(care, `/policies/${policy.id}/terminate`, {
      basedOnVersionId: policy.currentVersionId,
      terminationDate: '2025-08-15',
    });
    expect(ended.status).toBe(200);
    expect(currentOf(ended.body.policy).metadata).toMatchObject({ termination: figures });
    // On the first day everything is refunded; a terminated policy has nothing to preview.
    const whole = await post(care, `/policies/${(await newPolicy()).id}/termination-preview`, {
      terminationDate: '2025-03-01',
    });
    expect(whole.body.termination).toMatchObject({ earnedPremiumCents: 0, refundCents: 19200 });
    const again = await post(care, `/policies/${policy.id}/termination-preview`, {
      terminationDate: '2025-08-20',
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('illegal_transition');
  });

  it('wants the termination date within the contract', async () => {
    const policy = await newPolicy();
    const terminate = (terminationDate: unknown) =>
      post(care, `/policies/${policy.id}/terminate`, {
        basedOnVersionId: policy.currentVersionId,
        terminationDate,
      });
    for (const [date, code] of [
      ['2025-02-28', 'before_start'],
      ['2026-03-02', 'after_end'],
      ['15.08.2025', 'invalid_date'],
    ] as const) {
      const res = await terminate(date);
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([{ path: 'terminationDate', code }]);
    }
    expect((await terminate(undefined)).status).toBe(400);
    const unchanged = await call(care, `/policies/${policy.id}`);
    expect(unchanged.body.policy.status).toBe('ACTIVE');
    // On the first day: the contract ends as it starts, its data kept.
    const first = await terminate('2025-03-01');
    expect(first.status).toBe(200);
    expect(currentOf(first.body.policy).timeline).toHaveLength(1);
  });

  it('withdraws a live policy, after which nothing changes any more', async () => {
    const policy = await newPolicy();
    const res = await post(care, `/policies/${policy.id}/withdraw`, {
      basedOnVersionId: policy.currentVersionId,
      reason: 'Cooling-off period',
    });
    expect(res.status).toBe(200);
    const withdrawn: Policy = res.body.policy;
    expect(withdrawn.status).toBe('WITHDRAWN');
    expect(currentOf(withdrawn).metadata).toMatchObject({
      reason: 'withdrawn',
      withdrawalReason: 'Cooling-off period',
    });
    const basedOnVersionId = withdrawn.currentVersionId;
    for (const [route, body, message] of [
      ['withdraw', {}, 'a WITHDRAWN policy cannot be withdrawn'],
      ['terminate', { terminationDate: '2025-05-01' }, 'a WITHDRAWN policy cannot be terminated'],
      [
        'restore-policy-version',
        { versionId: policy.currentVersionId },
        'a WITHDRAWN policy cannot be restored to an earlier version',
      ],
      ['draft', {}, 'a WITHDRAWN policy cannot be changed'],
    ] as const) {
      const refused = await post(care, `/policies/${policy.id}/${route}`, {
        basedOnVersionId,
        ...body,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(message);
    }
    // A suspended policy is live: it may be withdrawn.
    const [suspended] = await world
      .db()
      .query<{ id: number }>(
        `SELECT id FROM policies WHERE status = 'SUSPENDED' ORDER BY id LIMIT 1`,
      );
    const seeded = (await call(care, `/policies/${suspended!.id}`)).body.policy as Policy;
    const ok = await post(care, `/policies/${seeded.id}/withdraw`, {
      basedOnVersionId: seeded.currentVersionId,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.policy.status).toBe('WITHDRAWN');
  });

  it('restores a superseded version as a new current one', async () => {
    const policy = await withDraft();
    const patched = await raise(policy, 40000);
    const applied = await put(care, `/policies/${policy.id}`, {
      basedOnVersionId: patched.body.policy.draftVersionId,
    });
    const changed: Policy = applied.body.policy;
    const first = changed.versions.find((v) => v.versionNumber === 1)!;
    const res = await post(care, `/policies/${policy.id}/restore-policy-version`, {
      basedOnVersionId: changed.currentVersionId,
      versionId: first.id,
    });
    expect(res.status).toBe(200);
    const restored: Policy = res.body.policy;
    expect(restored.versions.map((v) => [v.versionNumber, v.revisionStatus])).toEqual([
      [3, 'applied'],
      [2, 'superseded'],
      [1, 'superseded'],
    ]);
    expect(currentOf(restored).metadata).toMatchObject({
      reason: 'restored',
      restoredVersionId: first.id,
      restoredVersionNumber: 1,
    });
    expect(currentOf(restored).timeline.map(vehicleValue)).toEqual([20000]);
    expect(currentOf(restored).timeline[0]!.premium.grandTotal).toBe(192);

    const restore = (versionId: number) =>
      post(care, `/policies/${policy.id}/restore-policy-version`, {
        basedOnVersionId: restored.currentVersionId,
        versionId,
      });
    const current = await restore(restored.currentVersionId);
    expect(current.status).toBe(409);
    expect(current.body.message).toBe('version 3 is the current version already');
    const draft = await post(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: restored.currentVersionId,
    });
    const ofDraft = await restore(draft.body.policy.draftVersionId);
    expect(ofDraft.status).toBe(409);
    expect(ofDraft.body.message).toBe('version 4 is a draft: apply it instead');
    const other = await newPolicy();
    for (const versionId of [other.currentVersionId, 999999]) {
      const unknown = await restore(versionId);
      expect(unknown.status).toBe(400);
      expect(unknown.body.issues).toEqual([{ path: 'versionId', code: 'unknown_version' }]);
    }
  });

  it('restores on a terminated policy within the terminated contract', async () => {
    const policy = await withDraft();
    const patched = await raise(policy, 30000, { effectiveFrom: '2025-10-01' });
    const applied = await put(care, `/policies/${policy.id}`, {
      basedOnVersionId: patched.body.policy.draftVersionId,
    });
    const terminated = await post(care, `/policies/${policy.id}/terminate`, {
      basedOnVersionId: applied.body.policy.currentVersionId,
      terminationDate: '2025-06-30',
    });
    const ended: Policy = terminated.body.policy;
    const changed = ended.versions.find((v) => v.versionNumber === 2)!;
    expect(changed.timeline).toHaveLength(2);
    const res = await post(care, `/policies/${policy.id}/restore-policy-version`, {
      basedOnVersionId: ended.currentVersionId,
      versionId: changed.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.policy.status).toBe('TERMINATED');
    expect(currentOf(res.body.policy).timeline.map((s: Slice) => s.to)).toEqual([
      '2025-06-30T00:00:00.000Z',
    ]);
  });

  it('lets exactly one of two concurrent writes on the same version win', async () => {
    const policy = await newPolicy();
    const [a, b] = await Promise.all([
      post(care, `/policies/${policy.id}/terminate`, {
        basedOnVersionId: policy.currentVersionId,
        terminationDate: '2025-07-01',
      }),
      post(care, `/policies/${policy.id}/withdraw`, { basedOnVersionId: policy.currentVersionId }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.error).toBe('version_conflict');
    expect(loser.body.policy.currentVersionId).not.toBe(policy.currentVersionId);
    expect(['TERMINATED', 'WITHDRAWN']).toContain(loser.body.policy.status);

    // The same for two writes on one draft (PostgreSQL runs these in tests/integration/
    // sandbox-postgres.test.ts with the row lock held, so that they surely overlap).
    const drafted = await withDraft();
    const based = { basedOnVersionId: drafted.draftVersionId };
    const onDraft = await Promise.all([
      put(care, `/policies/${drafted.id}`, based),
      patch(care, `/policies/${drafted.id}/draft`, {
        ...based,
        policyObjects: [{ insuredObjectId: carObjects.vehicle, data: { vehicleValue: 30000 } }],
      }),
    ]);
    expect(onDraft.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(onDraft.find((r) => r.status === 409)!.body.error).toBe('version_conflict');
  });

  it('is a conflict with the current policy when the version moved on', async () => {
    const policy = await newPolicy();
    const draft = await post(care, `/policies/${policy.id}/draft`, {
      basedOnVersionId: policy.currentVersionId,
    });
    const applied = await put(care, `/policies/${policy.id}`, {
      basedOnVersionId: draft.body.policy.draftVersionId,
    });
    for (const [route, body] of [
      ['terminate', { terminationDate: '2025-07-01' }],
      ['withdraw', {}],
      ['draft', {}],
    ] as const) {
      const stale = await post(care, `/policies/${policy.id}/${route}`, {
        basedOnVersionId: policy.currentVersionId,
        ...body,
      });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toBe('version_conflict');
      expect(stale.body.message).toContain('changed meanwhile');
      expect(stale.body.policy.currentVersionId).toBe(applied.body.policy.currentVersionId);
    }
  });
});

/** Every lifecycle write on a policy with a draft, as `session`. */
const everyWrite = (session: Session, policy: Policy) => [
  post(session, `/policies/${policy.id}/draft`, { basedOnVersionId: policy.currentVersionId }),
  patch(session, `/policies/${policy.id}/draft`, {
    basedOnVersionId: policy.draftVersionId,
    policyObjects: [],
  }),
  call(session, `/policies/${policy.id}/draft`, {
    method: 'DELETE',
    body: { basedOnVersionId: policy.draftVersionId },
  }),
  put(session, `/policies/${policy.id}`, { basedOnVersionId: policy.draftVersionId }),
  post(session, `/policies/${policy.id}/terminate`, {
    basedOnVersionId: policy.currentVersionId,
    terminationDate: '2025-07-01',
  }),
  post(session, `/policies/${policy.code}/withdraw`, {
    basedOnVersionId: policy.currentVersionId,
  }),
  post(session, `/policies/${policy.id}/restore-policy-version`, {
    basedOnVersionId: policy.currentVersionId,
    versionId: policy.currentVersionId,
  }),
];

describe('lifecycle access', () => {
  it('answers the other tenant exactly like an unknown policy', async () => {
    const policy = await withDraft();
    const attempts = [
      call(nord, `/policies/${policy.id}/draft`),
      call(nord, `/policies/${policy.code}/versions`),
      ...everyWrite(nord, policy),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Policy does not exist');
    }
    const unchanged = await call(care, `/policies/${policy.id}`);
    expect(unchanged.body.policy.status).toBe('ACTIVE');
    expect(unchanged.body.policy.draftVersionId).toBe(policy.draftVersionId);
  });

  it('needs policies.update for every lifecycle write, current or legacy', async () => {
    const policy = await withDraft();
    for (const res of await Promise.all(everyWrite(viewer, policy))) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('forbidden');
    }
    expect((await call(viewer, `/policies/${policy.id}/draft`)).status).toBe(200);
    await setPermissions(world.db(), 'noui@demo.test', 'eis.policies.update');
    const patched = await patch(noui, `/policies/${policy.id}/draft`, {
      basedOnVersionId: policy.draftVersionId,
      policyObjects: [],
    });
    expect(patched.status).toBe(200);
    expect((await call(noui, `/policies/${policy.id}/draft`)).status).toBe(403);
    await setPermissions(world.db(), 'noui@demo.test', 'policy-management.policies.view');
  });
});

describe('GET /policies/{id}/versions', () => {
  let policy: Policy;
  beforeAll(async () => {
    const first = await withDraft();
    const patched = await raise(first, 31000);
    const applied = await put(care, `/policies/${first.id}`, {
      basedOnVersionId: patched.body.policy.draftVersionId,
    });
    const draft = await post(care, `/policies/${first.id}/draft`, {
      basedOnVersionId: applied.body.policy.currentVersionId,
    });
    policy = (await raise(draft.body.policy, 32000)).body.policy;
  });
  const numbers = async (query: string) => {
    const res = await call(viewer, `/policies/${policy.id}/versions?${query}`);
    expect(res.status).toBe(200);
    return res.body.items.map((v: Version) => v.versionNumber);
  };

  it('lists every version newest first with its timeline', async () => {
    const res = await call(viewer, `/policies/${policy.code}/versions`);
    expect(res.body.items.map((v: Version) => v.revisionStatus)).toEqual([
      'draft',
      'applied',
      'superseded',
    ]);
    expect(res.body.items[0].timeline[0].policyObjects).toHaveLength(3);
    expect(res.body.nextPageToken).toBeNull();
    const paged = await call(viewer, `/policies/${policy.id}/versions?pageSize=2`);
    expect(paged.body.nextPageToken).toBe('2');
    expect(await numbers('pageSize=2&pageToken=2')).toEqual([1]);
    expect(await numbers('order=versionNumber:ASC')).toEqual([1, 2, 3]);
  });

  it('searches with the colon operator and bare words over the object data', async () => {
    expect(await numbers('search=revisionStatus:draft')).toEqual([3]);
    expect(await numbers('search=isCurrent:true')).toEqual([2]);
    expect(await numbers('search=isDraft:false')).toEqual([2, 1]);
    expect(await numbers('search=versionNumber:1')).toEqual([1]);
    const month = new Date().toISOString().slice(0, 7);
    expect(await numbers(`search=createdAt:${month}`)).toEqual([3, 2, 1]);
    expect(await numbers('search=createdAt:1999')).toEqual([]);
    expect(await numbers('search=32000')).toEqual([3]);
    expect(await numbers('search=3100')).toEqual([2]);
    expect(await numbers('search=revisionStatus:superseded%2020000')).toEqual([1]);
    expect(await numbers('search=revisionStatus:applied+20000')).toEqual([]);
  });

  it('refuses unknown keys and values, and unknown policies', async () => {
    for (const search of [
      'colour:red',
      'revisionStatus:lost',
      'isCurrent:yes',
      'createdAt:May',
      'versionNumber:x',
    ]) {
      const res = await call(viewer, `/policies/${policy.id}/versions?search=${search}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^search: /);
    }
    expect((await call(viewer, `/policies/999999/versions`)).status).toBe(404);
    expect((await call(viewer, `/policies/${policy.id}/versions?order=id:ASC`)).status).toBe(400);
  });
});

describe('GET /policies/policy-objects', () => {
  it('lists the objects of the policies in force, filtered and paged by keyset', async () => {
    const policy = await withDraft();
    const mine = await call(viewer, `/policies/policy-objects?filter=policyCode=${policy.code}`);
    expect(mine.status).toBe(200);
    // The current version's three objects, not the draft's copies.
    expect(mine.body.items).toHaveLength(3);
    expect(
      mine.body.items.every(
        (o: { policyVersionId: number }) => o.policyVersionId === policy.currentVersionId,
      ),
    ).toBe(true);
    const ofDraft = await call(
      viewer,
      `/policies/policy-objects?filter=policyCode=${policy.code}%26policyVersionId=${policy.draftVersionId}`,
    );
    expect(ofDraft.body.items).toHaveLength(3);
    const vehicles = await call(
      viewer,
      `/policies/policy-objects?filter=policyCode=${policy.code}%26insuredObjectId=${carObjects.vehicle}`,
    );
    expect(
      vehicles.body.items.map((o: { insuredObjectName: string }) => o.insuredObjectName),
    ).toEqual(['vehicle']);

    const first = await call(viewer, '/policies/policy-objects?pageSize=20');
    expect(first.body.items).toHaveLength(20);
    expect(first.body.nextPageToken).toMatch(/^2\.\d+\.d$/);
    const second = await call(
      viewer,
      `/policies/policy-objects?pageSize=20&pageToken=${first.body.nextPageToken}`,
    );
    expect(second.body.items[0].id).toBeLessThan(first.body.items.at(-1).id);
  });

  it('keeps tenants apart and checks its parameters and permission', async () => {
    const policy = await newPolicy();
    const theirs = await call(nord, `/policies/policy-objects?filter=policyCode=${policy.code}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
    expect((await call(viewer, '/policies/policy-objects?filter=insuredObjectId=x')).status).toBe(
      400,
    );
    expect((await call(viewer, '/policies/policy-objects?filter=colour=red')).status).toBe(400);
    expect((await call(viewer, '/policies/policy-objects?pageToken=5')).status).toBe(400);
    await setPermissions(world.db(), 'noui@demo.test', 'policy-management.products.view');
    expect((await call(noui, '/policies/policy-objects')).status).toBe(403);
    await setPermissions(world.db(), 'noui@demo.test', 'policy-management.policies.view');
  });
});
