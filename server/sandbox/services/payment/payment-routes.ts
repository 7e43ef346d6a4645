import { Router } from 'express';
import * as v from 'valibot';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  type AuthContext,
} from '#server/sandbox/platform/auth-context.ts';
import { HttpError, invalidField } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { callerNameOf, iso, recordKey } from '#server/sandbox/platform/records.ts';
import { equals, listRoute, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import {
  allocatePayment,
  assertCurrency,
  idempotencyKeyOf,
  invoiceNotFound,
  paidStatusOf,
  idempotentWrite,
  type PayableInvoiceRow,
} from '#server/sandbox/services/billing/index.ts';

/**
 * Payments (docs/contracts.md, "Billing and payments (issue 18)"): booking one against invoices
 * with an `Idempotency-Key`, and the list. A payment is allocated to the invoices it names, else
 * to its policy's open invoices oldest due first; more than is due is refused unless it is marked
 * as credit. A booking moves each invoice's paid amount and status (open, partially-paid, paid)
 * with a status entry by name, all in one transaction with the key. Nothing is ever deleted.
 */

const canViewPayments = requirePermission(
  'payment-management.payments.view',
  'eis.finance.payments.view',
);
const canCreatePayments = requirePermission(
  'payment-management.payments.create',
  'eis.finance.payments.create',
);

const paymentNotFound = () => new HttpError(404, 'not_found', 'Payment does not exist');
const policyNotFound = () => new HttpError(404, 'not_found', 'Policy does not exist');

export const PaymentCreateBody = v.pipe(
  v.object({
    amount: v.pipe(
      v.number('must be a number'),
      v.integer('must be an integer (cents)'),
      v.minValue(1, 'must be more than 0'),
      v.maxValue(100_000_000_000),
    ),
    currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO currency code'))),
    method: v.picklist(['sepa', 'invoice', 'card', 'bank-transfer']),
    reference: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
    invoiceCodes: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(80))),
        v.minLength(1),
        v.maxLength(100),
      ),
    ),
    policyCode: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(80))),
    allowCredit: v.optional(v.boolean(), false),
  }),
  v.check(
    (b) => b.invoiceCodes !== undefined || b.policyCode !== undefined,
    'name the invoices (invoiceCodes) or the policy (policyCode)',
  ),
);
type PaymentCreate = v.InferOutput<typeof PaymentCreateBody>;

/** Why a payment is reversed: said by a person, shown in the invoices' status history. */
export const PaymentReverseBody = v.object({
  reason: v.pipe(
    v.string('must be a text'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(500, 'must be at most 500 characters'),
  ),
});
type PaymentReverse = v.InferOutput<typeof PaymentReverseBody>;

interface PaymentRow {
  id: number;
  code: string;
  amount: string;
  currency: string;
  method: string;
  reference: string;
  policy_code: string | null;
  account_number: string | null;
  credit_amount: string;
  status: string;
  booked_at: Date;
  created_at: Date;
  created_by: string;
  created_by_name: string | null;
  reversed_at: Date | null;
  reversed_by_name: string | null;
  reversal_reason: string | null;
  allocations: { invoiceCode: string; amount: number }[];
}

const SELECT_PAYMENT = `
  SELECT p.id, p.code, p.amount, p.currency, p.method, p.reference, p.policy_code,
         p.account_number, p.credit_amount, p.status, p.booked_at, p.created_at, p.created_by,
         p.created_by_name, p.reversed_at, p.reversed_by_name, p.reversal_reason,
         (SELECT coalesce(json_agg(json_build_object('invoiceCode', i.code,
                                                     'amount', a.amount) ORDER BY a.id), '[]')
            FROM payment_allocations a JOIN invoices i ON i.id = a.invoice_id
           WHERE a.payment_id = p.id) AS allocations
    FROM payments p`;

const presentPayment = (r: PaymentRow) => ({
  id: r.id,
  code: r.code,
  amount: Number(r.amount),
  currency: r.currency,
  method: r.method,
  reference: r.reference,
  policyCode: r.policy_code,
  accountNumber: r.account_number,
  allocations: r.allocations.map((a) => ({ invoiceCode: a.invoiceCode, amount: Number(a.amount) })),
  creditAmount: Number(r.credit_amount),
  status: r.status,
  bookedAt: iso(r.booked_at),
  createdAt: iso(r.created_at),
  createdBy: r.created_by,
  createdByName: r.created_by_name,
  reversal: r.reversed_at
    ? { at: iso(r.reversed_at), byName: r.reversed_by_name, reason: r.reversal_reason ?? '' }
    : null,
});

async function findPayment(db: Queryable, tenantId: number, key: string): Promise<PaymentRow> {
  const { byId, value } = recordKey(key, 'pay', paymentNotFound);
  const [row] = await db.query<PaymentRow>(
    `${SELECT_PAYMENT} WHERE p.tenant_id = $1 AND ${byId ? 'p.id' : 'p.code'} = $2`,
    [tenantId, value],
  );
  if (!row) throw paymentNotFound();
  return row;
}

const PAYMENT_LIST: ListSource = {
  filters: {
    policyCode: equals('p.policy_code'),
    accountNumber: equals('p.account_number'),
    invoiceCode: {
      where: (param) => `EXISTS (SELECT 1 FROM payment_allocations a
                                   JOIN invoices i ON i.id = a.invoice_id
                                  WHERE a.payment_id = p.id AND i.code = ${param})`,
    },
  },
  search: ['p.reference', 'p.code'],
  orders: { bookedAt: 'p.booked_at', amount: 'p.amount', createdAt: 'p.created_at' },
  defaultOrder: ['bookedAt', 'DESC'],
  unique: 'p.id',
  maxPageSize: 100,
};

interface LockedInvoice extends PayableInvoiceRow {
  paid_amount: string;
}

/** The invoices the payment books against, locked, in the order it takes them. */
async function invoicesToPay(
  tx: Queryable,
  tenantId: number,
  body: PaymentCreate,
): Promise<LockedInvoice[]> {
  const columns = 'id, code, policy_code, account_number, currency, gross_amount, paid_amount';
  if (body.invoiceCodes) {
    const rows = await tx.query<LockedInvoice>(
      `SELECT ${columns} FROM invoices WHERE tenant_id = $1 AND code = ANY($2::text[])
        ORDER BY id FOR UPDATE`,
      [tenantId, body.invoiceCodes],
    );
    const byCode = new Map(rows.map((r) => [r.code, r]));
    return body.invoiceCodes.map((code) => {
      const row = byCode.get(code);
      if (!row) throw invoiceNotFound();
      return row;
    });
  }
  const [policy] = await tx.query('SELECT 1 FROM policies WHERE tenant_id = $1 AND code = $2', [
    tenantId,
    body.policyCode,
  ]);
  if (!policy) throw policyNotFound();
  return tx.query<LockedInvoice>(
    `SELECT ${columns} FROM invoices
      WHERE tenant_id = $1 AND policy_code = $2 AND gross_amount > paid_amount
      ORDER BY due_date, id FOR UPDATE`,
    [tenantId, body.policyCode],
  );
}

/** Books the payment: answers its id. */
async function bookPayment(
  tx: Queryable,
  ctx: SandboxContext,
  auth: AuthContext,
  body: PaymentCreate,
): Promise<number> {
  const invoices = await invoicesToPay(tx, auth.tenantId, body);
  const [settings] = await tx.query<{ currency: string }>(
    'SELECT currency FROM general_settings WHERE tenant_id = $1',
    [auth.tenantId],
  );
  const currency = body.currency ?? invoices[0]?.currency ?? settings?.currency ?? 'EUR';
  await assertCurrency(tx, currency);
  if (invoices.some((i) => i.currency !== currency))
    throw invalidField('currency', 'currency_mismatch', 'the invoices are in another currency');
  const { allocations, credit, due } = allocatePayment(
    body.amount,
    invoices.map((i) => ({ id: i.id, gross: Number(i.gross_amount), paid: Number(i.paid_amount) })),
  );
  if (credit > 0 && !body.allowCredit)
    throw new HttpError(
      409,
      'payment_exceeds_due',
      `the payment of ${body.amount} cents is more than the ${due} cents due; book the rest as credit (allowCredit) or lower the amount`,
      { due },
    );
  const now = new Date(ctx.clock.now());
  const byName = await callerNameOf(tx, auth);
  const first = invoices[0];
  const [payment] = await tx.query<{ id: number; code: string }>(
    `INSERT INTO payments (tenant_id, code, amount, currency, method, reference, policy_code,
                           account_number, credit_amount, booked_at, created_at, updated_at,
                           created_by, updated_by, created_by_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $10, $11, $11, $12)
     RETURNING id, code`,
    [
      auth.tenantId,
      newCode('pay'),
      body.amount,
      currency,
      body.method,
      body.reference,
      body.policyCode ?? first?.policy_code ?? null,
      first?.account_number ?? null,
      credit,
      now,
      auth.userCode,
      byName,
    ],
  );
  if (allocations.length) {
    const paidAfter = allocations.map((a) => {
      const invoice = invoices.find((i) => i.id === a.id)!;
      const paid = Number(invoice.paid_amount) + a.amount;
      return { ...a, paid, status: paidStatusOf(Number(invoice.gross_amount), paid) };
    });
    await tx.query(
      `INSERT INTO payment_allocations (tenant_id, payment_id, invoice_id, amount)
       SELECT $1, $2, * FROM unnest($3::int[], $4::bigint[])`,
      [auth.tenantId, payment!.id, allocations.map((a) => a.id), allocations.map((a) => a.amount)],
    );
    await tx.query(
      `UPDATE invoices i SET paid_amount = x.paid, status = x.status, updated_at = $3,
              updated_by = $4
         FROM unnest($2::int[], $5::bigint[], $6::text[]) AS x(id, paid, status)
        WHERE i.tenant_id = $1 AND i.id = x.id`,
      [
        auth.tenantId,
        paidAfter.map((a) => a.id),
        now,
        auth.userCode,
        paidAfter.map((a) => a.paid),
        paidAfter.map((a) => a.status),
      ],
    );
    await tx.query(
      `INSERT INTO invoice_statuses (tenant_id, invoice_id, status, at, by, by_name)
       SELECT $1, x.id, x.status, $4, $5, $6 FROM unnest($2::int[], $3::text[]) AS x(id, status)`,
      [
        auth.tenantId,
        paidAfter.map((a) => a.id),
        paidAfter.map((a) => a.status),
        now,
        auth.userCode,
        byName,
      ],
    );
  }
  await recordChange(
    tx,
    { auth, clock: ctx.clock },
    {
      entityType: 'payment',
      entityId: payment!.code,
      entityLabel: body.reference || payment!.code,
      action: 'booked',
      changes: [
        { field: 'amount', before: null, after: body.amount },
        { field: 'creditAmount', before: null, after: credit },
        {
          field: 'allocations',
          before: null,
          after: allocations.map((a) => ({
            invoiceCode: invoices.find((i) => i.id === a.id)!.code,
            amount: a.amount,
          })),
        },
      ],
    },
  );
  return payment!.id;
}

/**
 * Reverses a booked payment (its code or id): the payment stays, marked `reversed` with who,
 * when and why; the amounts it had allocated come off its invoices (allocations stay as the
 * record of what it had paid), each invoice goes back to open or partially paid with a status
 * entry carrying the reason, and an audit event `payment`/`reversed` says what changed. A payment
 * reversed already is a 409. Answers the payment's id.
 */
async function reversePayment(
  tx: Queryable,
  ctx: SandboxContext,
  auth: AuthContext,
  key: string,
  body: PaymentReverse,
): Promise<number> {
  const { byId, value } = recordKey(key, 'pay', paymentNotFound);
  const [payment] = await tx.query<{ id: number; code: string; status: string; reference: string }>(
    `SELECT id, code, status, reference FROM payments
      WHERE tenant_id = $1 AND ${byId ? 'id' : 'code'} = $2 FOR UPDATE`,
    [auth.tenantId, value],
  );
  if (!payment) throw paymentNotFound();
  if (payment.status === 'reversed')
    throw new HttpError(409, 'payment_already_reversed', 'this payment has been reversed already');
  const now = new Date(ctx.clock.now());
  const byName = await callerNameOf(tx, auth);
  const undone = await tx.query<{ id: number; code: string; status: string; amount: string }>(
    `WITH a AS (SELECT invoice_id, amount FROM payment_allocations
                 WHERE tenant_id = $1 AND payment_id = $2)
     UPDATE invoices i
        SET paid_amount = i.paid_amount - a.amount,
            status = CASE WHEN i.paid_amount - a.amount > 0 THEN 'partially-paid' ELSE 'open' END,
            updated_at = $3, updated_by = $4
       FROM a
      WHERE i.tenant_id = $1 AND i.id = a.invoice_id
      RETURNING i.id, i.code, i.status, a.amount`,
    [auth.tenantId, payment.id, now, auth.userCode],
  );
  if (undone.length)
    await tx.query(
      `INSERT INTO invoice_statuses (tenant_id, invoice_id, status, at, by, by_name, reason)
       SELECT $1, x.id, x.status, $4, $5, $6, $7 FROM unnest($2::int[], $3::text[]) AS x(id, status)`,
      [
        auth.tenantId,
        undone.map((u) => u.id),
        undone.map((u) => u.status),
        now,
        auth.userCode,
        byName,
        body.reason,
      ],
    );
  await tx.query(
    `UPDATE payments SET status = 'reversed', reversed_at = $3, reversed_by = $4,
            reversed_by_name = $5, reversal_reason = $6, updated_at = $3, updated_by = $4
      WHERE tenant_id = $1 AND id = $2`,
    [auth.tenantId, payment.id, now, auth.userCode, byName, body.reason],
  );
  await recordChange(
    tx,
    { auth, clock: ctx.clock },
    {
      entityType: 'payment',
      entityId: payment.code,
      entityLabel: payment.reference || payment.code,
      action: 'reversed',
      changes: [
        { field: 'status', before: 'booked', after: 'reversed' },
        { field: 'reason', before: null, after: body.reason },
        {
          field: 'allocations',
          before: undone.map((u) => ({ invoiceCode: u.code, amount: Number(u.amount) })),
          after: null,
        },
      ],
    },
  );
  return payment.id;
}

export function paymentRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get(
    '/payments',
    canViewPayments,
    listRoute<PaymentRow>(db, PAYMENT_LIST, SELECT_PAYMENT, 'p.tenant_id', (rows) =>
      rows.map(presentPayment),
    ),
  );

  router.get('/payments/:code', canViewPayments, async (req, res) => {
    const { tenantId } = getAuth(res);
    res.json({ payment: presentPayment(await findPayment(db, tenantId, String(req.params.code))) });
  });

  router.post(['/payments', '/payments/'], canCreatePayments, async (req, res) => {
    const auth = getAuth(res);
    const key = idempotencyKeyOf(req, true)!;
    const body = parseBody(PaymentCreateBody, req.body);
    const { id, replayed } = await idempotentWrite(
      db,
      auth,
      key,
      { scope: 'payment', body },
      (tx) => bookPayment(tx, ctx, auth, body),
    );
    const row = await findPayment(db, auth.tenantId, String(id));
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.status(replayed ? 200 : 201).json({ payment: presentPayment(row) });
  });

  // Whoever may book a payment may take it back (docs/contracts.md, "Payment reversal").
  router.post('/payments/:code/reverse', canCreatePayments, async (req, res) => {
    const auth = getAuth(res);
    const key = idempotencyKeyOf(req, true)!;
    const body = parseBody(PaymentReverseBody, req.body);
    const code = String(req.params.code);
    const { id, replayed } = await idempotentWrite(
      db,
      auth,
      key,
      { scope: `payment-reversal:${code}`, body },
      (tx) => reversePayment(tx, ctx, auth, code, body),
    );
    const row = await findPayment(db, auth.tenantId, String(id));
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.json({ payment: presentPayment(row) });
  });

  return router;
}
