/**
 * The premium-formula language: a small, side-effect-free expression grammar, parsed into a tree
 * and evaluated by walking it (see evaluate.ts). It exists so that formulas typed by a product
 * manager never reach `eval` or `new Function` on the server or in the browser; the same parser
 * checks a formula while it is typed and computes the premium in the sandbox.
 *
 * Grammar (precedence low to high):
 *   conditional  := or ( '?' conditional ':' conditional )?
 *   or           := and ( '||' and )*
 *   and          := equality ( '&&' equality )*
 *   equality     := comparison ( ('==' | '!=') comparison )*
 *   comparison   := additive ( ('<' | '<=' | '>' | '>=') additive )*
 *   additive     := multiplicative ( ('+' | '-') multiplicative )*
 *   multiplicative := unary ( ('*' | '/' | '%') unary )*
 *   unary        := ('-' | '!') unary | power
 *   power        := primary ( '^' unary )?          (right-associative: 2^3^2 = 2^9)
 *   primary      := number | string | true | false | null | path | call | '(' conditional ')'
 *   path         := name ( '.' name )*              (policy object data, earlier formula results)
 *   call         := name '(' ( conditional ( ',' conditional )* )? ')'
 */

export type Node =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'boolean'; value: boolean; at: number }
  | { kind: 'null'; at: number }
  | { kind: 'path'; names: string[]; at: number }
  | { kind: 'call'; name: string; args: Node[]; at: number }
  | { kind: 'unary'; op: '-' | '!'; operand: Node; at: number }
  | { kind: 'binary'; op: BinaryOp; left: Node; right: Node; at: number }
  | { kind: 'conditional'; test: Node; then: Node; otherwise: Node; at: number };

export type BinaryOp =
  '+' | '-' | '*' | '/' | '%' | '^' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

/** Limits keep a hostile or mistaken formula from costing the server more than a trifle. */
export const EXPRESSION_LIMITS = { maxLength: 2000, maxNodes: 500, maxDepth: 40 } as const;

/** A formula that cannot be read; `at` is the 0-based character offset shown to the author. */
export class ExpressionSyntaxError extends Error {
  constructor(
    readonly code:
      | 'too_long'
      | 'too_complex'
      | 'unexpected_character'
      | 'unterminated_string'
      | 'unexpected_token'
      | 'unexpected_end'
      | 'bad_number',
    readonly at: number,
    detail?: string,
  ) {
    super(`${code} at ${at}${detail ? `: ${detail}` : ''}`);
    this.name = 'ExpressionSyntaxError';
  }
}

type Token =
  | { type: 'number'; value: number; at: number }
  | { type: 'string'; value: string; at: number }
  | { type: 'name'; value: string; at: number }
  | { type: 'op'; value: string; at: number }
  | { type: 'end'; at: number };

const OPERATORS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '<',
  '>',
  '!',
  '?',
  ':',
  '(',
  ')',
  ',',
  '.',
];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const at = i;
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const match = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i))!;
      const value = Number(match[0]);
      if (!Number.isFinite(value)) throw new ExpressionSyntaxError('bad_number', at, match[0]);
      tokens.push({ type: 'number', value, at });
      i += match[0].length;
      // "1.2.3" or "12abc" is a typo, not a number followed by a path.
      if (/[A-Za-z_$0-9.]/.test(source[i] ?? '')) {
        throw new ExpressionSyntaxError('bad_number', at, source.slice(at, i + 1));
      }
      continue;
    }
    if (/[A-Za-z_$]/.test(ch)) {
      const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(source.slice(i))!;
      tokens.push({ type: 'name', value: match[0], at });
      i += match[0].length;
      continue;
    }
    if (ch === "'" || ch === '"') {
      let value = '';
      i += 1;
      while (i < source.length && source[i] !== ch) {
        // A backslash escapes the next character (a quote inside a string).
        if (source[i] === '\\' && i + 1 < source.length) i += 1;
        value += source[i];
        i += 1;
      }
      if (i >= source.length) throw new ExpressionSyntaxError('unterminated_string', at);
      i += 1;
      tokens.push({ type: 'string', value, at });
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (!op) throw new ExpressionSyntaxError('unexpected_character', at, ch);
    tokens.push({ type: 'op', value: op, at });
    i += op.length;
  }
  tokens.push({ type: 'end', at: source.length });
  return tokens;
}

/** Parses a formula into its tree, or throws {@link ExpressionSyntaxError}. */
export function parseExpression(source: string): Node {
  if (source.length > EXPRESSION_LIMITS.maxLength) {
    throw new ExpressionSyntaxError('too_long', EXPRESSION_LIMITS.maxLength);
  }
  const tokens = tokenize(source);
  let position = 0;
  let nodes = 0;
  let depth = 0;

  const peek = () => tokens[position]!;
  const isOp = (value: string) => {
    const token = peek();
    return token.type === 'op' && token.value === value;
  };
  const fail = (token: Token): never => {
    if (token.type === 'end') throw new ExpressionSyntaxError('unexpected_end', token.at);
    throw new ExpressionSyntaxError('unexpected_token', token.at, String(token.value));
  };
  const expect = (value: string) => {
    if (!isOp(value)) fail(peek());
    position += 1;
  };
  const node = <T extends Node>(made: T): T => {
    nodes += 1;
    if (nodes > EXPRESSION_LIMITS.maxNodes) {
      throw new ExpressionSyntaxError('too_complex', made.at);
    }
    return made;
  };
  const nested = <T>(at: number, read: () => T): T => {
    depth += 1;
    if (depth > EXPRESSION_LIMITS.maxDepth) throw new ExpressionSyntaxError('too_complex', at);
    try {
      return read();
    } finally {
      depth -= 1;
    }
  };

  const binaryLevel = (ops: readonly BinaryOp[], next: () => Node) => (): Node => {
    let left = next();
    for (;;) {
      const token = peek();
      if (token.type !== 'op' || !ops.includes(token.value as BinaryOp)) return left;
      position += 1;
      const right = next();
      left = node({ kind: 'binary', op: token.value as BinaryOp, left, right, at: token.at });
    }
  };

  const primary = (): Node => {
    const token = peek();
    position += 1;
    switch (token.type) {
      case 'number':
        return node({ kind: 'number', value: token.value, at: token.at });
      case 'string':
        return node({ kind: 'string', value: token.value, at: token.at });
      case 'name': {
        if (token.value === 'true' || token.value === 'false') {
          return node({ kind: 'boolean', value: token.value === 'true', at: token.at });
        }
        if (token.value === 'null') return node({ kind: 'null', at: token.at });
        if (isOp('(')) {
          position += 1;
          const args: Node[] = [];
          if (!isOp(')')) {
            args.push(conditional());
            while (isOp(',')) {
              position += 1;
              args.push(conditional());
            }
          }
          expect(')');
          return node({ kind: 'call', name: token.value, args, at: token.at });
        }
        const names = [token.value];
        while (isOp('.')) {
          position += 1;
          const next = peek();
          if (next.type !== 'name') return fail(next);
          names.push(next.value);
          position += 1;
        }
        return node({ kind: 'path', names, at: token.at });
      }
      case 'op':
        if (token.value === '(') {
          const inner = nested(token.at, conditional);
          expect(')');
          return inner;
        }
        return fail(token);
      case 'end':
        return fail(token);
    }
  };

  const unary = (): Node => {
    const token = peek();
    if (token.type === 'op' && (token.value === '-' || token.value === '!')) {
      position += 1;
      const operand = nested(token.at, unary);
      return node({ kind: 'unary', op: token.value, operand, at: token.at });
    }
    const base = primary();
    if (isOp('^')) {
      const at = peek().at;
      position += 1;
      const exponent = nested(at, unary);
      return node({ kind: 'binary', op: '^', left: base, right: exponent, at });
    }
    return base;
  };

  const multiplicative = binaryLevel(['*', '/', '%'], unary);
  const additive = binaryLevel(['+', '-'], multiplicative);
  const comparison = binaryLevel(['<', '<=', '>', '>='], additive);
  const equality = binaryLevel(['==', '!='], comparison);
  const and = binaryLevel(['&&'], equality);
  const or = binaryLevel(['||'], and);

  function conditional(): Node {
    const test = or();
    if (!isOp('?')) return test;
    const at = peek().at;
    position += 1;
    const then = nested(at, conditional);
    expect(':');
    const otherwise = nested(at, conditional);
    return node({ kind: 'conditional', test, then, otherwise, at });
  }

  const tree = conditional();
  if (peek().type !== 'end') fail(peek());
  return tree;
}

/** Calls `visit` for every node of a formula, parents before their children. */
export function forEachNode(tree: Node, visit: (node: Node) => void): void {
  visit(tree);
  switch (tree.kind) {
    case 'call':
      tree.args.forEach((arg) => forEachNode(arg, visit));
      return;
    case 'unary':
      forEachNode(tree.operand, visit);
      return;
    case 'binary':
      forEachNode(tree.left, visit);
      forEachNode(tree.right, visit);
      return;
    case 'conditional':
      forEachNode(tree.test, visit);
      forEachNode(tree.then, visit);
      forEachNode(tree.otherwise, visit);
      return;
    default:
      return;
  }
}

/** Every variable path a formula reads (for "unknown field" checks in the product editor). */
export function referencedPaths(tree: Node): string[] {
  const found = new Set<string>();
  forEachNode(tree, (n) => {
    if (n.kind === 'path') found.add(n.names.join('.'));
  });
  return [...found];
}
