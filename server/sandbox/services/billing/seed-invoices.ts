import type { Db } from '#server/sandbox/platform/db.ts';

/**
 * Grows a workspace's invoices to `target` for the invoice list's benchmark
 * (`npm run seed:invoices`, bench/invoice-list.ts): copies of the workspace's computed invoices
 * (the billing run's, with their items), written by one statement per chunk over
 * generate_series, not by running the billing run for a million policies. Off unless run: the
 * start-up seed makes the demo's invoices only.
 *
 * Consistent with migration 034: each copy has a code of its own (`inv_g<n>`), the next invoice
 * numbers of its year from `invoice_counters` (taken in the same statement, so later invoices
 * of the billing run or a clerk number on), its template's amounts in cents, dates, policy and
 * items, and one status row. A copy is issued as the billing run issues an invoice (open, paid
 * when it is zero, refunded when it is negative) with nothing paid, and has no billing key: it
 * is not the run's, so a run neither skips nor repeats anything for it.
 */

const GROW_CHUNK = 50_000;

export async function growInvoices(
  db: Db,
  slug: string,
  target: number,
  progress: (total: number) => void = () => {},
): Promise<{ before: number; after: number }> {
  const [tenant] = await db.query<{ id: number }>('SELECT id FROM tenants WHERE slug = $1', [slug]);
  if (!tenant) throw new Error(`no workspace "${slug}" in this database`);
  const [stats] = await db.query<{ count: number; templates: number }>(
    `SELECT count(*)::int AS count,
            count(*) FILTER (WHERE billing_key IS NOT NULL AND code NOT LIKE 'inv_g%')::int
              AS templates
       FROM invoices WHERE tenant_id = $1`,
    [tenant.id],
  );
  const before = stats!.count;
  const toAdd = target - before;
  if (toAdd <= 0) return { before, after: before };
  if (!stats!.templates) throw new Error(`workspace "${slug}" has no computed invoice to copy yet`);
  let added = 0;
  while (added < toAdd) {
    const count = Math.min(GROW_CHUNK, toAdd - added);
    await db.transaction((tx) => tx.query(GROW_SQL, [tenant.id, count]));
    added += count;
    progress(before + added);
  }
  await db.query('ANALYZE invoices');
  await db.query('ANALYZE invoice_items');
  await db.query('ANALYZE invoice_statuses');
  return { before, after: before + added };
}

/**
 * One chunk: `$2` copies of the templates in turn. The data-modifying CTEs see one snapshot, so
 * `numbered` reads the counters before `counted` moves them on by the chunk's count per year.
 */
const GROW_SQL = `
  WITH template AS (
    SELECT row_number() OVER (ORDER BY id) - 1 AS k, id, policy_code, account_number,
           account_code, product_slug, type, net_amount, tax_amount, gross_amount, currency,
           due_date, billing_interval_from, billing_interval_to, created_at,
           extract(year FROM created_at)::int AS year
      FROM invoices
     WHERE tenant_id = $1 AND billing_key IS NOT NULL AND code NOT LIKE 'inv_g%'),
  total AS (SELECT count(*) AS n FROM template),
  base AS (SELECT coalesce(max(id), 0) AS id FROM invoices),
  copies AS (
    SELECT g, 'inv_g' || (base.id + g) AS code, t.*
      FROM generate_series(1, $2::int) AS g
      CROSS JOIN base CROSS JOIN total
      JOIN template t ON t.k = g % total.n),
  numbered AS (
    SELECT c.*, coalesce(n.last_number, 0)
                + row_number() OVER (PARTITION BY c.year ORDER BY c.g) AS number
      FROM copies c
      LEFT JOIN invoice_counters n ON n.tenant_id = $1 AND n.year = c.year),
  counted AS (
    INSERT INTO invoice_counters (tenant_id, year, last_number)
    SELECT $1, year, count(*) FROM copies GROUP BY year
    ON CONFLICT (tenant_id, year)
    DO UPDATE SET last_number = invoice_counters.last_number + EXCLUDED.last_number),
  added AS (
    INSERT INTO invoices (tenant_id, code, invoice_number, policy_code, account_number,
                          account_code, product_slug, type, status, net_amount, tax_amount,
                          gross_amount, currency, due_date, billing_interval_from,
                          billing_interval_to, created_at, updated_at)
    SELECT $1, code, 'INV-' || year || '-' || lpad(number::text, greatest(6, length(number::text)), '0'),
           policy_code, account_number, account_code, product_slug, type,
           CASE WHEN gross_amount < 0 THEN 'refunded' WHEN gross_amount = 0 THEN 'paid'
                ELSE 'open' END,
           net_amount, tax_amount, gross_amount, currency, due_date, billing_interval_from,
           billing_interval_to, created_at, created_at
      FROM numbered ORDER BY g
    RETURNING id, code, status, created_at),
  items AS (
    INSERT INTO invoice_items (tenant_id, invoice_id, position, name, quantity, price_per_unit,
                               tax_rate_bp, net_amount, tax_amount, gross_amount, unit)
    SELECT $1, a.id, it.position, it.name, it.quantity, it.price_per_unit, it.tax_rate_bp,
           it.net_amount, it.tax_amount, it.gross_amount, it.unit
      FROM added a JOIN copies c ON c.code = a.code
      JOIN invoice_items it ON it.invoice_id = c.id)
  INSERT INTO invoice_statuses (tenant_id, invoice_id, status, at, by, by_name)
  SELECT $1, id, status, created_at, 'system', NULL FROM added`;
