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
import { invalidField } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { callerNameOf } from '#server/sandbox/platform/records.ts';
import {
  anyOf,
  equals,
  invalidQuery,
  listPage,
  readList,
  type Filter,
  type ListSource,
} from '#server/sandbox/platform/list-sql.ts';
import { listTotals } from '#server/sandbox/platform/list-page.ts';
import { dayOf, isoOfDay, lineOf, totalsOf } from './invoice-engine.ts';
import {
  SELECT_INVOICE,
  findInvoice,
  presentInvoice,
  reserveInvoiceNumbers,
  withDetails,
  type InvoiceRow,
} from './invoice-store.ts';
import { insertItems } from './billing-run.ts';
import { idempotencyKeyOf, idempotentWrite } from './idempotency.ts';

/**
 * The invoices of the billing service (docs/contracts.md, "Billing and payments (issue 18)"):
 * the list with its filters, one invoice, and a manual invoice with validated lines. Computed
 * invoices come from the billing run (billing-run.ts).
 */

export const canViewInvoices = requirePermission(
  'billing-management.invoices.view',
  'eis.finance.invoices.view',
);
const canCreateInvoices = requirePermission(
  'billing-management.invoices.create',
  'eis.finance.invoices.create',
);

/** The sandbox clock's today, the day `isOverdue` compares the due dates with. */
export const todayOf = (ctx: SandboxContext) => isoOfDay(dayOf(ctx.clock.now()));

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (column: string, op: string, name: string): Filter => ({
  where: (p) => `${column} ${op} ${p}::date`,
  value: (text) => {
    if (!ISO_DAY.test(text) || Number.isNaN(Date.parse(text)))
      throw invalidQuery(`${name} must be a date (YYYY-MM-DD)`);
    return text;
  },
});

const INVOICE_LIST: ListSource = {
  filters: {
    policyCode: equals('i.policy_code'),
    accountNumber: equals('i.account_number'),
    accountCode: equals('i.account_code'),
    status: anyOf(
      'i.status',
      /^(open|paid|partially-paid|refunded)$/,
      'status must be open, paid, partially-paid or refunded, or a comma list of them',
    ),
    type: anyOf(
      'i.type',
      /^(initial|recurring|correction|estimated|penalty|other|withdraw|final)$/,
      'type must be an invoice type or a comma list of them',
    ),
    overdue: {
      where: (p) =>
        `(i.status IN ('open', 'partially-paid') AND i.due_date < $2::date) = ${p}::boolean`,
      value: (text) => {
        if (text !== 'true' && text !== 'false')
          throw invalidQuery('overdue must be true or false');
        return text === 'true';
      },
    },
    dueDateFrom: day('i.due_date', '>=', 'dueDateFrom'),
    dueDateTo: day('i.due_date', '<=', 'dueDateTo'),
  },
  search: [
    'i.invoice_number',
    'i.policy_code',
    // The policy number (issue 18): the workspace's matching policies once (a hashed subplan),
    // not a lookup per invoice, so a search of a million invoices costs what it did.
    (p) =>
      `i.policy_code IN (SELECT code FROM policies WHERE tenant_id = $1 AND policy_number ILIKE ${p})`,
  ],
  orders: {
    dueDate: 'i.due_date',
    createdAt: 'i.created_at',
    invoiceNumber: 'i.invoice_number',
    grossAmount: 'i.gross_amount',
  },
  // By keyset (list-keyset.ts): page 1 000 of a million invoices costs what the first does.
  keyset: {
    dueDate: 'date',
    createdAt: 'timestamptz',
    invoiceNumber: 'text',
    grossAmount: 'numeric',
  },
  // The first page's count: the invoices alone, not joined to their currency (every invoice has
  // one); the join with today only binds $2, which the filters may not use.
  countFrom: 'SELECT 1 FROM invoices i CROSS JOIN (SELECT $2::date AS today) AS d',
  // Beyond 10 000 the finance list says "10 000+": an exact count of a million invoices cost
  // the first page 220 ms, and nobody reads its last digit (decision 016).
  countCap: 10_000,
  defaultOrder: ['dueDate', 'DESC'],
  unique: 'i.id',
  expands: ['currency'],
  maxPageSize: 100,
};

// ---- the manual invoice --------------------------------------------------------------------

const integer = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be an integer (amounts in cents)'),
    v.minValue(min),
    v.maxValue(max),
  );
const isoDay = v.pipe(v.string(), v.isoDate('must be a date (YYYY-MM-DD)'));

const InvoiceLineBody = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  quantity: integer(0, 1_000_000),
  pricePerUnit: integer(-10_000_000_000, 10_000_000_000),
  // Percent with up to two decimals (19, 7.25), kept as basis points.
  taxRate: v.optional(
    v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(100),
      v.check((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, 'at most two decimals'),
    ),
    19,
  ),
  unit: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(40)), 'piece'),
});

export const InvoiceCreateBody = v.object({
  policyCode: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64))),
  accountNumber: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64))),
  type: v.optional(v.picklist(['other', 'penalty', 'estimated']), 'other'),
  currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO currency code'))),
  dueDate: isoDay,
  billingIntervalFrom: v.optional(isoDay),
  billingIntervalTo: v.optional(isoDay),
  invoiceItems: v.pipe(v.array(InvoiceLineBody), v.minLength(1), v.maxLength(100)),
});

/** 400 at `currency` for a code the currency table does not know. */
export async function assertCurrency(db: Queryable, code: string): Promise<void> {
  const [known] = await db.query('SELECT 1 FROM currencies WHERE code = $1', [code]);
  if (!known) throw invalidField('currency', 'unknown_currency', `unknown currency ${code}`);
}

async function createInvoice(
  tx: Queryable,
  ctx: SandboxContext,
  auth: AuthContext,
  body: v.InferOutput<typeof InvoiceCreateBody>,
): Promise<number> {
  type PolicyFacts = { account_code: string | null; account_number: string | null; slug: string };
  let policy: PolicyFacts | null = null;
  if (body.policyCode) {
    [policy = null] = await tx.query<PolicyFacts>(
      `SELECT p.account_code, a.account_number, pr.slug FROM policies p
         JOIN products pr ON pr.id = p.product_id
         LEFT JOIN accounts a ON a.tenant_id = p.tenant_id AND a.code = p.account_code
        WHERE p.tenant_id = $1 AND p.code = $2`,
      [auth.tenantId, body.policyCode],
    );
    if (!policy) throw invalidField('policyCode', 'unknown_policy', 'no such policy');
  }
  const [settings] = await tx.query<{ currency: string }>(
    'SELECT currency FROM general_settings WHERE tenant_id = $1',
    [auth.tenantId],
  );
  const currency = body.currency ?? settings?.currency ?? 'EUR';
  await assertCurrency(tx, currency);
  if (
    body.billingIntervalFrom &&
    body.billingIntervalTo &&
    body.billingIntervalFrom > body.billingIntervalTo
  )
    throw invalidField('billingIntervalTo', 'before_from', 'the interval ends before it begins');
  const lines = body.invoiceItems.map((l) =>
    lineOf(l.name, l.quantity, l.pricePerUnit, Math.round(l.taxRate * 100), l.unit),
  );
  const totals = totalsOf(lines);
  // A credit note (negative) is money going back; nothing is due of a zero invoice.
  const status = totals.grossAmount < 0 ? 'refunded' : totals.grossAmount === 0 ? 'paid' : 'open';
  const now = new Date(ctx.clock.now());
  const [number] = await reserveInvoiceNumbers(tx, auth.tenantId, [now.getUTCFullYear()]);
  const [row] = await tx.query<{ id: number; code: string }>(
    `INSERT INTO invoices (tenant_id, code, invoice_number, policy_code, account_number,
                           account_code, product_slug, type, status, net_amount, tax_amount,
                           gross_amount, currency, due_date, billing_interval_from,
                           billing_interval_to, created_at, updated_at, created_by, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $18, $9, $10, $11, $12, $13, $14, $15, $16, $16,
             $17, $17)
     RETURNING id, code`,
    [
      auth.tenantId,
      newCode('inv'),
      number,
      body.policyCode ?? null,
      body.accountNumber ?? policy?.account_number ?? null,
      policy?.account_code ?? null,
      policy?.slug ?? null,
      body.type,
      totals.netAmount,
      totals.taxAmount,
      totals.grossAmount,
      currency,
      body.dueDate,
      body.billingIntervalFrom ?? null,
      body.billingIntervalTo ?? null,
      now,
      auth.userCode,
      status,
    ],
  );
  const id = row!.id;
  await insertItems(tx, auth.tenantId, {
    invoice: lines.map(() => id),
    pos: lines.map((_, i) => i),
    name: lines.map((l) => l.name),
    qty: lines.map((l) => l.quantity),
    price: lines.map((l) => l.pricePerUnit),
    bp: lines.map((l) => l.taxRateBp),
    net: lines.map((l) => l.netAmount),
    tax: lines.map((l) => l.taxAmount),
    gross: lines.map((l) => l.grossAmount),
    unit: lines.map((l) => l.unit),
  });
  await tx.query(
    `INSERT INTO invoice_statuses (tenant_id, invoice_id, status, at, by, by_name)
     VALUES ($1, $2, $6, $3, $4, $5)`,
    [auth.tenantId, id, now, auth.userCode, await callerNameOf(tx, auth), status],
  );
  await recordChange(
    tx,
    { auth, clock: ctx.clock },
    {
      entityType: 'invoice',
      entityId: row!.code,
      entityLabel: number,
      action: 'created',
      before: null,
      after: null,
      changes: [{ field: 'grossAmount', before: null, after: totals.grossAmount }],
    },
  );
  return id;
}

export function invoiceRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/invoices', canViewInvoices, async (req, res) => {
    const auth = getAuth(res);
    const list = readList(req.query, INVOICE_LIST);
    // Currency is expanded unless the call names its expands without it (`expand=`).
    const expandCurrency = req.query.expand === undefined || list.expand.has('currency');
    const page = await listPage<InvoiceRow>(
      db,
      list,
      INVOICE_LIST,
      SELECT_INVOICE,
      { where: ['i.tenant_id = $1'], params: [auth.tenantId, todayOf(ctx)] },
      req.query.pageToken,
    );
    const rows = await withDetails(db, page.items);
    res.json({
      items: rows.map((r) => presentInvoice(r, expandCurrency)),
      nextPageToken: page.nextPageToken,
      ...listTotals(page),
    });
  });

  router.get('/invoices/:code', canViewInvoices, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await findInvoice(db, tenantId, String(req.params.code), todayOf(ctx));
    const expandCurrency =
      req.query.expand === undefined || String(req.query.expand) === 'currency';
    res.json({ invoice: presentInvoice(row, expandCurrency) });
  });

  router.post(['/invoices', '/invoices/'], canCreateInvoices, async (req, res) => {
    const auth = getAuth(res);
    const key = idempotencyKeyOf(req, false);
    const body = parseBody(InvoiceCreateBody, req.body);
    const { id, replayed } = await idempotentWrite(
      db,
      auth,
      key,
      { scope: 'invoice', body },
      (tx) => createInvoice(tx, ctx, auth, body),
    );
    const row = await findInvoice(db, auth.tenantId, String(id), todayOf(ctx));
    if (replayed) res.set('Idempotent-Replayed', 'true');
    // Committed: the document service issues the invoice's document (issue 19). A replay made
    // nothing new. The billing run's and the seeds' invoices are written in bulk and say nothing.
    else
      ctx.events.emit({
        type: 'invoice.created',
        tenantId: auth.tenantId,
        entityCode: row.code,
        by: auth.userCode,
        data: { invoiceNumber: row.invoice_number, grossAmount: Number(row.gross_amount) },
      });
    res.status(replayed ? 200 : 201).json({ invoice: presentInvoice(row, true) });
  });

  return router;
}
