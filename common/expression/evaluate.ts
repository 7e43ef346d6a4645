import type { Node } from './parse.ts';

/**
 * Evaluates a parsed formula against plain data. Nothing here can reach a prototype, a global or
 * the host: variables are looked up as own properties of the given data only, and functions come
 * from a fixed table plus the two lookups (factors, named ranges) the caller provides.
 */

export type Value = number | string | boolean | null;

export interface EvaluationContext {
  /** Policy object data, earlier formula results by variable name, ... (own properties only). */
  variables: Record<string, unknown>;
  /** Product factor table lookup: factor('region', zip) -> a number, or undefined when absent. */
  factor?: (table: string, keys: Value[]) => number | undefined;
  /** Named range lookup: range('age', 42) -> the value of the band holding 42, or undefined. */
  range?: (name: string, value: number) => number | undefined;
  /** "Today" for date functions, passed in so that a premium is reproducible (ISO date). */
  today?: string;
}

export type EvaluationErrorCode =
  | 'unknown_variable'
  | 'unknown_function'
  | 'wrong_arguments'
  | 'type_error'
  | 'division_by_zero'
  | 'not_finite'
  | 'lookup_failed'
  | 'too_many_steps';

export class ExpressionEvaluationError extends Error {
  constructor(
    readonly code: EvaluationErrorCode,
    readonly at: number,
    readonly detail: string,
  ) {
    super(`${code} at ${at}: ${detail}`);
    this.name = 'ExpressionEvaluationError';
  }
}

/** Bounds the work of one evaluation (the parser already bounds the tree's size). */
const MAX_STEPS = 10_000;

const DAY_MS = 86_400_000;

function toDate(value: Value, at: number, name: string): Date {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new ExpressionEvaluationError('type_error', at, `${name} expects ISO dates`);
  }
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) {
    throw new ExpressionEvaluationError('type_error', at, `${name}: invalid date ${value}`);
  }
  return date;
}

/** Whole years from `from` to `to` (an age on a date): the birthday must have been reached. */
function yearsBetween(from: Date, to: Date): number {
  let years = to.getUTCFullYear() - from.getUTCFullYear();
  const beforeBirthday =
    to.getUTCMonth() < from.getUTCMonth() ||
    (to.getUTCMonth() === from.getUTCMonth() && to.getUTCDate() < from.getUTCDate());
  if (beforeBirthday) years -= 1;
  return years;
}

/**
 * Commercial rounding: halves go away from zero (-2.345 to -2.35), and 1.005 rounds to 1.01 as a
 * person expects although the binary 1.005 lies a little below it: the scaled value is nudged by
 * one unit in its last place before rounding, far less than any real distance from a half.
 * The one rounding of the product: the formula language's `round` and every premium
 * (`roundToCents` in common/premium.ts) use it.
 */
export function roundHalfAwayFromZero(value: number, digits = 0): number {
  const factor = 10 ** digits;
  const scaled = Math.abs(value) * factor;
  const rounded = Math.round(scaled + Number.EPSILON * scaled) / factor;
  // A small negative amount rounds to 0, not to -0 (which would print as "-0,00 €").
  return rounded === 0 ? 0 : Math.sign(value) * rounded;
}

export function evaluateExpression(tree: Node, context: EvaluationContext): Value {
  let steps = 0;

  const number = (value: Value, at: number, what: string): number => {
    if (typeof value !== 'number') {
      throw new ExpressionEvaluationError('type_error', at, `${what} needs a number`);
    }
    return value;
  };
  const finite = (value: number, at: number): number => {
    if (!Number.isFinite(value)) throw new ExpressionEvaluationError('not_finite', at, 'result');
    return value;
  };
  const truthy = (value: Value, at: number): boolean => {
    if (typeof value !== 'boolean') {
      throw new ExpressionEvaluationError('type_error', at, 'a condition must be true or false');
    }
    return value;
  };

  const resolve = (names: string[], at: number): Value => {
    let current: unknown = context.variables;
    for (const name of names) {
      if (
        current === null ||
        typeof current !== 'object' ||
        Array.isArray(current) ||
        !Object.hasOwn(current, name)
      ) {
        throw new ExpressionEvaluationError('unknown_variable', at, names.join('.'));
      }
      current = (current as Record<string, unknown>)[name];
    }
    if (current === undefined) return null;
    if (
      current === null ||
      typeof current === 'number' ||
      typeof current === 'string' ||
      typeof current === 'boolean'
    ) {
      return current;
    }
    throw new ExpressionEvaluationError('type_error', at, `${names.join('.')} is not a value`);
  };

  const arity = (name: string, args: Node[], min: number, max: number, at: number) => {
    if (args.length < min || args.length > max) {
      throw new ExpressionEvaluationError('wrong_arguments', at, name);
    }
  };

  const call = (name: string, args: Node[], at: number): Value => {
    // `if` and `coalesce` evaluate lazily, like the ternary they stand for.
    if (name === 'if') {
      arity(name, args, 3, 3, at);
      return truthy(evaluate(args[0]!), at) ? evaluate(args[1]!) : evaluate(args[2]!);
    }
    if (name === 'coalesce') {
      arity(name, args, 1, 20, at);
      for (const arg of args) {
        const value = evaluate(arg);
        if (value !== null) return value;
      }
      return null;
    }
    const values = args.map(evaluate);
    const numbers = () => values.map((v) => number(v, at, name));
    switch (name) {
      case 'min':
      case 'max':
        arity(name, args, 1, 50, at);
        return name === 'min' ? Math.min(...numbers()) : Math.max(...numbers());
      case 'abs':
      case 'floor':
      case 'ceil':
      case 'sqrt': {
        arity(name, args, 1, 1, at);
        const [x] = numbers();
        if (name === 'sqrt' && x! < 0) throw new ExpressionEvaluationError('not_finite', at, name);
        return Math[name](x!);
      }
      case 'round': {
        arity(name, args, 1, 2, at);
        const [x, digits = 0] = numbers();
        if (!Number.isInteger(digits) || digits < 0 || digits > 10) {
          throw new ExpressionEvaluationError('wrong_arguments', at, 'round digits 0..10');
        }
        return roundHalfAwayFromZero(x!, digits);
      }
      case 'clamp': {
        arity(name, args, 3, 3, at);
        const [x, low, high] = numbers();
        return Math.min(Math.max(x!, low!), high!);
      }
      case 'today':
        arity(name, args, 0, 0, at);
        return context.today ?? new Date().toISOString().slice(0, 10);
      case 'yearsBetween':
      case 'daysBetween': {
        arity(name, args, 2, 2, at);
        const from = toDate(values[0]!, at, name);
        const to = toDate(values[1]!, at, name);
        return name === 'yearsBetween'
          ? yearsBetween(from, to)
          : Math.floor((to.getTime() - from.getTime()) / DAY_MS);
      }
      case 'factor': {
        arity(name, args, 2, 6, at);
        const [table, ...keys] = values;
        if (typeof table !== 'string') {
          throw new ExpressionEvaluationError('type_error', at, 'factor table name');
        }
        const found = context.factor?.(table, keys);
        if (found === undefined) {
          throw new ExpressionEvaluationError('lookup_failed', at, `factor ${table}`);
        }
        return found;
      }
      case 'range': {
        arity(name, args, 2, 2, at);
        const [rangeName, value] = values;
        if (typeof rangeName !== 'string') {
          throw new ExpressionEvaluationError('type_error', at, 'range name');
        }
        const found = context.range?.(rangeName, number(value!, at, name));
        if (found === undefined) {
          throw new ExpressionEvaluationError('lookup_failed', at, `range ${rangeName}`);
        }
        return found;
      }
      default:
        throw new ExpressionEvaluationError('unknown_function', at, name);
    }
  };

  const binary = (node: Extract<Node, { kind: 'binary' }>): Value => {
    const { op, at } = node;
    if (op === '&&') return truthy(evaluate(node.left), at) && truthy(evaluate(node.right), at);
    if (op === '||') return truthy(evaluate(node.left), at) || truthy(evaluate(node.right), at);
    const left = evaluate(node.left);
    const right = evaluate(node.right);
    if (op === '==') return left === right;
    if (op === '!=') return left !== right;
    // Joining text with + is allowed (labels); every other operator is arithmetic or order.
    if (op === '+' && (typeof left === 'string' || typeof right === 'string')) {
      if (
        left === null ||
        right === null ||
        typeof left === 'boolean' ||
        typeof right === 'boolean'
      ) {
        throw new ExpressionEvaluationError('type_error', at, '+ joins text and numbers only');
      }
      return `${left}${right}`;
    }
    if (
      (op === '<' || op === '<=' || op === '>' || op === '>=') &&
      typeof left === 'string' &&
      typeof right === 'string'
    ) {
      // ISO dates compare correctly as text, which is what a date comparison in a formula means.
      return op === '<'
        ? left < right
        : op === '<='
          ? left <= right
          : op === '>'
            ? left > right
            : left >= right;
    }
    const a = number(left, at, op);
    const b = number(right, at, op);
    switch (op) {
      case '+':
        return finite(a + b, at);
      case '-':
        return finite(a - b, at);
      case '*':
        return finite(a * b, at);
      case '/':
      case '%':
        if (b === 0) throw new ExpressionEvaluationError('division_by_zero', at, op);
        return finite(op === '/' ? a / b : a % b, at);
      case '^':
        return finite(a ** b, at);
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      case '>=':
        return a >= b;
    }
  };

  function evaluate(node: Node): Value {
    steps += 1;
    if (steps > MAX_STEPS) throw new ExpressionEvaluationError('too_many_steps', node.at, '');
    switch (node.kind) {
      case 'number':
      case 'string':
      case 'boolean':
        return node.value;
      case 'null':
        return null;
      case 'path':
        return resolve(node.names, node.at);
      case 'call':
        return call(node.name, node.args, node.at);
      case 'unary': {
        const value = evaluate(node.operand);
        return node.op === '!' ? !truthy(value, node.at) : -number(value, node.at, '-');
      }
      case 'binary':
        return binary(node);
      case 'conditional':
        return truthy(evaluate(node.test), node.at)
          ? evaluate(node.then)
          : evaluate(node.otherwise);
    }
  }

  return evaluate(tree);
}

/** A premium formula must come out as a finite number. */
export function evaluateNumber(tree: Node, context: EvaluationContext): number {
  const value = evaluateExpression(tree, context);
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ExpressionEvaluationError('type_error', tree.at, 'the formula must give a number');
  }
  return value;
}

/** The names a formula may call; the product editor offers them and checks unknown ones. */
export const EXPRESSION_FUNCTIONS = [
  'abs',
  'ceil',
  'clamp',
  'coalesce',
  'daysBetween',
  'factor',
  'floor',
  'if',
  'max',
  'min',
  'range',
  'round',
  'sqrt',
  'today',
  'yearsBetween',
] as const;
