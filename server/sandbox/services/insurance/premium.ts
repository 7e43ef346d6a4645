import {
  ExpressionEvaluationError,
  evaluateNumber,
  type EvaluationContext,
} from '#common/expression/evaluate.ts';
import { parseExpression, type Node } from '#common/expression/parse.ts';
import { lookupRange, type RangeBand } from '#common/named-range.ts';
import { grandTotalOf, roundToCents } from '#common/premium.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { lookupFactor, type FactorTable } from './product-factor-csv.ts';

/**
 * The tariff of a product version (its insured objects with their fields, its premium formulas
 * parsed once, its factor tables and named ranges) and the premium it computes. One place, because the seed, the premium calculation,
 * new policies and applied drafts must all arrive at the same number for the same data.
 */

export interface TariffField {
  id: number;
  name: string;
  label: string;
  type: 'number' | 'boolean' | 'string' | 'date';
  kind: string | null;
  minimum: number | null;
  maximum: number | null;
  isRequired: boolean;
  defaultValue: unknown;
}
export interface TariffObject {
  id: number;
  name: string;
  label: string;
  fields: TariffField[];
}
export interface TariffFormula {
  id: number;
  name: string;
  tree: Node;
  variable_name: string | null;
}
export interface Tariff {
  id: number;
  product_id: number;
  status: string;
  contract_duration_days: number;
  objects: TariffObject[];
  formulas: TariffFormula[];
  /** The version's factor tables by name, for `factor('name', ...)` (always set by loadTariffs). */
  factors?: Map<string, FactorTable>;
  /** The version's named ranges by name, for `range('name', x)` (always set by loadTariffs). */
  ranges?: Map<string, RangeBand[]>;
}

/** Factor and named-range lookups of one product version (spec: factors, named ranges). */
export type PremiumLookups = Pick<EvaluationContext, 'factor' | 'range'>;

/** The lookups of a loaded tariff; without tables or ranges every lookup finds nothing. */
export function lookupsOf(tariff: Pick<Tariff, 'factors' | 'ranges'>): PremiumLookups {
  return {
    factor: (table, keys) => {
      const found = tariff.factors?.get(table);
      return found ? lookupFactor(found, keys) : undefined;
    },
    range: (name, value) => {
      const bands = tariff.ranges?.get(name);
      return bands ? lookupRange(bands, value) : undefined;
    },
  };
}

/**
 * Loads the tariffs of the tenant's product versions matching `where` (a condition on `v`, the
 * product_versions row, with parameters from $2 on), in product and version order.
 */
export async function loadTariffs(
  tx: Queryable,
  tenantId: number,
  where: string,
  params: unknown[] = [],
): Promise<Tariff[]> {
  const versions = await tx.query<Omit<Tariff, 'objects' | 'formulas' | 'factors' | 'ranges'>>(
    `SELECT v.id, v.product_id, v.status, p.contract_duration_days
       FROM product_versions v JOIN products p ON p.id = v.product_id
      WHERE v.tenant_id = $1 AND (${where})
      ORDER BY v.product_id, v.version`,
    [tenantId, ...params],
  );
  const ids = versions.map((v) => v.id);
  if (!ids.length) return [];
  const objects = await tx.query<TariffObject & { product_version_id: number }>(
    `SELECT o.id, o.product_version_id, o.name, o.label,
            coalesce(json_agg(json_build_object('id', f.id, 'name', f.name, 'label', f.label,
                       'type', f.type, 'kind', f.kind, 'minimum', f.minimum, 'maximum', f.maximum,
                       'isRequired', f.is_required, 'defaultValue', f.default_value)
                       ORDER BY f."order") FILTER (WHERE f.id IS NOT NULL), '[]') AS fields
       FROM insured_objects o LEFT JOIN product_fields f ON f.insured_object_id = o.id
      WHERE o.tenant_id = $1 AND o.product_version_id = ANY($2::int[])
      GROUP BY o.id ORDER BY (o.name <> 'default'), o.id`,
    [tenantId, ids],
  );
  const formulas = await tx.query<{
    id: number;
    product_version_id: number;
    name: string;
    expression: string;
    variable_name: string | null;
  }>(
    `SELECT id, product_version_id, name, expression, variable_name FROM premium_formulas
      WHERE tenant_id = $1 AND product_version_id = ANY($2::int[]) ORDER BY "order", id`,
    [tenantId, ids],
  );
  const factors = await tx.query<FactorTable & { product_version_id: number; name: string }>(
    `SELECT product_version_id, name, key_columns AS "keyColumns", rows FROM product_factors
      WHERE tenant_id = $1 AND product_version_id = ANY($2::int[])`,
    [tenantId, ids],
  );
  const ranges = await tx.query<{ product_version_id: number; name: string; bands: RangeBand[] }>(
    `SELECT product_version_id, name, bands FROM named_ranges
      WHERE tenant_id = $1 AND product_version_id = ANY($2::int[])`,
    [tenantId, ids],
  );
  return versions.map((v) => ({
    ...v,
    factors: new Map(
      factors
        .filter((f) => f.product_version_id === v.id)
        .map((f) => [f.name, { keyColumns: f.keyColumns, rows: f.rows }]),
    ),
    ranges: new Map(
      ranges.filter((r) => r.product_version_id === v.id).map((r) => [r.name, r.bands]),
    ),
    objects: objects.filter((o) => o.product_version_id === v.id),
    formulas: formulas
      .filter((f) => f.product_version_id === v.id)
      .map((f) => ({
        id: f.id,
        name: f.name,
        tree: parseExpression(f.expression),
        variable_name: f.variable_name,
      })),
  }));
}

/**
 * The premium of one timeslice: every formula in its order over the objects' data, each total
 * rounded to cents, and their sum. Fields of 'default' are read bare (policyStartDate); those of
 * other objects by object name with '-' written '_' (mobile_device.brand), since '-' is minus in a
 * formula; a formula with a variableName makes its result readable by the later ones.
 * `factor(...)` and `range(...)` read the tariff's own tables and ranges unless other lookups are
 * given. Throws ExpressionEvaluationError when a formula cannot be evaluated over this data.
 */
export function premiumOf(
  tariff: Pick<Tariff, 'formulas' | 'factors' | 'ranges'>,
  objects: { name: string; data: Record<string, unknown> }[],
  lookups: PremiumLookups = lookupsOf(tariff),
) {
  const variables: Record<string, unknown> = {};
  for (const object of objects) {
    if (object.name === 'default') Object.assign(variables, object.data);
    else variables[object.name.replace(/-/g, '_')] = object.data;
  }
  const premiumItems = tariff.formulas.map((formula) => {
    let value: number;
    try {
      value = evaluateNumber(formula.tree, { variables, ...lookups });
    } catch (error) {
      if (!(error instanceof ExpressionEvaluationError)) throw error;
      throw new PremiumFormulaError(formula, error);
    }
    const total = roundToCents(value);
    if (formula.variable_name) variables[formula.variable_name] = total;
    return { premiumFormulaId: formula.id, total, isOverride: false };
  });
  return { premiumItems, grandTotal: grandTotalOf(premiumItems), currency: 'EUR' };
}

export type Premium = ReturnType<typeof premiumOf>;

/**
 * A formula that cannot be evaluated over one policy's data (a division by a field that is 0):
 * the evaluator's error with the formula it happened in, so that the refusal names it.
 */
export class PremiumFormulaError extends ExpressionEvaluationError {
  readonly formulaId: number;
  readonly formulaName: string;
  constructor(formula: Pick<TariffFormula, 'id' | 'name'>, cause: ExpressionEvaluationError) {
    super(cause.code, cause.at, cause.detail);
    this.formulaId = formula.id;
    this.formulaName = formula.name;
  }

  /** The refusal's issue: what failed, where in the formula, in which formula. */
  issue(path = 'premium') {
    return {
      path,
      code: this.code,
      position: this.at,
      formula: this.formulaName,
      ...(this.detail ? { name: this.detail } : {}),
    };
  }

  /** English, for logs and the wire (the screen translates the issue). */
  describe(): string {
    return `the premium formula "${this.formulaName}" cannot be computed: ${this.code} at position ${this.at + 1}`;
  }
}

/** Totals agreed by hand for some formulas of a policy (upstream contract: premiumOverride). */
export interface PremiumOverride {
  premiumItems: { premiumFormulaId: number; total: number }[];
}

/**
 * The premium with the agreed totals in place of the computed ones (marked `isOverride`) and the
 * grand total summed again. The caller has checked that every overridden formula is the tariff's.
 */
export function applyPremiumOverride(premium: Premium, override: PremiumOverride | null): Premium {
  if (!override?.premiumItems.length) return premium;
  const agreed = new Map(override.premiumItems.map((i) => [i.premiumFormulaId, i.total]));
  const premiumItems = premium.premiumItems.map((item) => {
    const total = agreed.get(item.premiumFormulaId);
    return total === undefined ? item : { ...item, total: roundToCents(total), isOverride: true };
  });
  return { ...premium, premiumItems, grandTotal: grandTotalOf(premiumItems) };
}
