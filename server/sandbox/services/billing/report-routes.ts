import { Router } from 'express';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { getAuth, requireAuth, requirePermission } from '#server/sandbox/platform/auth-context.ts';
import { invalidQuery } from '#server/sandbox/platform/list-sql.ts';
import { todayOf } from './invoice-routes.ts';

/**
 * The finance report (issue 18, docs/contracts.md "Finance report"): per month and product, in
 * cents, summed by the database. An invoice counts in the month of its due date: `written` its
 * net premium (the computed kinds, refunds and corrections included), `invoiced` its gross,
 * `open` what is still due of it, `overdue` the part of that past due; `paid` is what payments
 * booked in the month allocated to the product's invoices.
 */

const canReadFinance = requirePermission(
  'billing-management.invoices.view',
  'reporting.dashboards.view',
  'eis.finance.invoices.view',
  'eis.finance-dashboards.view',
);

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** At most five years in one report. */
const MAX_MONTHS = 60;

function monthParam(value: unknown, name: string): { first: string; index: number } {
  const match = typeof value === 'string' ? MONTH.exec(value) : null;
  if (!match) throw invalidQuery(`${name} must be a month (YYYY-MM)`);
  return { first: `${value as string}-01`, index: Number(match[1]) * 12 + Number(match[2]) };
}

const REPORT = `
  WITH inv AS (
    SELECT to_char(i.due_date, 'YYYY-MM') AS month, i.product_slug,
           coalesce(sum(i.net_amount) FILTER (WHERE i.type IN
             ('initial', 'recurring', 'correction', 'final', 'withdraw')), 0) AS written,
           sum(i.gross_amount) AS invoiced,
           sum(greatest(i.gross_amount - i.paid_amount, 0)) AS open,
           coalesce(sum(greatest(i.gross_amount - i.paid_amount, 0)) FILTER (WHERE
             i.status IN ('open', 'partially-paid') AND i.due_date < $4::date), 0) AS overdue
      FROM invoices i
     WHERE i.tenant_id = $1 AND i.due_date >= $2::date
       AND i.due_date < ($3::date + interval '1 month')
     GROUP BY 1, 2),
  paid AS (
    SELECT to_char(p.booked_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, i.product_slug,
           sum(a.amount) AS paid
      FROM payment_allocations a
      JOIN payments p ON p.id = a.payment_id
      JOIN invoices i ON i.id = a.invoice_id
     WHERE a.tenant_id = $1 AND p.status = 'booked' AND p.booked_at >= $2::date
       AND p.booked_at < ($3::date + interval '1 month')
     GROUP BY 1, 2)
  SELECT coalesce(inv.month, paid.month) AS month,
         coalesce(inv.product_slug, paid.product_slug) AS product_slug,
         (SELECT pr.name FROM products pr
           WHERE pr.tenant_id = $1 AND pr.slug = coalesce(inv.product_slug, paid.product_slug)
           ORDER BY pr.id LIMIT 1) AS product_name,
         coalesce(inv.written, 0)::float8 AS written, coalesce(inv.invoiced, 0)::float8 AS invoiced,
         coalesce(paid.paid, 0)::float8 AS paid, coalesce(inv.open, 0)::float8 AS open,
         coalesce(inv.overdue, 0)::float8 AS overdue
    FROM inv FULL JOIN paid
      ON paid.month = inv.month AND paid.product_slug IS NOT DISTINCT FROM inv.product_slug
   ORDER BY 1, 2 NULLS LAST`;

export function reportRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/reports/finance', canReadFinance, async (req, res) => {
    const { tenantId } = getAuth(res);
    const from = monthParam(req.query.from, 'from');
    const to = monthParam(req.query.to, 'to');
    if (to.index < from.index) throw invalidQuery('to must not be before from');
    if (to.index - from.index >= MAX_MONTHS)
      throw invalidQuery(`a report spans at most ${MAX_MONTHS} months`);
    const rows = await db.query<{
      month: string;
      product_slug: string | null;
      product_name: string | null;
      written: number;
      invoiced: number;
      paid: number;
      open: number;
      overdue: number;
    }>(REPORT, [tenantId, from.first, to.first, todayOf(ctx)]);
    const [settings] = await db.query<{ currency: string }>(
      'SELECT currency FROM general_settings WHERE tenant_id = $1',
      [tenantId],
    );
    res.json({
      currency: settings?.currency ?? 'EUR',
      rows: rows.map((r) => ({
        month: r.month,
        productSlug: r.product_slug,
        productName: r.product_name,
        written: r.written,
        invoiced: r.invoiced,
        paid: r.paid,
        open: r.open,
        overdue: r.overdue,
      })),
    });
  });

  return router;
}
