import type { PremiumUnit } from '#common/products.ts';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import { Columns, stableCode } from '#server/sandbox/platform/seeding.ts';
import {
  DEFAULT_TAX_RATE_BP,
  centsOf,
  dayOf,
  isoOfDay,
  planInvoices,
  type BillingPolicy,
  type IssuedInvoice,
  type PlannedInvoice,
} from './invoice-engine.ts';
import { reserveInvoiceNumbers } from './invoice-store.ts';

/**
 * The billing run (issue 18): every invoice the policies of every workspace are owed up to the
 * clock's today (invoice-engine.ts), written by `system`. Idempotent: each computed invoice has
 * a key per policy, type and interval, unique in the table, and the engine skips the keys it is
 * given, so a second run on the same day creates nothing. Runs at the sandbox's start and
 * whenever its clock passes into another day (the renewal run's hook, platform/day-run.ts).
 */

/** Runs of all sandboxes on one database never interleave (the renewal run's lock is 724315). */
const RUN_LOCK = 724316;
const BY = 'system';

interface PolicyRow {
  code: string;
  status: string;
  termination_date: Date | null;
  product_slug: string;
  account_code: string | null;
  account_number: string | null;
  tax_rate_bp: number | null;
  currency: string | null;
  data: Record<string, unknown> | null;
  slices: {
    from: string;
    to: string | null;
    premium: { premiumItems?: { premiumFormulaId: number; total: number }[] };
  }[];
}

const MONTHS_OF_UNIT: Readonly<Record<string, number>> = {
  month: 1,
  monthly: 1,
  quarter: 3,
  quarterly: 3,
  halfYear: 6,
  halfYearly: 6,
  year: 12,
  yearly: 12,
};

/**
 * Months per billing period from the policy's `billingFrequencyUnit/Value` (its default
 * object's data, spec section 3); a policy without them is billed once per year.
 */
export function billingMonthsOf(data: Record<string, unknown> | null): number {
  const unit = MONTHS_OF_UNIT[String(data?.billingFrequencyUnit ?? '')];
  const value = Number(data?.billingFrequencyValue ?? 1);
  if (!unit) return 12;
  return unit * (Number.isInteger(value) && value > 0 && value <= 12 ? value : 1);
}

function billingDayOf(data: Record<string, unknown> | null): number | null {
  const day = Number(data?.recurringBillingDay);
  return Number.isInteger(day) && day >= 1 ? Math.min(day, 28) : null;
}

/** One policy row as the engine reads it: euros to cents here, once. */
export function billingPolicyOf(
  row: PolicyRow,
  formulas: ReadonlyMap<number, { name: string; unit: PremiumUnit }>,
): BillingPolicy {
  return {
    code: row.code,
    slices: row.slices.map((s) => ({
      from: dayOf(new Date(s.from).getTime()),
      to: s.to ? dayOf(new Date(s.to).getTime()) : null,
      items: (s.premium.premiumItems ?? []).map((item) => {
        // A formula deleted since is taken as a yearly item of its own (as terminations do).
        const f = formulas.get(item.premiumFormulaId);
        return {
          name: f?.name ?? `Premium ${item.premiumFormulaId}`,
          unit: f?.unit ?? 'year',
          cents: centsOf(item.total),
        };
      }),
    })),
    billingMonths: billingMonthsOf(row.data),
    billingDay: billingDayOf(row.data),
    taxRateBp: row.tax_rate_bp ?? DEFAULT_TAX_RATE_BP,
    status:
      row.status === 'WITHDRAWN'
        ? 'withdrawn'
        : row.status === 'TERMINATED'
          ? 'terminated'
          : 'live',
    terminationDay: row.termination_date ? dayOf(new Date(row.termination_date).getTime()) : null,
  };
}

const POLICIES = `
  SELECT p.code, p.status, p.termination_date, pr.slug AS product_slug, p.account_code,
         a.account_number, tr.tax_rate_bp, g.currency,
         json_agg(json_build_object('from', t."from", 'to', t."to", 'premium', t.premium)
                  ORDER BY t."from") AS slices
    FROM policies p
    JOIN policy_versions v ON v.policy_id = p.id AND v.is_current
    JOIN timeslices t ON t.policy_version_id = v.id
    JOIN products pr ON pr.id = p.product_id
    LEFT JOIN accounts a ON a.tenant_id = p.tenant_id AND a.code = p.account_code
    LEFT JOIN product_tax_rates tr ON tr.tenant_id = p.tenant_id AND tr.product_id = p.product_id
    LEFT JOIN general_settings g ON g.tenant_id = p.tenant_id
   WHERE p.tenant_id = $1 AND ($2::text[] IS NULL OR p.status = ANY($2::text[]))
   GROUP BY p.id, v.id, pr.slug, a.account_number, tr.tax_rate_bp, g.currency
   ORDER BY p.id`;

/**
 * The data of each policy's default object in its current version's last timeslice (billing
 * frequency and day); apart from POLICIES, where as a correlated subquery it cost seconds.
 */
const DEFAULT_DATA = `
  SELECT DISTINCT ON (o.policy_code) o.policy_code, o.data
    FROM policy_objects o
    JOIN timeslices d ON d.id = o.timeslice_id
    JOIN policy_versions v ON v.id = d.policy_version_id AND v.is_current
   WHERE o.tenant_id = $1 AND o.insured_object_name = 'default'
   ORDER BY o.policy_code, d."from" DESC`;

const ISSUED = `
  SELECT i.policy_code, i.billing_key AS key, i.type,
         to_char(i.billing_interval_from, 'YYYY-MM-DD') AS "from",
         to_char(i.billing_interval_to, 'YYYY-MM-DD') AS "to",
         (SELECT coalesce(json_agg(json_build_object('name', it.name, 'netAmount', it.net_amount)),
                          '[]') FROM invoice_items it WHERE it.invoice_id = i.id) AS lines
    FROM invoices i WHERE i.tenant_id = $1 AND i.billing_key IS NOT NULL
     AND ($2::text[] IS NULL OR EXISTS (SELECT 1 FROM policies p WHERE p.tenant_id = i.tenant_id
                                          AND p.code = i.policy_code AND p.status = ANY($2::text[])))`;

const dayOfIso = (iso: string | null) => (iso ? dayOf(Date.parse(`${iso}T00:00:00Z`)) : null);

/** What one workspace's policies are owed as of `nowMs`, computed, not yet written. */
export async function plannedInvoices(
  tx: Queryable,
  tenantId: number,
  nowMs: number,
  /** Only the policies in these statuses (the seed's refunds); all when null. */
  statuses: readonly string[] | null = null,
  /**
   * For the seed: each policy billed as it stood on its first day, live (its first period
   * only), so that a withdrawn policy has the invoice it was sent before the withdrawal, which
   * the run then refunds as its `withdraw` invoice once it is paid.
   */
  asOnFirstDay = false,
) {
  const today = dayOf(nowMs);
  const formulas = new Map(
    (
      await tx.query<{ id: number; name: string; unit: PremiumUnit }>(
        'SELECT id, name, unit FROM premium_formulas WHERE tenant_id = $1',
        [tenantId],
      )
    ).map((f) => [f.id, f] as const),
  );
  const issuedRows = await tx.query<{
    policy_code: string;
    key: string;
    type: string;
    from: string | null;
    to: string | null;
    lines: { name: string; netAmount: string | number }[];
  }>(ISSUED, [tenantId, statuses]);
  const issued = new Map<string, IssuedInvoice[]>();
  for (const r of issuedRows) {
    const list = issued.get(r.policy_code) ?? [];
    list.push({
      key: r.key,
      type: r.type,
      from: dayOfIso(r.from),
      to: dayOfIso(r.to),
      lines: r.lines.map((l) => ({ name: l.name, netAmount: Number(l.netAmount) })),
    });
    issued.set(r.policy_code, list);
  }
  const paid = new Map(
    (
      await tx.query<{ policy_code: string; paid: string }>(
        `SELECT policy_code, sum(paid_amount) AS paid FROM invoices
          WHERE tenant_id = $1 AND policy_code IS NOT NULL GROUP BY policy_code`,
        [tenantId],
      )
    ).map((r) => [r.policy_code, Number(r.paid)]),
  );
  const data = new Map(
    (
      await tx.query<{ policy_code: string; data: Record<string, unknown> }>(DEFAULT_DATA, [
        tenantId,
      ])
    ).map((r) => [r.policy_code, r.data]),
  );
  const rows = (await tx.query<Omit<PolicyRow, 'data'>>(POLICIES, [tenantId, statuses])).map(
    (r) => ({
      ...r,
      data: data.get(r.code) ?? null,
    }),
  );
  const out: { row: PolicyRow; invoice: PlannedInvoice }[] = [];
  for (const row of rows) {
    const policy = billingPolicyOf(row, formulas);
    const firstDay = Math.min(today, policy.slices[0]?.from ?? today);
    const plans = planInvoices(
      asOnFirstDay ? { ...policy, status: 'live' } : policy,
      issued.get(row.code) ?? [],
      asOnFirstDay ? firstDay : today,
      paid.get(row.code) ?? 0,
    );
    for (const invoice of plans) out.push({ row, invoice });
  }
  return out;
}

/** Writes computed invoices with their items and first status, numbered in order of issue. */
async function writeInvoices(
  tx: Queryable,
  tenantId: number,
  planned: { row: PolicyRow; invoice: PlannedInvoice }[],
  nowMs: number,
): Promise<number> {
  if (!planned.length) return 0;
  planned.sort(
    (a, b) =>
      a.invoice.issuedDay - b.invoice.issuedDay || a.invoice.key.localeCompare(b.invoice.key),
  );
  const issuedAt = planned.map((p) => Math.min(nowMs, p.invoice.issuedDay * 86_400_000 + 3600_000));
  const numbers = await reserveInvoiceNumbers(
    tx,
    tenantId,
    issuedAt.map((ms) => new Date(ms).getUTCFullYear()),
  );
  const inv = new Columns([
    'code',
    'number',
    'policy',
    'accnum',
    'acc',
    'slug',
    'type',
    'net',
    'tax',
    'gross',
    'currency',
    'due',
    'from',
    'to',
    'key',
    'at',
  ] as const);
  planned.forEach(({ row, invoice }, i) => {
    inv.push({
      code: stableCode('inv', `${tenantId}:${invoice.key}`),
      number: numbers[i],
      policy: row.code,
      accnum: row.account_number,
      acc: row.account_code,
      slug: row.product_slug,
      type: invoice.type,
      net: invoice.netAmount,
      tax: invoice.taxAmount,
      gross: invoice.grossAmount,
      currency: row.currency ?? 'EUR',
      due: isoOfDay(invoice.dueDay),
      from: isoOfDay(invoice.from),
      to: isoOfDay(invoice.to),
      key: invoice.key,
      at: new Date(issuedAt[i]!).toISOString(),
    });
  });
  const d = inv.data;
  const ids = await tx.query<{ id: number; billing_key: string }>(
    `INSERT INTO invoices (tenant_id, code, invoice_number, policy_code, account_number,
                           account_code, product_slug, type, status, net_amount, tax_amount,
                           gross_amount, currency, due_date, billing_interval_from,
                           billing_interval_to, billing_key, created_at, updated_at, created_by,
                           updated_by)
     SELECT $1, code, number, policy, accnum, acc, slug, type,
            CASE WHEN gross < 0 THEN 'refunded' WHEN gross = 0 THEN 'paid' ELSE 'open' END,
            net, tax, gross, currency,
            due::date, "from"::date, "to"::date, key, at, at, $18, $18
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[],
                   $13::text[], $14::text[], $15::text[], $16::text[], $17::timestamptz[])
         AS x(code, number, policy, accnum, acc, slug, type, net, tax, gross, currency, due,
              "from", "to", key, at)
     RETURNING id, billing_key`,
    [
      tenantId,
      d.code,
      d.number,
      d.policy,
      d.accnum,
      d.acc,
      d.slug,
      d.type,
      d.net,
      d.tax,
      d.gross,
      d.currency,
      d.due,
      d.from,
      d.to,
      d.key,
      d.at,
      BY,
    ],
  );
  const idOf = new Map(ids.map((r) => [r.billing_key, r.id]));
  const items = new Columns([
    'invoice',
    'pos',
    'name',
    'qty',
    'price',
    'bp',
    'net',
    'tax',
    'gross',
    'unit',
  ] as const);
  for (const { invoice } of planned) {
    invoice.lines.forEach((l, pos) =>
      items.push({
        invoice: idOf.get(invoice.key),
        pos,
        name: l.name,
        qty: l.quantity,
        price: l.pricePerUnit,
        bp: l.taxRateBp,
        net: l.netAmount,
        tax: l.taxAmount,
        gross: l.grossAmount,
        unit: l.unit,
      }),
    );
  }
  await insertItems(tx, tenantId, items.data);
  await tx.query(
    `INSERT INTO invoice_statuses (tenant_id, invoice_id, status, at, by, by_name)
     SELECT $1, id, status, created_at, $3, NULL FROM invoices
      WHERE tenant_id = $1 AND id = ANY($2::int[])`,
    [tenantId, ids.map((r) => r.id), BY],
  );
  return ids.length;
}

/** Invoice items as columns (invoice id, position, name, quantity, price, rate, net, tax, ...). */
export async function insertItems(
  tx: Queryable,
  tenantId: number,
  d: Record<
    'invoice' | 'pos' | 'name' | 'qty' | 'price' | 'bp' | 'net' | 'tax' | 'gross' | 'unit',
    unknown[]
  >,
): Promise<void> {
  if (!d.invoice.length) return;
  await tx.query(
    `INSERT INTO invoice_items (tenant_id, invoice_id, position, name, quantity, price_per_unit,
                                tax_rate_bp, net_amount, tax_amount, gross_amount, unit)
     SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[], $5::int[], $6::bigint[],
                              $7::int[], $8::bigint[], $9::bigint[], $10::bigint[], $11::text[])`,
    [tenantId, d.invoice, d.pos, d.name, d.qty, d.price, d.bp, d.net, d.tax, d.gross, d.unit],
  );
}

/** One workspace's run, in the caller's transaction: answers how many invoices it made. */
export async function billTenant(
  tx: Queryable,
  tenantId: number,
  nowMs: number,
  statuses: readonly string[] | null = null,
  /** As `plannedInvoices`' (the seed's withdrawn policies). */
  asOnFirstDay = false,
) {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [RUN_LOCK]);
  return writeInvoices(
    tx,
    tenantId,
    await plannedInvoices(tx, tenantId, nowMs, statuses, asOnFirstDay),
    nowMs,
  );
}

/** The day's run over every workspace, each in a transaction of its own. */
export async function runBilling(db: Db, nowMs: number): Promise<{ invoices: number }> {
  const tenants = await db.query<{ id: number }>('SELECT id FROM tenants ORDER BY id');
  let invoices = 0;
  for (const t of tenants) invoices += await db.transaction((tx) => billTenant(tx, t.id, nowMs));
  return { invoices };
}
