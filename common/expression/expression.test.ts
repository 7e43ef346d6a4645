import { describe, expect, it } from 'vitest';
import {
  EXPRESSION_FUNCTIONS,
  ExpressionEvaluationError,
  evaluateExpression,
  evaluateNumber,
  roundHalfAwayFromZero,
  type EvaluationContext,
} from './evaluate.ts';
import {
  EXPRESSION_LIMITS,
  ExpressionSyntaxError,
  parseExpression,
  referencedPaths,
} from './parse.ts';

const run = (source: string, context: Partial<EvaluationContext> = {}) =>
  evaluateExpression(parseExpression(source), { variables: {}, ...context });

const syntaxCode = (source: string) => {
  try {
    parseExpression(source);
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return [error.code, error.at];
    throw error;
  }
  return null;
};

const evalCode = (source: string, context: Partial<EvaluationContext> = {}) => {
  try {
    run(source, context);
  } catch (error) {
    if (error instanceof ExpressionEvaluationError) return error.code;
    throw error;
  }
  return null;
};

describe('premium expressions: arithmetic and precedence', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['7 % 4', 3],
    ['1.5e2 / 3', 50],
    ['.5 * 4', 2],
    ['--3', 3],
  ])('%s = %s', (source, expected) => {
    expect(run(source)).toBe(expected);
  });

  it('compares, joins conditions and chooses with ?: and if()', () => {
    expect(run('3 > 2 && 2 >= 2 && 1 < 2 && 1 <= 1 && 1 != 2 && 2 == 2')).toBe(true);
    expect(run('false || !false')).toBe(true);
    expect(run('age >= 25 ? 100 : 150', { variables: { age: 30 } })).toBe(100);
    expect(run('age >= 25 ? 100 : age >= 18 ? 150 : 300', { variables: { age: 17 } })).toBe(300);
    expect(run('if(car.used, 1.1, 1) * 200', { variables: { car: { used: true } } })).toBeCloseTo(
      220,
    );
  });

  it('reads nested policy object data and earlier results', () => {
    const variables = { car: { enginePower: 110, zip: '10115' }, basePremium: 300 };
    expect(run('basePremium + car.enginePower * 2', { variables })).toBe(520);
    expect(run("car.zip + '-x'", { variables })).toBe('10115-x');
    expect(
      referencedPaths(parseExpression('basePremium + car.enginePower * factor("r", car.zip)')),
    ).toEqual(['basePremium', 'car.enginePower', 'car.zip']);
  });

  it('treats a missing optional value as null and coalesce() supplies a default', () => {
    const variables = { car: { discount: undefined } };
    expect(run('coalesce(car.discount, 0) + 5', { variables })).toBe(5);
  });

  it('functions: min, max, abs, floor, ceil, sqrt, clamp, round', () => {
    expect(run('min(3, 1, 2) + max(3, 1, 2)')).toBe(4);
    expect(run('abs(-2) + floor(2.7) + ceil(2.1) + sqrt(16)')).toBe(11);
    expect(run('clamp(150, 0, 100)')).toBe(100);
    expect(run('round(1.005, 2)')).toBe(1.01);
    expect(run('round(-2.5)')).toBe(-3);
    expect(roundHalfAwayFromZero(2.345, 2)).toBe(2.35);
  });

  it('dates: age on a date, days between, today from the context', () => {
    const variables = { holder: { birthDate: '1990-06-15' } };
    expect(run("yearsBetween(holder.birthDate, '2026-06-14')", { variables })).toBe(35);
    expect(run("yearsBetween(holder.birthDate, '2026-06-15')", { variables })).toBe(36);
    expect(run("daysBetween('2026-01-01', '2026-03-01')")).toBe(59);
    expect(run('yearsBetween(holder.birthDate, today())', { variables, today: '2030-01-01' })).toBe(
      39,
    );
    expect(run("'2026-01-02' > '2026-01-01'")).toBe(true);
  });

  it('looks up factors and named ranges through the caller', () => {
    const context: Partial<EvaluationContext> = {
      variables: { zip: '10115', age: 42 },
      factor: (table, keys) => (table === 'region' && keys[0] === '10115' ? 1.25 : undefined),
      range: (name, value) => (name === 'ageBand' && value >= 40 ? 0.9 : undefined),
    };
    expect(run("100 * factor('region', zip) * range('ageBand', age)", context)).toBeCloseTo(112.5);
    expect(evalCode("factor('region', '99999')", context)).toBe('lookup_failed');
    expect(evalCode("range('other', 1)", context)).toBe('lookup_failed');
  });

  it('every documented function is known to the evaluator', () => {
    for (const name of EXPRESSION_FUNCTIONS) {
      expect(evalCode(`${name}()`)).not.toBe('unknown_function');
    }
  });
});

describe('premium expressions: refusals', () => {
  it.each([
    ['1 +', 'unexpected_end', 3],
    ['(1 + 2', 'unexpected_end', 6],
    ['1 2', 'unexpected_token', 2],
    ['a.', 'unexpected_end', 2],
    ['1.2.3', 'bad_number', 0],
    ['12abc', 'bad_number', 0],
    ["'open", 'unterminated_string', 0],
    ['a = 1', 'unexpected_character', 2],
    ['a[0]', 'unexpected_character', 1],
    ['x => 1', 'unexpected_character', 2],
    ['`x`', 'unexpected_character', 0],
  ])('%s is a syntax error %s at %s', (source, code, at) => {
    expect(syntaxCode(source)).toEqual([code, at]);
  });

  it('refuses formulas that are too long, too deep or too large', () => {
    expect(syntaxCode('1+'.repeat(EXPRESSION_LIMITS.maxLength) + '1')?.[0]).toBe('too_long');
    expect(syntaxCode('('.repeat(100) + '1' + ')'.repeat(100))?.[0]).toBe('too_complex');
    expect(syntaxCode('-'.repeat(100) + '1')?.[0]).toBe('too_complex');
    expect(syntaxCode(Array.from({ length: 400 }, () => '1').join('+'))?.[0]).toBe('too_complex');
  });

  it('cannot reach prototypes, globals or the host', () => {
    for (const source of [
      'constructor',
      'a.constructor',
      'a.__proto__',
      'toString',
      'process.env',
      'globalThis',
      'a.length',
    ]) {
      expect(evalCode(source, { variables: { a: { b: 1 }, list: [1] } }), source).toBe(
        'unknown_variable',
      );
    }
    expect(evalCode('list.length', { variables: { list: [1, 2] } })).toBe('unknown_variable');
    expect(evalCode('eval("1")')).toBe('unknown_function');
    expect(evalCode('a', { variables: { a: { nested: 1 } } })).toBe('type_error');
  });

  it('reports type errors, division by zero and infinities instead of NaN premiums', () => {
    expect(evalCode("'a' * 2")).toBe('type_error');
    expect(evalCode('true + 1')).toBe('type_error');
    expect(evalCode('null + 1')).toBe('type_error');
    expect(evalCode('1 ? 2 : 3')).toBe('type_error');
    expect(evalCode('1 / 0')).toBe('division_by_zero');
    expect(evalCode('5 % 0')).toBe('division_by_zero');
    expect(evalCode('10 ^ 400')).toBe('not_finite');
    expect(evalCode('sqrt(-1)')).toBe('not_finite');
    expect(evalCode('round(1, 1.5)')).toBe('wrong_arguments');
    expect(evalCode('abs(1, 2)')).toBe('wrong_arguments');
    expect(evalCode("yearsBetween('x', '2020-01-01')")).toBe('type_error');
    expect(() => evaluateNumber(parseExpression("'text'"), { variables: {} })).toThrow(
      ExpressionEvaluationError,
    );
  });

  it('does not evaluate the branch that is not taken', () => {
    expect(run('true ? 1 : 1 / 0')).toBe(1);
    expect(run('if(false, 1 / 0, 2)')).toBe(2);
    expect(run('false && 1 / 0 == 1')).toBe(false);
  });
});
