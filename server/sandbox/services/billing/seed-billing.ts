import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { Columns, DAY_MS, mix, stableCode } from '#server/sandbox/platform/seeding.ts';
import { billTenant } from './billing-run.ts';
import { paidStatusOf } from './invoice-engine.ts';
import type { PayableInvoiceRow } from './invoice-store.ts';

/**
 * Demo invoices and payments (issue 18): the billing run over the demo policies' past (their
 * invoices of the last two years and more, each at the policy's billing frequency: monthly,
 * quarterly or yearly; a withdrawn policy's first period, sent before the withdrawal), then
 * payments for most of what fell due, some partial, some none (overdue), every invoice of a
 * terminated or withdrawn policy paid, and the run again, which now refunds those. Every choice
 * follows the invoice's id, so two seeds make the same world. Only into workspaces with policies
 * and no invoices yet, so that a data directory seeded before migration 034 gets them too.
 */

const METHODS = ['sepa', 'bank-transfer', 'card', 'invoice'] as const;
const SEED_LOCK = 724314;

interface DueRow extends PayableInvoiceRow {
  due_ms: number;
  created_ms: number;
  policy_status: string | null;
}

/** The seeded payments of one workspace's invoices; answers how many. */
async function seedPayments(tx: Queryable, tenantId: number, nowMs: number): Promise<number> {
  const invoices = await tx.query<DueRow>(
    `SELECT i.id, i.code, i.policy_code, i.account_number, i.currency, i.gross_amount,
            (extract(epoch FROM i.due_date::timestamp) * 1000)::float8 AS due_ms,
            (extract(epoch FROM i.created_at) * 1000)::float8 AS created_ms, p.status AS policy_status
       FROM invoices i
       LEFT JOIN policies p ON p.tenant_id = i.tenant_id AND p.code = i.policy_code
      WHERE i.tenant_id = $1 AND i.gross_amount > 0 AND i.paid_amount = 0
      ORDER BY i.id`,
    [tenantId],
  );
  const pay = new Columns([
    'code',
    'amount',
    'currency',
    'method',
    'reference',
    'policy',
    'accnum',
    'at',
    'invoice',
    'gross',
  ] as const);
  for (const inv of invoices) {
    const n = mix(inv.id, 18);
    const gross = Number(inv.gross_amount);
    const ended = inv.policy_status === 'TERMINATED' || inv.policy_status === 'WITHDRAWN';
    const overdue = inv.due_ms < nowMs;
    // Past due: seven in ten paid, one in ten half, two in ten not at all; not yet due: half.
    const share = ended ? 2 : overdue ? (n % 10 < 7 ? 2 : n % 10 === 7 ? 1 : 0) : n % 2 ? 2 : 0;
    if (!share) continue;
    const amount = share === 2 ? gross : Math.floor(gross / 2);
    if (amount <= 0) continue;
    const at = Math.min(nowMs - 3_600_000, Math.max(inv.created_ms, inv.due_ms - (n % 9) * DAY_MS));
    pay.push({
      code: stableCode('pay', `${tenantId}:${inv.code}`),
      amount,
      currency: inv.currency,
      method: METHODS[n % METHODS.length],
      reference: `Seed ${inv.code}`,
      policy: inv.policy_code,
      accnum: inv.account_number,
      at: new Date(at).toISOString(),
      invoice: inv.id,
      gross,
    });
  }
  const d = pay.data;
  if (!d.code.length) return 0;
  const ids = await tx.query<{ id: number; code: string }>(
    `INSERT INTO payments (tenant_id, code, amount, currency, method, reference, policy_code,
                           account_number, booked_at, created_at, updated_at)
     SELECT $1, code, amount, currency, method, reference, policy, accnum, at, at, at
       FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::timestamptz[])
         AS x(code, amount, currency, method, reference, policy, accnum, at)
     RETURNING id, code`,
    [tenantId, d.code, d.amount, d.currency, d.method, d.reference, d.policy, d.accnum, d.at],
  );
  const paymentId = new Map(ids.map((r) => [r.code, r.id]));
  const status = d.code.map((_, i) => paidStatusOf(Number(d.gross[i]), Number(d.amount[i])));
  await tx.query(
    `INSERT INTO payment_allocations (tenant_id, payment_id, invoice_id, amount)
     SELECT $1, * FROM unnest($2::int[], $3::int[], $4::bigint[])`,
    [tenantId, d.code.map((c) => paymentId.get(String(c))), d.invoice, d.amount],
  );
  await tx.query(
    `UPDATE invoices i SET paid_amount = x.amount, status = x.status, updated_at = x.at
       FROM unnest($2::int[], $3::bigint[], $4::text[], $5::timestamptz[]) AS x(id, amount, status, at)
      WHERE i.tenant_id = $1 AND i.id = x.id`,
    [tenantId, d.invoice, d.amount, status, d.at],
  );
  await tx.query(
    `INSERT INTO invoice_statuses (tenant_id, invoice_id, status, at, by)
     SELECT $1, id, status, at, 'system'
       FROM unnest($2::int[], $3::text[], $4::timestamptz[]) AS x(id, status, at)`,
    [tenantId, d.invoice, status, d.at],
  );
  return ids.length;
}

export async function seedBilling(db: Db, logger: Logger, clock: Clock): Promise<void> {
  const started = Date.now();
  const nowMs = clock.now();
  const counts = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const tenants = await tx.query<{ id: number }>(
      `SELECT t.id FROM tenants t
        WHERE EXISTS (SELECT 1 FROM policies p WHERE p.tenant_id = t.id)
          AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.tenant_id = t.id)
        ORDER BY t.id`,
    );
    let invoices = 0;
    let payments = 0;
    for (const t of tenants) {
      // A withdrawal comes after the first invoice was sent: the withdrawn policies' first
      // periods as billed on their first day, paid below and refunded by the last run.
      invoices += await billTenant(tx, t.id, nowMs, ['WITHDRAWN'], true);
      invoices += await billTenant(tx, t.id, nowMs);
      payments += await seedPayments(tx, t.id, nowMs);
      // The refunds of the ended policies, now that their invoices are paid.
      invoices += await billTenant(tx, t.id, nowMs, ['TERMINATED', 'WITHDRAWN']);
    }
    return { tenants: tenants.length, invoices, payments };
  });
  if (counts.tenants)
    logger.info({ ...counts, ms: Date.now() - started }, 'sandbox invoices and payments seeded');
}
