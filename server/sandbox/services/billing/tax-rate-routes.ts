import { Router } from 'express';
import * as v from 'valibot';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import {
  getAuth,
  requireAuth,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { idOf, updatedByNameSql } from '#server/sandbox/platform/records.ts';
import { DEFAULT_TAX_RATE_BP } from './invoice-engine.ts';

/**
 * The insurance tax of a product (docs/contracts.md, "Tax rate of a product"): read with the
 * product, set with the right to edit the product. In basis points (19 % = 1900), an integer from
 * 0 to 10 000; a product without a rate of its own is taxed at the default 19 %. The table is the
 * billing service's (migration 034): the billing run reads it for every new invoice, and the
 * insurance service, which billing depends on, may not use it, so the route lives here.
 */

const VIEW = requireServicePermission('policy-management', 'products', 'view');
const UPDATE = requireServicePermission('policy-management', 'products', 'update');

export const TaxRateBody = v.object({
  taxRateBp: v.pipe(v.number(), v.integer('not_an_integer'), v.minValue(0), v.maxValue(10_000)),
});

interface ProductOfRate {
  id: number;
  name: string;
  tax_rate_bp: number | null;
  updated_at: Date | null;
  updated_by_name: string | null;
}

const cantLoadProduct = () => new HttpError(404, 'not_found', "Can't load productId");

/** The product of the caller's workspace with its own rate, if it has one; else a 404. */
async function productRate(db: Queryable, tenantId: number, id: number): Promise<ProductOfRate> {
  const [row] = await db.query<ProductOfRate>(
    `SELECT p.id, p.name, tr.tax_rate_bp, tr.updated_at, ${updatedByNameSql('tr')}
       FROM products p
       LEFT JOIN product_tax_rates tr ON tr.tenant_id = p.tenant_id AND tr.product_id = p.id
      WHERE p.tenant_id = $1 AND p.id = $2`,
    [tenantId, id],
  );
  if (!row) throw cantLoadProduct();
  return row;
}

const present = (row: ProductOfRate) => ({
  productId: row.id,
  taxRateBp: row.tax_rate_bp ?? DEFAULT_TAX_RATE_BP,
  isDefault: row.tax_rate_bp === null,
  updatedAt: row.updated_at,
  updatedByName: row.updated_by_name,
});

/** A rate in basis points as the history shows it: the percent (1950 -> 19.5). */
const percentOf = (bp: number) => bp / 100;

/**
 * The product's version whose history records a change of the product's rate: the active one
 * (the rate applies to what it sells), else the newest. Products have no history of their own;
 * their versions' history is where product managers read who changed what.
 */
async function historyVersionOf(tx: Queryable, tenantId: number, productId: number) {
  const [version] = await tx.query<{ code: string }>(
    `SELECT code FROM product_versions WHERE tenant_id = $1 AND product_id = $2
      ORDER BY (status = 'active') DESC, version DESC LIMIT 1`,
    [tenantId, productId],
  );
  return version?.code ?? null;
}

export function taxRateRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/products/:id/tax-rate', VIEW, async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await productRate(db, tenantId, idOf(String(req.params.id), cantLoadProduct));
    res.json({ taxRate: present(row) });
  });

  router.put('/products/:id/tax-rate', UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const id = idOf(String(req.params.id), cantLoadProduct);
    const { taxRateBp } = parseBody(TaxRateBody, req.body);
    const updated = await db.transaction(async (tx) => {
      // Locks the product's rate row (or the product, for its first rate) against a second save.
      await tx.query('SELECT 1 FROM products WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [
        auth.tenantId,
        id,
      ]);
      const before = await productRate(tx, auth.tenantId, id);
      const was = before.tax_rate_bp ?? DEFAULT_TAX_RATE_BP;
      await tx.query(
        `INSERT INTO product_tax_rates (tenant_id, product_id, tax_rate_bp, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (tenant_id, product_id)
         DO UPDATE SET tax_rate_bp = $3, updated_at = now(), updated_by = $4`,
        [auth.tenantId, id, taxRateBp, auth.userCode],
      );
      const versionCode = was === taxRateBp ? null : await historyVersionOf(tx, auth.tenantId, id);
      if (versionCode) {
        await recordChange(
          tx,
          { auth, clock: ctx.clock },
          {
            entityType: 'product_version',
            entityId: versionCode,
            entityLabel: before.name,
            action: 'tax_rate_changed',
            changes: [{ field: 'taxRate', before: percentOf(was), after: percentOf(taxRateBp) }],
          },
        );
      }
      return productRate(tx, auth.tenantId, id);
    });
    res.json({ taxRate: present(updated) });
  });

  return router;
}

/** The product's rate in basis points: its own, else the default 19 %. */
export async function productTaxRateBp(
  db: Queryable,
  tenantId: number,
  productId: number,
): Promise<number> {
  const [row] = await db.query<{ tax_rate_bp: number }>(
    'SELECT tax_rate_bp FROM product_tax_rates WHERE tenant_id = $1 AND product_id = $2',
    [tenantId, productId],
  );
  return row?.tax_rate_bp ?? DEFAULT_TAX_RATE_BP;
}
