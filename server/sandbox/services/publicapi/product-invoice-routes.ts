import { Router, type Response } from 'express';
import * as v from 'valibot';
import { issuesOf, type ErrorIssue } from '#common/contracts/error.ts';
import { describeIssues, validatePolicyObjects } from '#common/policy-object-data.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { bearerFrom } from '#server/sandbox/platform/auth-context.ts';
import { sendError } from '#server/sandbox/platform/errors.ts';
import { loadTariffs, premiumOf, PremiumFormulaError } from '../insurance/index.ts';
import { centsOf, lineOf, productTaxRateBp, totalsOf } from '../billing/index.ts';

/**
 * POST /publicapi/v1/products/{slug}/product-invoice (spec section 7, docs/contracts.md "Public
 * API: product invoice"): what a product would invoice for the given field values, as an
 * invoice's lines and totals at the product's tax rate, computed by the same tariff as a policy's
 * premium. A quote: nothing is stored. The bearer is the workspace's slug, not a user's token.
 * Every refusal carries the spec's message, its own machine code and a `detail` saying what
 * failed.
 */

export const PRODUCT_INVOICE_ERROR = 'There has been an error on product invoice';

/** A refusal of the product invoice: status, machine code, what failed in words, the fields. */
class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly issues: readonly ErrorIssue[] = [],
  ) {}
}

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const ProductInvoiceBody = v.object({
  /** Default: the product's active version. */
  productVersionId: v.optional(Id),
  policyObjects: v.pipe(
    v.array(
      v.object({
        // Either names the insured object: a caller outside knows its name (`default`, `vehicle`).
        insuredObjectId: v.optional(Id),
        insuredObjectName: v.optional(v.pipe(v.string(), v.maxLength(100))),
        data: v.record(v.string(), v.unknown()),
      }),
    ),
    v.maxLength(50),
  ),
});

interface Tenant {
  id: number;
  slug: string;
}

/** The workspace whose slug is the bearer; a disabled one answers nothing. */
async function tenantOf(db: Queryable, bearer: string | null): Promise<Tenant> {
  if (!bearer) throw new Refusal(401, 'unauthorized', 'missing bearer: the tenant slug');
  const [tenant] = await db.query<Tenant>(
    'SELECT id, slug FROM tenants WHERE slug = $1 AND NOT is_disabled',
    [bearer],
  );
  if (!tenant) throw new Refusal(401, 'unauthorized', 'the bearer is no workspace slug');
  return tenant;
}

interface ProductRow {
  id: number;
  name: string;
  slug: string;
}

async function productOf(db: Queryable, tenantId: number, slug: string): Promise<ProductRow> {
  const [product] = await db.query<ProductRow>(
    'SELECT id, name, slug FROM products WHERE tenant_id = $1 AND slug = $2',
    [tenantId, slug],
  );
  if (!product) throw new Refusal(404, 'product_not_found', `no product "${slug}"`);
  return product;
}

/** The version asked for (of this product), else the product's active one. */
async function versionIdOf(
  db: Queryable,
  tenantId: number,
  product: ProductRow,
  asked: number | undefined,
): Promise<number> {
  const [version] = await db.query<{ id: number }>(
    `SELECT id FROM product_versions
      WHERE tenant_id = $1 AND product_id = $2 AND ($3::int IS NULL AND status = 'active' OR id = $3)`,
    [tenantId, product.id, asked ?? null],
  );
  if (version) return version.id;
  if (asked !== undefined)
    throw new Refusal(
      404,
      'product_version_not_found',
      `no version ${asked} of "${product.slug}"`,
      [{ path: 'productVersionId', code: 'unknown_product_version' }],
    );
  throw new Refusal(422, 'no_active_version', `"${product.slug}" has no active version`);
}

/** The premium formulas' units (month, year, oneTimePayment…): an invoice line's unit. */
async function unitsOf(db: Queryable, versionId: number): Promise<Map<number, string>> {
  const rows = await db.query<{ id: number; unit: string }>(
    'SELECT id, unit FROM premium_formulas WHERE product_version_id = $1',
    [versionId],
  );
  return new Map(rows.map((r) => [r.id, r.unit]));
}

const percentOf = (bp: number) => bp / 100;

async function productInvoice(
  ctx: SandboxContext,
  bearer: string | null,
  slug: string,
  rawBody: unknown,
) {
  const { db } = ctx;
  const tenant = await tenantOf(db, bearer);
  const product = await productOf(db, tenant.id, slug);
  const parsed = v.safeParse(ProductInvoiceBody, rawBody ?? {});
  if (!parsed.success) {
    const issues = issuesOf(parsed.issues);
    throw new Refusal(
      400,
      'invalid_body',
      `the body is not {productVersionId?, policyObjects: [{insuredObjectId | insuredObjectName, data}]}: ${issues
        .map((i) => `${i.path || 'body'}: ${i.code}`)
        .join('; ')}`,
      issues,
    );
  }
  const body = parsed.output;
  const versionId = await versionIdOf(db, tenant.id, product, body.productVersionId);
  const [tariff] = await loadTariffs(db, tenant.id, 'v.id = $2', [versionId]);
  if (!tariff) throw new Refusal(404, 'product_version_not_found', 'the version is gone');

  // Objects named by name get the version's id; one named neither way or unknown is refused.
  const named: ErrorIssue[] = [];
  const given = body.policyObjects.map((o, i) => {
    const object =
      o.insuredObjectId !== undefined
        ? { id: o.insuredObjectId }
        : tariff.objects.find((t) => t.name === o.insuredObjectName);
    if (!object)
      named.push({
        path: `policyObjects.${i}.${o.insuredObjectName === undefined ? 'insuredObjectId' : 'insuredObjectName'}`,
        code: o.insuredObjectName === undefined ? 'required' : 'unknown_insured_object',
      });
    return { insuredObjectId: object?.id ?? 0, data: o.data };
  });
  if (named.length)
    throw new Refusal(
      422,
      'invalid_values',
      named.map((i) => `${i.path}: ${i.code}`).join('; '),
      named,
    );
  const checked = validatePolicyObjects(tariff.objects, given, ctx.clock.now());
  if (!checked.ok)
    throw new Refusal(
      422,
      'invalid_values',
      `the product's fields refuse the values: ${describeIssues(checked.issues)}`,
      checked.issues.map(({ path, code }) => ({ path, code })),
    );

  let premium: ReturnType<typeof premiumOf>;
  try {
    premium = premiumOf(
      tariff,
      checked.objects.map((o) => ({ name: o.object.name, data: o.data })),
    );
  } catch (err) {
    if (err instanceof PremiumFormulaError)
      throw new Refusal(422, 'premium_not_computable', err.describe(), [err.issue()]);
    // A value no formula can work with (the evaluator's own failure): still the tariff's refusal.
    throw new Refusal(422, 'premium_not_computable', 'the premium cannot be computed');
  }
  if (!premium.premiumItems.every((item) => Number.isFinite(item.total)))
    throw new Refusal(422, 'premium_not_computable', 'the premium is not a finite amount');

  const taxRateBp = await productTaxRateBp(db, tenant.id, product.id);
  const units = await unitsOf(db, versionId);
  const names = new Map(tariff.formulas.map((f) => [f.id, f.name]));
  const lines = premium.premiumItems.map((item) => ({
    premiumFormulaId: item.premiumFormulaId,
    ...lineOf(
      names.get(item.premiumFormulaId) ?? String(item.premiumFormulaId),
      1,
      centsOf(item.total),
      taxRateBp,
      units.get(item.premiumFormulaId) ?? 'piece',
    ),
  }));
  const totals = totalsOf(lines);
  const start = checked.objects.find((o) => o.object.name === 'default')?.data.policyStartDate;
  return {
    invoice: {
      type: 'estimated',
      productSlug: product.slug,
      productName: product.name,
      productVersionId: versionId,
      currency: 'EUR',
      taxRate: percentOf(taxRateBp),
      netAmount: totals.netAmount,
      taxAmount: totals.taxAmount,
      creditAmount: 0,
      grossAmount: totals.grossAmount,
      billingIntervalFrom: typeof start === 'string' ? start : null,
      invoiceItems: lines.map(({ taxRateBp: bp, ...line }) => ({
        ...line,
        taxRate: percentOf(bp),
      })),
      createdAt: new Date(ctx.clock.now()).toISOString(),
    },
  };
}

function refuse(res: Response, refusal: Refusal): void {
  sendError(res, refusal.status, refusal.code, PRODUCT_INVOICE_ERROR, refusal.issues, {
    detail: refusal.detail,
  });
}

export function productInvoiceRouter(ctx: SandboxContext): Router {
  const router = Router();
  router.post('/products/:slug/product-invoice', async (req, res) => {
    try {
      res.json(await productInvoice(ctx, bearerFrom(req), String(req.params.slug), req.body));
    } catch (err) {
      if (err instanceof Refusal) return refuse(res, err);
      ctx.logger.error({ err }, 'product invoice failed');
      refuse(res, new Refusal(500, 'internal_error', 'the product invoice could not be computed'));
    }
  });
  return router;
}
