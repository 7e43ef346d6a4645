import { Router } from 'express';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError, invalidInput } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { equals, mountReads, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import {
  auditIso,
  iso,
  recordKey,
  userNameSql,
  type Audit,
} from '#server/sandbox/platform/records.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { canClaims, findClaim, presentClaim, refused, type ClaimRow } from './claim-routes.ts';
import { recordChange, type AuditEvent } from '#server/sandbox/platform/audit-trail.ts';
import {
  PAYMENT_APPROVAL_PERMISSION,
  PAYMENT_REVERSAL_PERMISSION,
  canPayClaim,
  canSettleClaim,
  paymentIssues,
} from '#common/claims.ts';
import {
  PaymentDecisionBody,
  PaymentReversalBody,
  SettlementCreateBody,
  SettlementUpdateBody,
} from '#common/contracts/claim.ts';
import { paymentLimitOf } from './payment-limits.ts';

/**
 * Settlements of a claim (docs/contracts.md, "Claims (sandbox)"): per insured object of the
 * claim's policy, the reserve set aside, the payment made and the recourse recovered, in cents of
 * the workspace's currency. Written only while the claim is neither closed nor rejected; edits
 * carry the version they were based on.
 *
 * Payment control (issue 15): a payment is booked only on an approved (or settled) claim and
 * never above the settlement's reserve; a raise of the payment above the caller's authority
 * limit (payment-limits.ts) is recorded as a pending payment request instead, which another user
 * holding the approval permission approves (then it counts as paid) or rejects. A settlement
 * holding a payment, a recourse or a pending request is never deleted, and a booked payment is
 * never lowered (which would let it be deleted after).
 */

interface SettlementRow extends Audit {
  id: number;
  code: string;
  claim_code: string;
  insured_object: string;
  reserve: string | number;
  payment: string | number;
  recourse: string | number;
  currency: string;
  version: number;
  pending_payment: string | number | null;
  requested_by: string | null;
  requested_at: Date | null;
  reversed_payment: string | number;
  reversal_amount: string | number | null;
  reversal_reason: string | null;
  reversed_by: string | null;
  reversed_at: Date | null;
  reversed_by_name: string | null;
}

const SELECT_SETTLEMENT = `
  SELECT s.id, s.code, c.code AS claim_code, s.insured_object, s.reserve, s.payment, s.recourse,
         s.currency, s.version, s.created_at, s.updated_at, s.created_by, s.updated_by,
         r.payment AS pending_payment, r.requested_by, r.requested_at,
         coalesce(-x.total, 0) AS reversed_payment, x.amount AS reversal_amount,
         x.reason AS reversal_reason, x.reversed_by, x.reversed_at,
         ${userNameSql('x.reversed_by', 'reversed_by_name')}
    FROM settlements s
    JOIN claims c ON c.id = s.claim_id AND c.tenant_id = s.tenant_id
    LEFT JOIN settlement_payment_requests r ON r.settlement_id = s.id AND r.status = 'pending'
    LEFT JOIN LATERAL (
      SELECT z.amount, z.reason, z.reversed_by, z.reversed_at,
             sum(z.amount) OVER ()::bigint AS total
        FROM settlement_payment_reversals z
       WHERE z.tenant_id = s.tenant_id AND z.settlement_id = s.id
       ORDER BY z.id DESC LIMIT 1
    ) x ON true`;

// bigint columns come back as text from PostgreSQL; amounts stay below 2^53.
const presentSettlement = (r: SettlementRow) => ({
  id: r.id,
  code: r.code,
  claimCode: r.claim_code,
  insuredObject: r.insured_object,
  reserve: Number(r.reserve),
  payment: Number(r.payment),
  recourse: Number(r.recourse),
  currency: r.currency,
  pendingPayment:
    r.pending_payment !== null && r.requested_by !== null && r.requested_at !== null
      ? {
          payment: Number(r.pending_payment),
          requestedBy: r.requested_by,
          requestedAt: iso(r.requested_at),
        }
      : null,
  // What of the booked payment was reversed (positive cents); paid is payment − reversedPayment.
  reversedPayment: Number(r.reversed_payment),
  // The latest counter-entry (negative cents), with why, who and when.
  paymentReversal:
    r.reversal_amount !== null &&
    r.reversal_reason !== null &&
    r.reversed_by !== null &&
    r.reversed_at !== null
      ? {
          payment: Number(r.reversal_amount),
          reason: r.reversal_reason,
          by: r.reversed_by,
          byName: r.reversed_by_name,
          at: iso(r.reversed_at),
        }
      : null,
  version: r.version,
  ...auditIso(r),
});

/**
 * A settlement's change for its claim's history: the fields under `settlement.` (reserve,
 * payment, pendingPayment.payment, …); `before` null for a new one, `after` null for a removed.
 */
const settlementEvent = (
  action: string,
  before: SettlementRow | null,
  after: SettlementRow | null,
): AuditEvent => {
  const any = (after ?? before)!;
  // The claim it belongs to is the history's own record, and the workspace's currency does not
  // change: neither is news to a reader of the claim's history.
  // Nothing reversed is no news either: the field shows once a reversal is booked.
  const fields = (r: SettlementRow) => {
    const {
      claimCode: _claim,
      currency: _currency,
      reversedPayment,
      ...settlement
    } = presentSettlement(r);
    return { settlement: reversedPayment ? { ...settlement, reversedPayment } : settlement };
  };
  return {
    entityType: 'claim',
    entityId: any.claim_code,
    action,
    before: before ? fields(before) : { settlement: null },
    after: after ? fields(after) : { settlement: null },
  };
};

const settlementDoesNotExist = () => new HttpError(404, 'not_found', 'Settlement does not exist');

async function findSettlement(
  db: Queryable,
  tenantId: number,
  key: string,
  lock = false,
): Promise<SettlementRow> {
  const { byId, value } = recordKey(key, 'stl', settlementDoesNotExist);
  const [row] = await db.query<SettlementRow>(
    `${SELECT_SETTLEMENT} WHERE s.tenant_id = $1 AND ${byId ? 's.id = $2' : 's.code = $2'}
     ${lock ? 'FOR UPDATE OF s' : ''}`,
    [tenantId, value],
  );
  if (!row) throw settlementDoesNotExist();
  return row;
}

/**
 * A settlement and its claim, both locked for the transaction: the claim first, as every write
 * that touches a claim's rows takes it first (deleting the claim, a status move), so that two
 * writes never wait for each other crosswise.
 */
async function lockSettlement(tx: Queryable, tenantId: number, key: string) {
  const found = await findSettlement(tx, tenantId, key);
  const claim = await findClaim(tx, tenantId, found.claim_code, true);
  return { ...(await findSettlement(tx, tenantId, found.code, true)), claim };
}

/** {@link lockSettlement} for a write on top of `version`: 409 `version_conflict` otherwise. */
async function lockSettlementAt(tx: Queryable, tenantId: number, key: string, version: number) {
  const current = await lockSettlement(tx, tenantId, key);
  if (version !== current.version) {
    throw new HttpError(
      409,
      'version_conflict',
      `settlement was changed meanwhile (version ${current.version}, yours ${version})`,
      { settlement: presentSettlement(current) },
    );
  }
  return current;
}

/** 409 `claim_closed` unless the claim still takes settlements (not closed, not rejected). */
function assertSettleable(claim: ClaimRow): void {
  if (!canSettleClaim(claim.status)) {
    throw new HttpError(
      409,
      'claim_closed',
      `a claim in status "${claim.status}" takes no settlement changes`,
      { claim: presentClaim(claim) },
    );
  }
}

/** 409 `payment_awaiting_approval`: a settlement stays as it is while a payment waits. */
function assertNoPendingPayment(current: SettlementRow & { claim: ClaimRow }): void {
  if (current.pending_payment !== null) {
    throw new HttpError(
      409,
      'payment_awaiting_approval',
      'a payment of this settlement awaits approval',
      { settlement: presentSettlement(current) },
    );
  }
}

/**
 * 409 `payment_already_booked` when an edit would lower the payment booked so far, and
 * `recourse_already_booked` the recourse recovered so far: booked money is never taken back by
 * overwriting it (issue 15 point 11), else lowering it to 0 would let the settlement and then the
 * claim be deleted with the money. What was booked stays on record, with who booked it and when,
 * in the claim's history; a wrong payment is corrected by a reversal (a counter-entry) instead.
 */
function assertNotBelowBooked(
  current: SettlementRow,
  amounts: { payment: number; recourse: number },
): void {
  for (const field of ['payment', 'recourse'] as const) {
    const booked = Number(current[field]);
    if (amounts[field] < booked) {
      throw new HttpError(
        409,
        `${field}_already_booked`,
        `the ${field} booked already (${booked} cents) cannot be lowered`,
        { settlement: presentSettlement(current) },
      );
    }
  }
}

/** 400 unless the name is one of the policy objects of the current version of the claim's policy. */
async function assertInsuredObject(db: Queryable, tenantId: number, claim: ClaimRow, name: string) {
  const [row] = await db.query(
    `SELECT 1 FROM policies p
       JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
       JOIN timeslices t ON t.policy_version_id = v.id
       JOIN policy_objects o ON o.timeslice_id = t.id
      WHERE p.tenant_id = $1 AND p.code = $2 AND o.insured_object_name = $3
      LIMIT 1`,
    [tenantId, claim.policy_code, name],
  );
  if (!row) throw refused('insuredObject', 'unknown_insured_object');
}

/**
 * The payment rules of a settlement's new amounts (400 at `payment`): only on a payable claim,
 * never above the reserve. The answer of `payment_above_reserve` carries the reserve left to pay.
 */
function assertPayment(
  claim: ClaimRow,
  amounts: { reserve: number; payment: number },
  paidBefore: number,
): void {
  const [issue] = paymentIssues(amounts, claim.status, paidBefore);
  if (!issue) return;
  const error = invalidInput([{ path: issue.field, code: issue.code }]);
  if (issue.code !== 'payment_above_reserve') throw error;
  throw new HttpError(
    error.status,
    error.code,
    error.message,
    {
      remainingReserve: Math.max(0, amounts.reserve - paidBefore),
    },
    error.issues,
  );
}

/**
 * Books a raise of the payment to `payment` at once when it is within the caller's authority,
 * otherwise records it as a pending request: answers the payment to store now.
 */
async function bookOrRequest(
  tx: Queryable,
  auth: AuthContext,
  settlementId: number,
  paidBefore: number,
  payment: number,
  at: Date,
): Promise<number> {
  if (payment <= paidBefore) return payment;
  if (payment - paidBefore <= (await paymentLimitOf(tx, auth.tenantId, auth.userId))) {
    return payment;
  }
  await tx.query(
    `INSERT INTO settlement_payment_requests (tenant_id, settlement_id, payment, status,
                                              requested_by, requested_at)
     VALUES ($1, $2, $3, 'pending', $4, $5)`,
    [auth.tenantId, settlementId, payment, auth.userCode, at],
  );
  return paidBefore;
}

/** Spec: lists default to 30; a claim has few settlements, shown on one page of up to 100. */
const MAX_SETTLEMENTS_PAGE_SIZE = 100;

const SETTLEMENT_LIST: ListSource = {
  filters: { claimCode: equals('c.code') },
  orders: { id: 's.id', createdAt: 's.created_at' },
  defaultOrder: ['id', 'ASC'],
  unique: 's.id',
  maxPageSize: MAX_SETTLEMENTS_PAGE_SIZE,
};

export function settlementRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  mountReads<SettlementRow>(router, db, '/settlements', canClaims('view'), {
    source: SETTLEMENT_LIST,
    select: SELECT_SETTLEMENT,
    tenantColumn: 's.tenant_id',
    key: 'settlement',
    find: findSettlement,
    present: presentSettlement,
  });

  router.post('/settlements', canClaims('update'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const body = parseBody(SettlementCreateBody, req.body);
    const created = await db.transaction(async (tx) => {
      // Locked, so that a concurrent status move cannot close the claim under a new settlement.
      const claim = await findClaim(tx, tenantId, body.claimCode, true).catch((error: unknown) => {
        throw error instanceof HttpError && error.status === 404
          ? refused('claimCode', 'unknown_claim')
          : error;
      });
      assertSettleable(claim);
      await assertInsuredObject(tx, tenantId, claim, body.insuredObject);
      assertPayment(claim, body, 0);
      const [row] = await tx.query<{ id: number; code: string }>(
        `INSERT INTO settlements (tenant_id, code, claim_id, insured_object, reserve, payment,
                                  recourse, currency, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8, $8) RETURNING id, code`,
        [
          tenantId,
          newCode('stl'),
          claim.id,
          body.insuredObject,
          body.reserve,
          body.recourse,
          // The claim's currency: the workspace's.
          claim.currency,
          userCode,
        ],
      );
      // The payment is booked after the row exists, so that a request above the limit can
      // name its settlement.
      const payment = await bookOrRequest(
        tx,
        auth,
        row!.id,
        0,
        body.payment,
        new Date(ctx.clock.now()),
      );
      if (payment > 0) {
        await tx.query('UPDATE settlements SET payment = $2 WHERE id = $1', [row!.id, payment]);
      }
      const saved = await findSettlement(tx, tenantId, row!.code);
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        settlementEvent('settlement_added', null, saved),
      );
      return saved;
    });
    res.status(201).json({ settlement: presentSettlement(created) });
  });

  router.put('/settlements/:code', canClaims('update'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId, userCode } = auth;
    const body = parseBody(SettlementUpdateBody, req.body);
    const saved = await db.transaction(async (tx) => {
      const current = await lockSettlementAt(tx, tenantId, String(req.params.code), body.version);
      assertSettleable(current.claim);
      assertNoPendingPayment(current);
      await assertInsuredObject(tx, tenantId, current.claim, body.insuredObject);
      const paidBefore = Number(current.payment);
      assertNotBelowBooked(current, body);
      // A reversed payment frees its share of the reserve again: the gross payment booked may
      // exceed the reserve by what was reversed.
      assertPayment(
        current.claim,
        { reserve: body.reserve + Number(current.reversed_payment), payment: body.payment },
        paidBefore,
      );
      const payment = await bookOrRequest(
        tx,
        auth,
        current.id,
        paidBefore,
        body.payment,
        new Date(ctx.clock.now()),
      );
      const updated = await tx.query(
        `UPDATE settlements SET insured_object = $3, reserve = $4, payment = $5, recourse = $6,
                version = version + 1, updated_at = now(), updated_by = $7
          WHERE tenant_id = $1 AND id = $2
            AND (insured_object, reserve, payment, recourse)
                IS DISTINCT FROM ($3, $4::bigint, $5::bigint, $6::bigint)
          RETURNING id`,
        [tenantId, current.id, body.insuredObject, body.reserve, payment, body.recourse, userCode],
      );
      // Sending what is saved already is no change: the version stays (a new pending request
      // is a change, though).
      if (!updated.length && payment !== body.payment) {
        await tx.query(
          `UPDATE settlements SET version = version + 1, updated_at = now(), updated_by = $2
            WHERE id = $1`,
          [current.id, userCode],
        );
      }
      const saved =
        updated.length || payment !== body.payment
          ? await findSettlement(tx, tenantId, current.code)
          : current;
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        settlementEvent('settlement_changed', current, saved),
      );
      return saved;
    });
    res.json({ settlement: presentSettlement(saved) });
  });

  router.delete('/settlements/:code', canClaims('update'), async (req, res) => {
    const auth = getAuth(res);
    const { tenantId } = auth;
    await db.transaction(async (tx) => {
      const current = await lockSettlement(tx, tenantId, String(req.params.code));
      assertSettleable(current.claim);
      // Money is never deleted (issue 15): what was paid or recovered stays on record.
      if (
        Number(current.payment) > 0 ||
        Number(current.recourse) > 0 ||
        current.pending_payment !== null
      ) {
        throw new HttpError(
          409,
          'settlement_has_payment',
          'a settlement with a payment or recourse cannot be deleted',
          { settlement: presentSettlement(current) },
        );
      }
      await tx.query('DELETE FROM settlements WHERE tenant_id = $1 AND id = $2', [
        tenantId,
        current.id,
      ]);
      await recordChange(
        tx,
        { auth, clock: ctx.clock },
        settlementEvent('settlement_removed', current, null),
      );
    });
    res.status(204).end();
  });

  /**
   * The second person's decision on a pending payment (four-eyes): approving books it (it
   * counts as paid from then on), rejecting drops it; either is kept with who and when. The
   * requester cannot decide their own request.
   */
  router.post(
    '/settlements/:code/payment-decision',
    requirePermission(PAYMENT_APPROVAL_PERMISSION),
    async (req, res) => {
      const auth = getAuth(res);
      const { tenantId, userCode } = auth;
      const body = parseBody(PaymentDecisionBody, req.body);
      const saved = await db.transaction(async (tx) => {
        const current = await lockSettlementAt(tx, tenantId, String(req.params.code), body.version);
        if (current.pending_payment === null) {
          throw new HttpError(409, 'no_pending_payment', 'no payment awaits approval', {
            settlement: presentSettlement(current),
          });
        }
        if (current.requested_by === userCode) {
          throw new HttpError(
            403,
            'approver_is_requester',
            'a payment is approved by another person than who requested it',
          );
        }
        const approve = body.decision === 'approve';
        if (approve) {
          assertSettleable(current.claim);
          if (!canPayClaim(current.claim.status)) {
            throw refused('payment', 'payment_needs_approved_claim');
          }
        }
        const at = new Date(ctx.clock.now());
        await tx.query(
          `UPDATE settlement_payment_requests SET status = $3, decided_by = $4, decided_at = $5
            WHERE tenant_id = $1 AND settlement_id = $2 AND status = 'pending'`,
          [tenantId, current.id, approve ? 'approved' : 'rejected', userCode, at],
        );
        await tx.query(
          `UPDATE settlements SET payment = CASE WHEN $3 THEN $4::bigint ELSE payment END,
                  version = version + 1, updated_at = $5, updated_by = $6
            WHERE tenant_id = $1 AND id = $2`,
          [tenantId, current.id, approve, current.pending_payment, at, userCode],
        );
        const saved = await findSettlement(tx, tenantId, current.code);
        const action = approve ? 'payment_approved' : 'payment_rejected';
        await recordChange(tx, { auth, clock: ctx.clock }, settlementEvent(action, current, saved));
        return saved;
      });
      res.json({ settlement: presentSettlement(saved) });
    },
  );

  /**
   * Reverses what is left of a settlement's booked payment (issue 15): a counter-entry of the
   * negative amount with a reason, who and when; the booked payment itself is never edited. The
   * claim's totals count the payment net of its reversals. Nothing booked is 409
   * `payment_not_booked`, all of it reversed already 409 `payment_already_reversed`.
   */
  router.post(
    '/settlements/:code/payment-reversal',
    requirePermission(PAYMENT_REVERSAL_PERMISSION),
    async (req, res) => {
      const auth = getAuth(res);
      const { tenantId, userCode } = auth;
      const body = parseBody(PaymentReversalBody, req.body);
      const saved = await db.transaction(async (tx) => {
        const current = await lockSettlementAt(tx, tenantId, String(req.params.code), body.version);
        assertSettleable(current.claim);
        assertNoPendingPayment(current);
        const booked = Number(current.payment);
        const open = booked - Number(current.reversed_payment);
        if (open <= 0) {
          const [code, message] =
            booked === 0
              ? ['payment_not_booked', 'the settlement has no booked payment to reverse']
              : ['payment_already_reversed', 'the booked payment was reversed already'];
          throw new HttpError(409, code, message, { settlement: presentSettlement(current) });
        }
        const at = new Date(ctx.clock.now());
        await tx.query(
          `INSERT INTO settlement_payment_reversals (tenant_id, settlement_id, amount, reason,
                                                     reversed_by, reversed_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [tenantId, current.id, -open, body.reason, userCode, at],
        );
        await tx.query(
          `UPDATE settlements SET version = version + 1, updated_at = $3, updated_by = $4
            WHERE tenant_id = $1 AND id = $2`,
          [tenantId, current.id, at, userCode],
        );
        const saved = await findSettlement(tx, tenantId, current.code);
        await recordChange(
          tx,
          { auth, clock: ctx.clock },
          settlementEvent('payment_reversed', current, saved),
        );
        return saved;
      });
      res.json({ settlement: presentSettlement(saved) });
    },
  );

  return router;
}
