import {
  formulaIssues,
  formulaTypeOf,
  type FormulaIssue,
  type FormulaScope,
  type FormulaType,
} from '#common/expression/check.ts';
import { EXPRESSION_LIMITS } from '#common/expression/parse.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { KIND_OPTIONS } from '#common/policy-object-data.ts';
import { versionLookups } from './formula-lookups.ts';
import {
  loadTariffs,
  premiumOf,
  PremiumFormulaError,
  type Premium,
  type TariffField,
} from './premium.ts';

/**
 * The premium formula check of the insurance service (issue 15, point 1): the version's names
 * with their types, the shared check (common/expression/check.ts), and the refusal it becomes,
 * `400 invalid_expression` with `issues[{path: 'expression', code, position, name}]`.
 */

/** How a formula names an insured object: `mobile-device` is `mobile_device` (`-` is minus). */
export const formulaName = (objectName: string) => objectName.replace(/-/g, '_');

/** What a formula of the version may read: its fields (typed), earlier variables, lookups. */
export async function versionScope(
  db: Queryable,
  tenantId: number,
  versionId: number,
  earlierVariables: readonly string[],
): Promise<FormulaScope & { factorColumns: ReadonlyMap<string, string[]> }> {
  const fields = await db.query<{ object: string; field: string; type: string }>(
    `SELECT o.name AS object, f.name AS field, f.type FROM insured_objects o
       JOIN product_fields f ON f.insured_object_id = o.id
      WHERE o.tenant_id = $1 AND o.product_version_id = $2`,
    [tenantId, versionId],
  );
  const names = new Map<string, FormulaType>(earlierVariables.map((name) => [name, 'number']));
  for (const f of fields) {
    const type = formulaTypeOf(f.type);
    names.set(`${formulaName(f.object)}.${f.field}`, type);
    if (f.object === 'default') names.set(f.field, type);
  }
  const lookups = await versionLookups(db, tenantId, versionId);
  return {
    names,
    factors: new Map([...lookups.factors].map(([name, columns]) => [name, columns.length])),
    factorColumns: lookups.factors,
    ranges: lookups.ranges,
  };
}

const at = (issue: FormulaIssue) => `at position ${issue.position + 1}`;

/** The English text of a problem (logs, the wire); the screen translates the issue's code. */
export function formulaIssueText(
  issue: FormulaIssue,
  factorColumns: ReadonlyMap<string, string[]> = new Map(),
): string {
  const name = issue.name ?? '';
  switch (issue.code) {
    case 'too_long':
      return `the expression is too long (at most ${EXPRESSION_LIMITS.maxLength} characters)`;
    case 'too_complex':
      return 'the expression is too complex';
    case 'unexpected_end':
      return 'the expression ends too early';
    case 'unterminated_string':
      return `unterminated string ${at(issue)}`;
    case 'bad_number':
      return `bad number "${name}" ${at(issue)}`;
    case 'unexpected_character':
      return `unexpected character "${name}" ${at(issue)}`;
    case 'unexpected_token':
      return `unexpected "${name}" ${at(issue)}`;
    case 'unknown_name':
    case 'unknown_variable':
      return `unknown field "${name}" ${at(issue)}`;
    case 'unknown_function':
      return `unknown function "${name}" ${at(issue)}`;
    case 'wrong_arguments':
      return `wrong number of arguments for ${name} ${at(issue)}`;
    case 'type_error':
      return `${name} cannot be used with a value of this type ${at(issue)}`;
    case 'division_by_zero':
      return `division by zero ${at(issue)}`;
    case 'not_finite':
      return `the result is not a finite number ${at(issue)}`;
    case 'not_a_number':
      return `the formula does not give a number ${at(issue)}`;
    case 'lookup_name_not_text':
      return `the first argument of ${name} must be a ${name === 'factor' ? 'factor table' : 'named range'} name in quotes ${at(issue)}`;
    case 'unknown_factor':
      return `unknown factor table "${name}" ${at(issue)}`;
    case 'unknown_range':
      return `unknown named range "${name}" ${at(issue)}`;
    case 'factor_key_count': {
      const columns = factorColumns.get(name) ?? [];
      const expected = issue.expected ?? columns.length;
      return `factor "${name}" takes ${expected} ${expected === 1 ? 'key' : 'keys'} (${columns.join(', ')}), not ${issue.found ?? 0} ${at(issue)}`;
    }
    case 'lookup_failed':
      return `the lookup ${name} found no value ${at(issue)}`;
    case 'too_many_steps':
      return `the formula takes too many steps ${at(issue)}`;
  }
}

/** Throws 400 invalid_expression naming each problem of the formula, with its position. */
export function assertFormula(
  expression: string,
  scope: Awaited<ReturnType<typeof versionScope>>,
): void {
  const issues = formulaIssues(expression, scope);
  if (!issues.length) return;
  throw new HttpError(
    400,
    'invalid_expression',
    `Invalid expression: ${formulaIssueText(issues[0]!, scope.factorColumns)}`,
    undefined,
    issues.map((issue) => ({
      path: 'expression',
      code: issue.code,
      position: issue.position,
      ...(issue.name !== undefined ? { name: issue.name } : {}),
    })),
  );
}

// ---- the trial calculation at activation ---------------------------------------------------

/** A stored test case: per insured object (by name), per field name, a value. */
export type TestCaseValues = Record<string, Record<string, unknown>>;

/** The stored test case's values of a version: none when it has no test case. */
export async function testCaseOf(
  db: Queryable,
  tenantId: number,
  versionId: number,
): Promise<TestCaseValues> {
  const [row] = await db.query<{ objects: TestCaseValues }>(
    'SELECT objects FROM product_version_test_cases WHERE tenant_id = $1 AND product_version_id = $2',
    [tenantId, versionId],
  );
  return row?.objects ?? {};
}

const YEAR_MS = 365.25 * 86_400_000;

/**
 * The sample value of a field for the trial calculation: its default value when the product
 * manager gave one (that is how a product states its test case), else a value every policy
 * could have: a number of 1 within the field's bounds, the first fixed option (a contract of a
 * year), no, an empty text, the sample day, for a birth date a person of 40 (docs/decisions/007).
 */
export function sampleValue(field: TariffField, todayMs: number): unknown {
  if (field.defaultValue !== null && field.defaultValue !== undefined) return field.defaultValue;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  switch (field.type) {
    case 'number': {
      const low = field.minimum ?? -Infinity;
      const high = field.maximum ?? Infinity;
      return Math.min(Math.max(1, low), high);
    }
    case 'boolean':
      return false;
    case 'date':
      return /birth/i.test(field.name) ? day(todayMs - 40 * YEAR_MS) : day(todayMs);
    case 'string': {
      const options = KIND_OPTIONS[field.kind ?? ''] ?? [];
      return options.includes('year') ? 'year' : (options[0] ?? '');
    }
  }
}

/** What the 409 of a refused activation says: the formula, what failed, where. */
function refuseActivation(formula: string, issue: FormulaIssue, why: string): never {
  throw new HttpError(
    409,
    'trial_calculation_failed',
    `the premium cannot be computed, so the version cannot be activated: the premium formula "${formula}": ${why}`,
    { formula },
    [
      {
        path: 'premiumFormulas',
        code: issue.code,
        position: issue.position,
        formula,
        ...(issue.name !== undefined ? { name: issue.name } : {}),
      },
    ],
  );
}

/** What the trial calculation of a version came to: its premium, or why there is none. */
export type TrialOutcome = { ok: true; premium: Premium } | { ok: false; refusal: HttpError };

/**
 * The trial calculation of a version (issue 15, point 2): every formula passes the check with the
 * version as it is now (a field a formula reads may have been removed or retyped since it was
 * saved), and the premium is computed over sample data for every insured object (the stored
 * test case's values, the fields' sample values for the rest). A version whose premium cannot be
 * computed answers the 409 its activation is refused with: the formula and why.
 */
export async function trialCalculation(
  db: Queryable,
  tenantId: number,
  versionId: number,
  todayMs: number,
): Promise<TrialOutcome> {
  try {
    const premium = await computeTrial(db, tenantId, versionId, todayMs);
    if (!premium) throw new HttpError(404, 'not_found', 'product version not found');
    return { ok: true, premium };
  } catch (error) {
    if (error instanceof HttpError && error.status === 409) return { ok: false, refusal: error };
    throw error;
  }
}

/**
 * Before a version is activated: a version whose premium cannot be computed would refuse every
 * sale (the trial calculation above); it is refused here instead, with a 409 that names the
 * formula and why.
 */
export async function assertVersionComputes(
  db: Queryable,
  tenantId: number,
  versionId: number,
  todayMs: number,
): Promise<void> {
  await computeTrial(db, tenantId, versionId, todayMs);
}

async function computeTrial(
  db: Queryable,
  tenantId: number,
  versionId: number,
  todayMs: number,
): Promise<Premium | null> {
  const formulas = await db.query<{
    name: string;
    expression: string;
    variable_name: string | null;
  }>(
    `SELECT name, expression, variable_name FROM premium_formulas
      WHERE tenant_id = $1 AND product_version_id = $2 ORDER BY "order", id`,
    [tenantId, versionId],
  );
  // A version without a premium formula would sell every policy for nothing (issue 15 point 2).
  if (formulas.length === 0) {
    throw new HttpError(
      409,
      'no_premium_formulas',
      'the version has no premium formula, so the version cannot be activated',
    );
  }
  const scope = await versionScope(db, tenantId, versionId, []);
  const names = new Map(scope.names);
  for (const formula of formulas) {
    const [issue] = formulaIssues(formula.expression, { ...scope, names });
    if (issue) refuseActivation(formula.name, issue, formulaIssueText(issue, scope.factorColumns));
    if (formula.variable_name) names.set(formula.variable_name, 'number');
  }
  const [tariff] = await loadTariffs(db, tenantId, 'v.id = $2', [versionId]);
  if (!tariff) return null;
  // The stored test case's values first, the fields' sample values for the rest.
  const testCase = await testCaseOf(db, tenantId, versionId);
  const objects = tariff.objects.map((object) => ({
    name: object.name,
    data: Object.fromEntries(
      object.fields.map((f) => [
        f.name,
        testCase[object.name]?.[f.name] ?? sampleValue(f, todayMs),
      ]),
    ),
  }));
  try {
    return premiumOf(tariff, objects);
  } catch (error) {
    if (!(error instanceof PremiumFormulaError)) throw error;
    const issue: FormulaIssue = {
      code: error.code,
      position: error.at,
      ...(error.detail ? { name: error.detail } : {}),
    };
    refuseActivation(error.formulaName, issue, formulaIssueText(issue, scope.factorColumns));
  }
}
