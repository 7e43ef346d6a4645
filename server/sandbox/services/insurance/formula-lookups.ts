import { forEachNode, parseExpression, type Node } from '#common/expression/parse.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';

/**
 * Which factor tables and named ranges a premium formula reads. A lookup names its table or range
 * by a text literal (`factor('region', zip)`), so that a formula can be checked against what the
 * version has when it is saved, and a table or range still read by a formula cannot vanish.
 */

export interface LookupCall {
  kind: 'factor' | 'range';
  /** null when the first argument is not a text literal. */
  name: string | null;
  keyCount: number;
  at: number;
}

export function lookupCalls(tree: Node): LookupCall[] {
  const calls: LookupCall[] = [];
  forEachNode(tree, (n) => {
    if (n.kind !== 'call' || (n.name !== 'factor' && n.name !== 'range')) return;
    const first = n.args[0];
    calls.push({
      kind: n.name,
      name: first?.kind === 'string' ? first.value : null,
      keyCount: Math.max(n.args.length - 1, 0),
      at: n.at,
    });
  });
  return calls;
}

/** The lookups a version offers: factor tables with their key columns, named ranges by name. */
export async function versionLookups(db: Queryable, tenantId: number, versionId: number) {
  const [factors, ranges] = await Promise.all([
    db.query<{ name: string; key_columns: string[] }>(
      'SELECT name, key_columns FROM product_factors WHERE tenant_id = $1 AND product_version_id = $2',
      [tenantId, versionId],
    ),
    db.query<{ name: string }>(
      'SELECT name FROM named_ranges WHERE tenant_id = $1 AND product_version_id = $2',
      [tenantId, versionId],
    ),
  ]);
  return {
    factors: new Map(factors.map((f) => [f.name, f.key_columns])),
    ranges: new Set(ranges.map((r) => r.name)),
  };
}

/**
 * Refuses (409 in_use) to remove a table or range that a formula of the version reads, or to give
 * a table a different number of key columns than its formulas pass.
 */
export async function assertLookupUnused(
  db: Queryable,
  tenantId: number,
  versionId: number,
  kind: 'factor' | 'range',
  name: string,
  keyCount?: number,
): Promise<void> {
  const formulas = await db.query<{ name: string; expression: string }>(
    'SELECT name, expression FROM premium_formulas WHERE tenant_id = $1 AND product_version_id = $2 ORDER BY "order", id',
    [tenantId, versionId],
  );
  const what = kind === 'factor' ? 'factor table' : 'named range';
  for (const formula of formulas) {
    const calls = lookupCalls(parseExpression(formula.expression)).filter(
      (c) => c.kind === kind && c.name === name,
    );
    const broken = keyCount === undefined ? calls[0] : calls.find((c) => c.keyCount !== keyCount);
    if (broken) {
      throw new HttpError(
        409,
        'in_use',
        keyCount === undefined
          ? `the ${what} ${name} is used by the premium formula ${formula.name}`
          : `the premium formula ${formula.name} passes ${broken.keyCount} keys to the ${what} ${name}, the new file has ${keyCount}`,
        { formula: formula.name },
      );
    }
  }
}
