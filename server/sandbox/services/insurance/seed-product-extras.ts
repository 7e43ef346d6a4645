import type { FunnelStep } from '#common/booking-funnel.ts';
import type { RangeBand } from '#common/named-range.ts';
import type { ProductVersionStatus } from '#common/products.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import type { FactorTable } from './product-factor-csv.ts';

/**
 * What a demo product has beyond fields and formulas: factor tables and named ranges (with the
 * formulas that read them) on one of its versions, a booking funnel and its languages with
 * translations. Seeded with the product, before the policies, whose premiums then use them.
 */

export interface SeedFormula {
  group: string;
  name: string;
  expression: string;
  unit: 'day' | 'week' | 'month' | 'quarter' | 'year' | 'oneTimePayment';
  variableName?: string;
}

export interface SeedExtras {
  /** The version (by status) that gets the tables, ranges and formulas. */
  status: ProductVersionStatus;
  factors: (FactorTable & { name: string })[];
  ranges: { name: string; bands: RangeBand[] }[];
  /** Appended after the product's formulas on that version. */
  formulas: SeedFormula[];
  funnel?: { name: string; steps: FunnelStep[] };
}

export async function insertFormulas(
  tx: Queryable,
  tenantId: number,
  versionId: number,
  formulas: SeedFormula[],
  firstOrder = 1,
): Promise<void> {
  for (const [index, formula] of formulas.entries()) {
    await tx.query(
      `INSERT INTO premium_formulas (tenant_id, code, product_version_id, "group", name, expression,
                                     unit, variable_name, "order")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        tenantId,
        newCode('pfo'),
        versionId,
        formula.group,
        formula.name,
        formula.expression,
        formula.unit,
        formula.variableName ?? null,
        firstOrder + index,
      ],
    );
  }
}

/** The version's tables, ranges and extra formulas (formulas of the product come before). */
export async function seedVersionExtras(
  tx: Queryable,
  tenantId: number,
  versionId: number,
  extras: SeedExtras,
  formulasBefore: number,
): Promise<void> {
  for (const factor of extras.factors) {
    await tx.query(
      `INSERT INTO product_factors (tenant_id, code, product_version_id, name, key_columns, rows,
                                    row_count, filename)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        tenantId,
        newCode('pfa'),
        versionId,
        factor.name,
        JSON.stringify(factor.keyColumns),
        JSON.stringify(factor.rows),
        factor.rows.length,
        `${factor.name}.csv`,
      ],
    );
  }
  for (const range of extras.ranges) {
    await tx.query(
      `INSERT INTO named_ranges (tenant_id, code, product_version_id, name, bands)
       VALUES ($1, $2, $3, $4, $5)`,
      [tenantId, newCode('nra'), versionId, range.name, JSON.stringify(range.bands)],
    );
  }
  await insertFormulas(tx, tenantId, versionId, extras.formulas, formulasBefore + 1);
}

/** The product's booking funnel (selling its active version). */
export async function seedProductExtras(
  tx: Queryable,
  tenantId: number,
  productId: number,
  extras: SeedExtras,
): Promise<void> {
  if (extras.funnel) {
    const [funnel] = await tx.query<{ id: number }>(
      `INSERT INTO booking_funnels (tenant_id, code, product_id, name, steps)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [
        tenantId,
        newCode('bfn'),
        productId,
        extras.funnel.name,
        JSON.stringify(extras.funnel.steps),
      ],
    );
    const [product] = await tx.query<{ slug: string }>('SELECT slug FROM products WHERE id = $1', [
      productId,
    ]);
    await tx.query(
      `INSERT INTO booking_funnel_versions (tenant_id, booking_funnel_id, version, snapshot)
       VALUES ($1, $2, 1, $3)`,
      [
        tenantId,
        funnel!.id,
        JSON.stringify({
          name: extras.funnel.name,
          productSlug: product!.slug,
          productVersionId: null,
          steps: extras.funnel.steps,
        }),
      ],
    );
  }
}

/**
 * A product's translation files (the translation service's languages), all active: the status
 * says whether each has every key of the first.
 */
export async function seedProductLanguages(
  tx: Queryable,
  tenantId: number,
  productId: number,
  languages: readonly { language: string; texts: Record<string, string> }[],
): Promise<void> {
  const reference = languages[0]?.texts ?? {};
  for (const { language, texts } of languages) {
    const complete = Object.keys(reference).every((key) => texts[key]);
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO product_languages (tenant_id, code, product_id, language, is_active, translation_status)
       VALUES ($1, $2, $3, $4, true, $5) RETURNING id`,
      [tenantId, newCode('pla'), productId, language, complete ? 'complete' : 'incomplete'],
    );
    await tx.query(
      `INSERT INTO translations (tenant_id, product_language_id, key, value)
       SELECT $1, $2, k, v FROM unnest($3::text[], $4::text[]) AS x(k, v)`,
      [tenantId, row!.id, Object.keys(texts), Object.values(texts)],
    );
  }
}
