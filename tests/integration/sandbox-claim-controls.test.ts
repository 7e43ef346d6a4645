import { beforeAll, describe, expect, it } from 'vitest';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

/**
 * The insurance controls of claims (issue 15): the cover check and its audited override, payment
 * control (approved claims only, never above the reserve, four-eyes above the authority limit)
 * and no hard delete of money (cancel with a reason instead).
 */

const kit = withSandbox({
  care: 'care@demo.test',
  // Customer care too: a second handler, without the approval permission.
  jonas: 'jonas.becker@demo.test',
  admin: 'admin@demo.test',
  viewer: 'viewer@demo.test',
  nord: 'admin@nordlicht.test',
});
const { care, jonas, admin, viewer, nord } = kit.sessions;
const { call, send } = serviceCalls(kit, '/claimservice/v1');

const ZONE = 'Europe/Berlin';
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface PolicyPick {
  code: string;
  from: string;
  to: string | null;
  object: string;
}

/** A seeded policy of the demo workspace matching `where` (on p, pr), with its term. */
async function pickPolicy(where: string): Promise<PolicyPick> {
  const [row] = await kit.db().query<PolicyPick>(
    `SELECT p.code,
            to_char(min(t."from") AT TIME ZONE $1, 'YYYY-MM-DD') AS "from",
            to_char(max(t."to") AT TIME ZONE $1, 'YYYY-MM-DD') AS "to",
            min(o.insured_object_name) AS object
       FROM policies p
       JOIN tenants tn ON tn.id = p.tenant_id AND tn.slug = 'demo'
       JOIN products pr ON pr.id = p.product_id
       JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
       JOIN timeslices t ON t.policy_version_id = v.id
       JOIN policy_objects o ON o.timeslice_id = t.id
      WHERE ${where} AND p.policy_start_date IS NOT NULL
      GROUP BY p.id ORDER BY p.id LIMIT 1`,
    [ZONE],
  );
  if (!row) throw new Error(`no seeded policy where ${where}`);
  return row;
}

let active: PolicyPick;

beforeAll(async () => {
  // A car policy whose term began ten days ago or earlier: the test claims' losses are on its
  // second day.
  active = await pickPolicy(
    `p.status = 'ACTIVE' AND pr.category = 'car'
     AND EXISTS (SELECT 1 FROM timeslices x WHERE x.policy_version_id = v.id
                  AND x."from" < now() - interval '10 days')`,
  );
});

const claimOn = (policy: PolicyPick, extra: Record<string, unknown> = {}) => ({
  policyCode: policy.code,
  title: 'Rear-end collision',
  damageDate: dayAfter(policy.from, 1),
  claimType: 'damage',
  customFields: { damageLocation: 'Berlin' },
  ...extra,
});

async function approvedClaim() {
  const created = await send(care, 'POST', '/claims', claimOn(active));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  let claim = created.body.claim;
  for (const status of ['in-review', 'approved']) {
    const moved = await send(care, 'PATCH', `/claims/${claim.code}`, {
      status,
      version: claim.version,
    });
    expect(moved.status).toBe(200);
    claim = moved.body.claim;
  }
  return claim as { code: string; version: number; createdBy: string };
}

describe('cover check', () => {
  it('refuses a loss date outside the policy’s term, or on a withdrawn or terminated policy', async () => {
    // A policy that ran out (the renewal run at start expires those that do not renew).
    const ended = await pickPolicy(
      `p.status = 'EXPIRED' AND NOT EXISTS (SELECT 1 FROM timeslices x
         JOIN policy_versions y ON y.id = x.policy_version_id
        WHERE y.policy_id = p.id AND (x."to" IS NULL OR x."to" > now() - interval '3 days'))`,
    );
    const afterEnd = await send(
      care,
      'POST',
      '/claims',
      claimOn(ended, { damageDate: dayAfter(ended.to!, 1), claimType: 'other' }),
    );
    expect(afterEnd.status).toBe(400);
    expect(afterEnd.body.issues).toEqual([{ path: 'damageDate', code: 'no_cover_on_loss_date' }]);
    // The last day of the term is covered, the day it ends is not.
    const lastDay = await send(
      care,
      'POST',
      '/claims',
      claimOn(ended, { damageDate: dayAfter(ended.to!, -1), claimType: 'other' }),
    );
    expect(lastDay.status, JSON.stringify(lastDay.body)).toBe(201);

    const withdrawn = await pickPolicy(`p.status = 'WITHDRAWN'`);
    const onWithdrawn = await send(
      care,
      'POST',
      '/claims',
      claimOn(withdrawn, { claimType: 'other' }),
    );
    expect(onWithdrawn.status).toBe(400);
    expect(onWithdrawn.body.issues).toContainEqual({
      path: 'damageDate',
      code: 'no_cover_on_loss_date',
    });

    // Terminated ten days into its term: a loss before is covered, one on or after is not.
    const terminated = await pickPolicy(`p.status = 'TERMINATED'`);
    await kit.db().query(
      `UPDATE policies SET termination_date = ($2::date + 10)::timestamp AT TIME ZONE $3
          WHERE code = $1`,
      [terminated.code, terminated.from, ZONE],
    );
    const before = await send(
      care,
      'POST',
      '/claims',
      claimOn(terminated, { damageDate: dayAfter(terminated.from, 9), claimType: 'other' }),
    );
    expect(before.status, JSON.stringify(before.body)).toBe(201);
    const after = await send(
      care,
      'POST',
      '/claims',
      claimOn(terminated, { damageDate: dayAfter(terminated.from, 10), claimType: 'other' }),
    );
    expect(after.status).toBe(400);
    expect(after.body.issues).toContainEqual({ path: 'damageDate', code: 'no_cover_on_loss_date' });
  });

  it('refuses a kind of loss the product’s category does not cover, also on an edit', async () => {
    const accident = await pickPolicy(`p.status = 'ACTIVE' AND pr.category = 'accident'`);
    const hail = await send(care, 'POST', '/claims', claimOn(accident, { claimType: 'damage' }));
    expect(hail.status).toBe(400);
    expect(hail.body).toMatchObject({
      error: 'validation_error',
      issues: [{ path: 'claimType', code: 'loss_not_covered' }],
    });
    const injury = await send(care, 'POST', '/claims', claimOn(accident, { claimType: 'health' }));
    expect(injury.status, JSON.stringify(injury.body)).toBe(201);
    const edit = await send(care, 'PATCH', `/claims/${injury.body.claim.code}`, {
      version: injury.body.claim.version,
      claimType: 'theft',
    });
    expect(edit.status).toBe(400);
    expect(edit.body.issues).toEqual([{ path: 'claimType', code: 'loss_not_covered' }]);
  });

  it('lets only the override permission register it anyway, and records who, when and why', async () => {
    const accident = await pickPolicy(`p.status = 'ACTIVE' AND pr.category = 'accident'`);
    const body = claimOn(accident, {
      claimType: 'damage',
      coverOverride: { reason: 'Goodwill: agreed with the broker' },
    });
    // Customer care holds claim-management.claims.* but not the override.
    const byCare = await send(care, 'POST', '/claims', body);
    expect(byCare.status).toBe(403);
    expect(byCare.body.message).toContain('claim-management.cover-overrides.create');
    const empty = await send(admin, 'POST', '/claims', { ...body, coverOverride: { reason: ' ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.issues).toEqual([{ path: 'coverOverride.reason', code: 'required' }]);

    const byAdmin = await send(admin, 'POST', '/claims', body);
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(201);
    const claim = byAdmin.body.claim;
    expect(claim.coverOverride).toMatchObject({
      codes: ['loss_not_covered'],
      reason: 'Goodwill: agreed with the broker',
      by: claim.createdBy,
    });
    expect(Date.parse(claim.coverOverride.at)).not.toBeNaN();
    // By name, also for a reader who may not list users (the viewer).
    expect(claim.coverOverride.byName).toBe('Ada Admin');
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.coverOverride).toEqual(
      claim.coverOverride,
    );
    // The history has the override as a line of its own: what was set aside and why.
    const history = (await call(viewer, `/claims/${claim.code}/history`)).body.items;
    const overridden = history.find((e: { action: string }) => e.action === 'cover_overridden');
    expect(overridden).toMatchObject({
      actorName: 'Ada Admin',
      changes: [
        { field: 'coverOverride.codes', before: null, after: ['loss_not_covered'] },
        { field: 'coverOverride.reason', before: null, after: 'Goodwill: agreed with the broker' },
      ],
    });
    // A claim with cover carries no override, even when one was sent.
    const covered = await send(
      admin,
      'POST',
      '/claims',
      claimOn(active, { coverOverride: { reason: 'x' } }),
    );
    expect(covered.status).toBe(201);
    expect(covered.body.claim.coverOverride).toBeNull();
  });

  it('seeds only claims that have cover', async () => {
    const [row] = await kit.db().query<{ uncovered: number; total: number }>(
      // EXPIRED: the renewal run at start lets some seeded policies run out after their losses.
      `SELECT count(*) FILTER (WHERE p.status NOT IN ('ACTIVE', 'EXPIRED') OR NOT EXISTS (
                SELECT 1 FROM policy_versions v JOIN timeslices t ON t.policy_version_id = v.id
                 WHERE v.policy_id = p.id AND NOT v.is_draft
                   AND to_char(t."from" AT TIME ZONE $1, 'YYYY-MM-DD') <= to_char(c.damage_date, 'YYYY-MM-DD')
                   AND to_char(t."to" AT TIME ZONE $1, 'YYYY-MM-DD') > to_char(c.damage_date, 'YYYY-MM-DD')))::int
                AS uncovered,
              count(*)::int AS total
         FROM claims c JOIN policies p ON p.code = c.policy_code
        WHERE c.created_by = 'system'`,
      [ZONE],
    );
    expect(row!.total).toBeGreaterThanOrEqual(500);
    expect(row!.uncovered).toBe(0);
    const wrongType = await kit.db().query(
      `SELECT c.claim_type, pr.category FROM claims c JOIN products pr ON pr.id = c.product_id
        WHERE c.created_by = 'system'
          AND NOT (pr.category IN ('custom', 'default')
                   OR (pr.category IN ('car', 'motorbike', 'moped')
                       AND c.claim_type IN ('damage', 'theft', 'liability', 'other'))
                   OR (pr.category = 'accident' AND c.claim_type IN ('health', 'other'))
                   OR (pr.category = 'travel' AND c.claim_type IN ('health', 'theft', 'other'))
                   OR (pr.category = 'device' AND c.claim_type IN ('damage', 'theft'))
                   OR (pr.category = 'homeContents' AND c.claim_type IN ('damage', 'theft', 'other'))
                   OR (pr.category = 'legalProtection' AND c.claim_type IN ('liability', 'other'))
                   OR (pr.category = 'bike' AND c.claim_type IN ('damage', 'theft', 'other'))
                   OR (pr.category = 'tpl' AND c.claim_type = 'liability')
                   OR (pr.category = 'health' AND c.claim_type = 'health'))`,
    );
    expect(wrongType).toEqual([]);
  });
});

describe('payment control', () => {
  const settlementOf = (claimCode: string, extra: Record<string, unknown> = {}) => ({
    claimCode,
    insuredObject: active.object,
    reserve: 100_000,
    payment: 0,
    recourse: 0,
    ...extra,
  });

  it('books payments on approved claims only', async () => {
    const created = await send(care, 'POST', '/claims', claimOn(active));
    const open = created.body.claim;
    const early = await send(care, 'POST', '/settlements', settlementOf(open.code, { payment: 1 }));
    expect(early.status).toBe(400);
    expect(early.body.issues).toEqual([{ path: 'payment', code: 'payment_needs_approved_claim' }]);
    // A reserve is set while the claim is reviewed.
    const reserve = await send(care, 'POST', '/settlements', settlementOf(open.code));
    expect(reserve.status).toBe(201);
    const raise = await send(care, 'PUT', `/settlements/${reserve.body.settlement.code}`, {
      version: 1,
      insuredObject: active.object,
      reserve: 100_000,
      payment: 50_000,
      recourse: 0,
    });
    expect(raise.status).toBe(400);
    expect(raise.body.issues).toEqual([{ path: 'payment', code: 'payment_needs_approved_claim' }]);
  });

  it('never pays above the reserve and says what is left of it', async () => {
    const claim = await approvedClaim();
    const settlement = (
      await send(care, 'POST', '/settlements', settlementOf(claim.code, { payment: 30_000 }))
    ).body.settlement;
    expect(settlement).toMatchObject({ reserve: 100_000, payment: 30_000, pendingPayment: null });
    const above = await send(care, 'PUT', `/settlements/${settlement.code}`, {
      version: settlement.version,
      insuredObject: active.object,
      reserve: 100_000,
      payment: 100_001,
      recourse: 0,
    });
    expect(above.status).toBe(400);
    expect(above.body).toMatchObject({
      issues: [{ path: 'payment', code: 'payment_above_reserve' }],
      remainingReserve: 70_000,
    });
    // Raising the reserve first lets the payment through.
    const raised = await send(care, 'PUT', `/settlements/${settlement.code}`, {
      version: settlement.version,
      insuredObject: active.object,
      reserve: 150_000,
      payment: 150_000,
      recourse: 0,
    });
    expect(raised.status).toBe(200);
    expect(raised.body.settlement).toMatchObject({ reserve: 150_000, payment: 150_000 });
  });

  it('holds a payment above the authority limit for a second person’s approval', async () => {
    const claim = await approvedClaim();
    // Customer care may pay 5 000.00 in one step: 6 000.00 waits.
    const created = await send(
      care,
      'POST',
      '/settlements',
      settlementOf(claim.code, { reserve: 1_000_000, payment: 600_000 }),
    );
    expect(created.status).toBe(201);
    const pending = created.body.settlement;
    expect(pending).toMatchObject({
      payment: 0,
      pendingPayment: { payment: 600_000, requestedBy: claim.createdBy },
    });
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.payment).toBe(0);
    // Nothing changes on it while it waits.
    const edit = await send(care, 'PUT', `/settlements/${pending.code}`, {
      version: pending.version,
      insuredObject: active.object,
      reserve: 1_000_000,
      payment: 0,
      recourse: 0,
    });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBe('payment_awaiting_approval');
    expect((await send(care, 'DELETE', `/settlements/${pending.code}`)).status).toBe(409);

    const decide = (session: typeof care, decision: string, version = pending.version) =>
      send(session, 'POST', `/settlements/${pending.code}/payment-decision`, { version, decision });
    // Another handler without the approval permission cannot decide.
    expect((await decide(jonas, 'approve')).status).toBe(403);
    // The requester cannot approve their own payment, even holding the permission.
    await kit.db().query(
      `UPDATE settlement_payment_requests r SET requested_by = u.code
           FROM users u WHERE u.email = 'admin@demo.test' AND r.status = 'pending'
            AND r.settlement_id = $1`,
      [pending.id],
    );
    const own = await decide(admin, 'approve');
    expect(own.status).toBe(403);
    expect(own.body.error).toBe('approver_is_requester');
    await kit.db().query(
      `UPDATE settlement_payment_requests SET requested_by = $2
          WHERE status = 'pending' AND settlement_id = $1`,
      [pending.id, claim.createdBy],
    );

    expect((await decide(admin, 'approve', pending.version + 5)).status).toBe(409);
    const approved = await decide(admin, 'approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.settlement).toMatchObject({
      payment: 600_000,
      pendingPayment: null,
      version: pending.version + 1,
    });
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.payment).toBe(600_000);
    const again = await decide(admin, 'approve', pending.version + 1);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('no_pending_payment');

    const [audit] = await kit
      .db()
      .query<{ status: string; requested_by: string; decided_by: string; decided_at: Date }>(
        `SELECT status, requested_by, decided_by, decided_at FROM settlement_payment_requests
          WHERE settlement_id = $1`,
        [pending.id],
      );
    expect(audit).toMatchObject({ status: 'approved', requested_by: claim.createdBy });
    expect(audit!.decided_by).not.toBe(claim.createdBy);
    expect(audit!.decided_at).toBeInstanceOf(Date);
  });

  it('drops a rejected payment: it never counts as paid', async () => {
    const claim = await approvedClaim();
    const created = await send(
      care,
      'POST',
      '/settlements',
      settlementOf(claim.code, { reserve: 2_000_000, payment: 100_000 }),
    );
    const settlement = created.body.settlement;
    // A raise by 6 000.00 (above the limit) on top of the 1 000.00 paid.
    const raise = await send(care, 'PUT', `/settlements/${settlement.code}`, {
      version: settlement.version,
      insuredObject: active.object,
      reserve: 2_000_000,
      payment: 700_000,
      recourse: 0,
    });
    expect(raise.status).toBe(200);
    expect(raise.body.settlement).toMatchObject({
      payment: 100_000,
      pendingPayment: { payment: 700_000 },
    });
    const rejected = await send(admin, 'POST', `/settlements/${settlement.code}/payment-decision`, {
      version: raise.body.settlement.version,
      decision: 'reject',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.settlement).toMatchObject({ payment: 100_000, pendingPayment: null });
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.payment).toBe(100_000);
  });
});

describe('no hard delete of money', () => {
  it('refuses to delete a claim with settlements and cancels it with a reason instead', async () => {
    const claim = await approvedClaim();
    const settlement = (
      await send(care, 'POST', '/settlements', {
        claimCode: claim.code,
        insuredObject: active.object,
        reserve: 50_000,
        payment: 20_000,
        recourse: 0,
      })
    ).body.settlement;
    const deleted = await send(care, 'DELETE', `/claims/${claim.code}?version=${claim.version}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.error).toBe('claim_has_settlements');

    const noReason = await send(care, 'POST', `/claims/${claim.code}/cancel`, {
      version: claim.version,
      reason: '',
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.issues).toEqual([{ path: 'reason', code: 'required' }]);
    expect(
      (await send(viewer, 'POST', `/claims/${claim.code}/cancel`, { version: 1, reason: 'x' }))
        .status,
    ).toBe(403);
    const stale = await send(care, 'POST', `/claims/${claim.code}/cancel`, {
      version: claim.version + 3,
      reason: 'Duplicate of another claim',
    });
    expect(stale.status).toBe(409);

    const cancelled = await send(care, 'POST', `/claims/${claim.code}/cancel`, {
      version: claim.version,
      reason: 'Duplicate of another claim',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.claim).toMatchObject({
      status: 'closed',
      version: claim.version + 1,
      cancellation: { reason: 'Duplicate of another claim', by: claim.createdBy },
      totals: { reserve: 50_000, payment: 20_000 },
    });
    // The settled data stays, and a closed claim is cancelled once.
    expect((await call(viewer, `/settlements/${settlement.code}`)).body.settlement.payment).toBe(
      20_000,
    );
    const twice = await send(care, 'POST', `/claims/${claim.code}/cancel`, {
      version: claim.version + 1,
      reason: 'again',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('claim_closed');
  });

  it('refuses to lower a booked payment, so that it cannot be zeroed and then deleted', async () => {
    const claim = await approvedClaim();
    const created = await send(care, 'POST', '/settlements', {
      claimCode: claim.code,
      insuredObject: active.object,
      reserve: 50_000,
      payment: 20_000,
      recourse: 0,
    });
    expect(created.status).toBe(201);
    const settlement = created.body.settlement;
    for (const payment of [0, 19_999]) {
      const lowered = await send(care, 'PUT', `/settlements/${settlement.code}`, {
        version: settlement.version,
        insuredObject: active.object,
        reserve: 50_000,
        payment,
        recourse: 0,
      });
      expect(lowered.status).toBe(409);
      expect(lowered.body).toMatchObject({
        error: 'payment_already_booked',
        settlement: { code: settlement.code, payment: 20_000, version: settlement.version },
      });
    }
    // Neither the settlement nor the claim goes, and nothing of the money is lost.
    expect((await send(care, 'DELETE', `/settlements/${settlement.code}`)).status).toBe(409);
    const deleted = await send(care, 'DELETE', `/claims/${claim.code}?version=${claim.version}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.error).toBe('claim_has_settlements');
    const kept = (await call(viewer, `/settlements/${settlement.code}`)).body.settlement;
    expect(kept).toMatchObject({ payment: 20_000, version: settlement.version });
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.payment).toBe(20_000);
    // The claim's history knows only the booking, no change of it.
    const [changes] = await kit.db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events
        WHERE entity_type = 'claim' AND entity_id = $1 AND action = 'settlement_changed'`,
      [claim.code],
    );
    expect(changes!.n).toBe(0);
    // Raising it and changing the rest still work.
    const raised = await send(care, 'PUT', `/settlements/${settlement.code}`, {
      version: settlement.version,
      insuredObject: active.object,
      reserve: 60_000,
      payment: 20_000,
      recourse: 500,
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body.settlement).toMatchObject({ reserve: 60_000, payment: 20_000 });
  });

  it('refuses to lower a booked recourse, as it does a booked payment', async () => {
    const claim = await approvedClaim();
    const created = await send(care, 'POST', '/settlements', {
      claimCode: claim.code,
      insuredObject: active.object,
      reserve: 50_000,
      payment: 0,
      recourse: 7_500,
    });
    expect(created.status).toBe(201);
    const settlement = created.body.settlement;
    for (const recourse of [0, 7_499]) {
      const lowered = await send(care, 'PUT', `/settlements/${settlement.code}`, {
        version: settlement.version,
        insuredObject: active.object,
        reserve: 50_000,
        payment: 0,
        recourse,
      });
      expect(lowered.status).toBe(409);
      expect(lowered.body).toMatchObject({
        error: 'recourse_already_booked',
        settlement: { code: settlement.code, recourse: 7_500, version: settlement.version },
      });
    }
    expect((await send(care, 'DELETE', `/settlements/${settlement.code}`)).status).toBe(409);
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.recourse).toBe(7_500);
    // More recovered later is booked on top.
    const raised = await send(care, 'PUT', `/settlements/${settlement.code}`, {
      version: settlement.version,
      insuredObject: active.object,
      reserve: 50_000,
      payment: 0,
      recourse: 9_000,
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body.settlement.recourse).toBe(9_000);
  });

  it('still deletes a claim that holds no money', async () => {
    const created = await send(care, 'POST', '/claims', claimOn(active));
    const claim = created.body.claim;
    expect((await send(care, 'DELETE', `/claims/${claim.code}?version=1`)).status).toBe(204);
  });
});

describe('payment reversal', () => {
  /** An approved claim with a settlement of 40 000.00 reserve and `payment` booked by admin. */
  async function booked(payment: number) {
    const claim = await approvedClaim();
    const created = await send(admin, 'POST', '/settlements', {
      claimCode: claim.code,
      insuredObject: active.object,
      reserve: 4_000_000,
      payment,
      recourse: 0,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { claim, settlement: created.body.settlement };
  }
  const reverse = (session: typeof admin, code: string, body: Record<string, unknown>) =>
    send(session, 'POST', `/settlements/${code}/payment-reversal`, body);

  it('books a counter-entry with reason, who and when; the totals count it; never twice', async () => {
    const { claim, settlement } = await booked(123_456);
    expect(settlement).toMatchObject({
      payment: 123_456,
      reversedPayment: 0,
      paymentReversal: null,
    });
    const reversed = await reverse(admin, settlement.code, {
      version: settlement.version,
      reason: 'Paid to the wrong account',
    });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(reversed.body.settlement).toMatchObject({
      // The booked amount itself is never edited.
      payment: 123_456,
      reversedPayment: 123_456,
      paymentReversal: {
        payment: -123_456,
        reason: 'Paid to the wrong account',
        by: expect.stringMatching(/^usr_/),
        byName: expect.any(String),
      },
      version: settlement.version + 1,
    });
    const totals = (await call(viewer, `/claims/${claim.code}`)).body.claim.totals;
    expect(totals).toMatchObject({ reserve: 4_000_000, payment: 0 });
    // The counter-entry is in the claim's history, with its reason.
    const [event] = await kit.db().query<{ actor_name: string; changes: unknown }>(
      `SELECT actor_name, changes FROM audit_events
        WHERE entity_type = 'claim' AND entity_id = $1 AND action = 'payment_reversed'`,
      [claim.code],
    );
    expect(event!.actor_name).toBe(reversed.body.settlement.paymentReversal.byName);
    expect(event!.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'settlement.reversedPayment', after: 123_456 }),
        expect.objectContaining({
          field: 'settlement.paymentReversal.reason',
          after: 'Paid to the wrong account',
        }),
      ]),
    );

    const twice = await reverse(admin, settlement.code, {
      version: settlement.version + 1,
      reason: 'Again',
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({
      error: 'payment_already_reversed',
      settlement: { reversedPayment: 123_456 },
    });
    // A stale version is a conflict, not a second reversal.
    const stale = await reverse(admin, settlement.code, {
      version: settlement.version,
      reason: 'Again',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');

    // A payment booked after it is paid (the reversed share of the reserve is free again), and
    // only that new part is reversible.
    const again = await send(admin, 'PUT', `/settlements/${settlement.code}`, {
      version: settlement.version + 1,
      insuredObject: active.object,
      reserve: 4_000_000,
      payment: 123_456 + 4_000_000,
      recourse: 0,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.payment).toBe(4_000_000);
    const second = await reverse(admin, settlement.code, {
      version: again.body.settlement.version,
      reason: 'Duplicate transfer',
    });
    expect(second.body.settlement).toMatchObject({
      reversedPayment: 4_123_456,
      paymentReversal: { payment: -4_000_000, reason: 'Duplicate transfer' },
    });
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.payment).toBe(0);
  });

  it('refuses a settlement without a booked payment, a missing reason and a bad version', async () => {
    const { settlement } = await booked(0);
    const none = await reverse(admin, settlement.code, { version: 1, reason: 'Nothing paid' });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ error: 'payment_not_booked', settlement: { payment: 0 } });
    for (const body of [{ version: 1 }, { version: 1, reason: '  ' }, { reason: 'x' }]) {
      const bad = await reverse(admin, settlement.code, body);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('validation_error');
    }
    const amountGiven = await reverse(admin, settlement.code, {
      version: 1,
      reason: 'x',
      amount: -5,
    });
    expect(amountGiven.status).toBe(400);
  });

  it('needs the reversal permission and keeps tenants apart', async () => {
    const { claim, settlement } = await booked(10_000);
    const body = { version: settlement.version, reason: 'Wrong amount' };
    // Customer care books payments but does not reverse them.
    const byCare = await reverse(care, settlement.code, body);
    expect(byCare.status).toBe(403);
    expect(byCare.body.error).toBe('forbidden');
    expect((await reverse(viewer, settlement.code, body)).status).toBe(403);
    // Another workspace's administrator does not find it.
    const foreign = await reverse(nord, settlement.code, body);
    expect(foreign.status).toBe(404);
    expect((await reverse(nord, String(settlement.id), body)).status).toBe(404);
    const kept = (await call(viewer, `/settlements/${settlement.code}`)).body.settlement;
    expect(kept).toMatchObject({ reversedPayment: 0, version: settlement.version });
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.payment).toBe(10_000);
  });
});
