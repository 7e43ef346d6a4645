import {
  EXPRESSION_FUNCTIONS,
  ExpressionEvaluationError,
  evaluateExpression,
  type EvaluationErrorCode,
  type Value,
} from './evaluate.ts';
import { ExpressionSyntaxError, parseExpression, type Node } from './parse.ts';

/**
 * The check of a premium formula when it is saved (issue 15, point 1): it must parse, read only
 * names the product version has when it runs, use each value as its type allows (no arithmetic on
 * a text field), and hold no error a calculation would always hit (`x / 0`, `10 ^ 400`). The
 * same check runs in the sandbox at save and at activation; each problem is data (a code, the
 * 0-based character offset `position`, the `name` it is about), so that the screen says it in
 * the user's language and points at the place.
 */

/** What a name holds when the formula runs; `any` where the check cannot know (no issue then). */
export type FormulaType = 'number' | 'string' | 'boolean' | 'date' | 'null' | 'any';

export interface FormulaScope {
  /** Readable names (`vehicle.vehicleValue`, bare 'default' fields, earlier variables) by type. */
  names: ReadonlyMap<string, FormulaType>;
  /** Factor tables by name, with their number of key columns. */
  factors: ReadonlyMap<string, number>;
  /** Named ranges by name. */
  ranges: ReadonlySet<string>;
}

export type FormulaIssueCode =
  | ExpressionSyntaxError['code']
  // The evaluator's own codes, for an error every calculation would hit.
  | EvaluationErrorCode
  | 'unknown_name'
  | 'not_a_number'
  | 'lookup_name_not_text'
  | 'unknown_factor'
  | 'unknown_range'
  | 'factor_key_count';

export interface FormulaIssue {
  code: FormulaIssueCode;
  /** 0-based offset of the character the problem starts at. */
  position: number;
  /** The name, function, table or operator the problem is about, when there is one. */
  name?: string;
  /** factor_key_count: the keys the table takes, and the keys the formula passes. */
  expected?: number;
  found?: number;
}

interface Typed {
  type: FormulaType;
  /** Set when the node's value is the same for every policy (no name, no lookup, no today()). */
  constant?: { value: Value };
}

const ARITHMETIC = new Set(['-', '*', '/', '%', '^']);
const ORDER = new Set(['<', '<=', '>', '>=']);
/** How many values each function takes (the evaluator checks the same at run time). */
const ARITY: Record<string, [number, number]> = {
  min: [1, 50],
  max: [1, 50],
  abs: [1, 1],
  floor: [1, 1],
  ceil: [1, 1],
  sqrt: [1, 1],
  round: [1, 2],
  clamp: [3, 3],
  if: [3, 3],
  coalesce: [1, 20],
  today: [0, 0],
  yearsBetween: [2, 2],
  daysBetween: [2, 2],
  factor: [2, 6],
  range: [2, 2],
};

const isNumber = (t: FormulaType) => t === 'number' || t === 'any';
const isBoolean = (t: FormulaType) => t === 'boolean' || t === 'any';
const isText = (t: FormulaType) => t === 'string' || t === 'date' || t === 'any';
const merge = (a: FormulaType, b: FormulaType): FormulaType => (a === b ? a : 'any');

/** Every problem of a formula over a scope; [] when it may be saved. */
export function formulaIssues(source: string, scope: FormulaScope): FormulaIssue[] {
  let tree: Node;
  try {
    tree = parseExpression(source);
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) {
      const detail = error.message.includes(': ')
        ? error.message.slice(error.message.indexOf(': ') + 2)
        : undefined;
      return [
        { code: error.code, position: error.at, ...(detail !== undefined ? { name: detail } : {}) },
      ];
    }
    throw error;
  }
  const issues: FormulaIssue[] = [];
  const functions = new Set<string>(EXPRESSION_FUNCTIONS);
  const report = (issue: FormulaIssue): Typed => {
    issues.push(issue);
    return { type: 'any' };
  };

  /** A subtree whose parts are all constant is computed now: its error is every policy's. */
  const fold = (node: Node, type: FormulaType): Typed => {
    try {
      return { type, constant: { value: evaluateExpression(node, { variables: {} }) } };
    } catch (error) {
      if (!(error instanceof ExpressionEvaluationError)) throw error;
      return report({ code: error.code, position: error.at, name: error.detail || undefined });
    }
  };

  const callOf = (node: Extract<Node, { kind: 'call' }>): Typed => {
    const { name, args, at } = node;
    if (!functions.has(name)) {
      args.forEach(visit);
      return report({ code: 'unknown_function', position: at, name });
    }
    const [min, max] = ARITY[name]!;
    if (args.length < min || args.length > max) {
      args.forEach(visit);
      return report({ code: 'wrong_arguments', position: at, name });
    }
    if (name === 'factor' || name === 'range') return lookupOf(node);
    const typed = args.map(visit);
    const wrongType = (index: number) =>
      report({ code: 'type_error', position: args[index]!.at, name });
    const constant = typed.every((t) => t.constant) && name !== 'today';
    switch (name) {
      case 'if': {
        if (!isBoolean(typed[0]!.type)) return wrongType(0);
        return { type: merge(typed[1]!.type, typed[2]!.type) };
      }
      case 'coalesce': {
        const kinds = typed.map((t) => t.type).filter((t) => t !== 'null');
        return { type: kinds.reduce(merge, kinds[0] ?? 'null') };
      }
      case 'today':
        return { type: 'date' };
      case 'yearsBetween':
      case 'daysBetween': {
        const bad = typed.findIndex((t) => !isText(t.type));
        if (bad >= 0) return wrongType(bad);
        return constant ? fold(node, 'number') : { type: 'number' };
      }
      default: {
        const bad = typed.findIndex((t) => !isNumber(t.type));
        if (bad >= 0) return wrongType(bad);
        return constant ? fold(node, 'number') : { type: 'number' };
      }
    }
  };

  const lookupOf = (node: Extract<Node, { kind: 'call' }>): Typed => {
    const [first, ...keys] = node.args;
    const typed = keys.map(visit);
    if (first?.kind !== 'string') {
      return report({ code: 'lookup_name_not_text', position: node.at, name: node.name });
    }
    if (node.name === 'range') {
      if (!scope.ranges.has(first.value)) {
        return report({ code: 'unknown_range', position: node.at, name: first.value });
      }
      if (!isNumber(typed[0]!.type)) {
        return report({ code: 'type_error', position: keys[0]!.at, name: 'range' });
      }
      return { type: 'number' };
    }
    const columns = scope.factors.get(first.value);
    if (columns === undefined) {
      return report({ code: 'unknown_factor', position: node.at, name: first.value });
    }
    if (columns !== keys.length) {
      return report({
        code: 'factor_key_count',
        position: node.at,
        name: first.value,
        expected: columns,
        found: keys.length,
      });
    }
    return { type: 'number' };
  };

  const binaryOf = (node: Extract<Node, { kind: 'binary' }>): Typed => {
    const left = visit(node.left);
    const right = visit(node.right);
    const { op, at } = node;
    const both = left.constant && right.constant;
    if (op === '==' || op === '!=') return both ? fold(node, 'boolean') : { type: 'boolean' };
    if (op === '&&' || op === '||') {
      if (!isBoolean(left.type) || !isBoolean(right.type)) {
        return report({ code: 'type_error', position: at, name: op });
      }
      return { type: 'boolean' };
    }
    if (ORDER.has(op)) {
      const fits =
        (isNumber(left.type) && isNumber(right.type)) || (isText(left.type) && isText(right.type));
      if (!fits) return report({ code: 'type_error', position: at, name: op });
      return both ? fold(node, 'boolean') : { type: 'boolean' };
    }
    if (op === '+' && (left.type === 'string' || right.type === 'string')) {
      // Joining text is allowed with text and numbers (a label); not with a yes/no or nothing.
      const joinable = (t: FormulaType) => t === 'string' || t === 'number' || t === 'any';
      if (!joinable(left.type) || !joinable(right.type)) {
        return report({ code: 'type_error', position: at, name: op });
      }
      return both ? fold(node, 'string') : { type: 'string' };
    }
    if (!isNumber(left.type) || !isNumber(right.type)) {
      return report({ code: 'type_error', position: at, name: op });
    }
    // `x / 0` fails for every x, although x is only known per policy.
    if ((op === '/' || op === '%') && right.constant?.value === 0) {
      return report({ code: 'division_by_zero', position: at, name: op });
    }
    if (ARITHMETIC.has(op) || op === '+') return both ? fold(node, 'number') : { type: 'number' };
    return { type: 'any' };
  };

  function visit(node: Node): Typed {
    switch (node.kind) {
      case 'number':
        return { type: 'number', constant: { value: node.value } };
      case 'string':
        return { type: 'string', constant: { value: node.value } };
      case 'boolean':
        return { type: 'boolean', constant: { value: node.value } };
      case 'null':
        return { type: 'null', constant: { value: null } };
      case 'path': {
        const name = node.names.join('.');
        const type = scope.names.get(name);
        if (type === undefined) return report({ code: 'unknown_name', position: node.at, name });
        return { type };
      }
      case 'call':
        return callOf(node);
      case 'unary': {
        const operand = visit(node.operand);
        const fits = node.op === '-' ? isNumber(operand.type) : isBoolean(operand.type);
        if (!fits) return report({ code: 'type_error', position: node.at, name: node.op });
        const type = node.op === '-' ? 'number' : 'boolean';
        return operand.constant ? fold(node, type) : { type };
      }
      case 'binary':
        return binaryOf(node);
      case 'conditional': {
        const test = visit(node.test);
        const then = visit(node.then);
        const otherwise = visit(node.otherwise);
        if (!isBoolean(test.type)) {
          return report({ code: 'type_error', position: node.at, name: '?' });
        }
        return { type: merge(then.type, otherwise.type) };
      }
    }
  }

  const result = visit(tree);
  // A premium is a number: a formula that always gives text or a yes/no cannot be one.
  if (!issues.length && !isNumber(result.type)) {
    issues.push({ code: 'not_a_number', position: tree.at });
  }
  return issues;
}

/** A field type of a product (number, string, boolean, date) as a formula sees it. */
export const formulaTypeOf = (fieldType: string): FormulaType =>
  fieldType === 'number' ||
  fieldType === 'string' ||
  fieldType === 'boolean' ||
  fieldType === 'date'
    ? fieldType
    : 'any';
