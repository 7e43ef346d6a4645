import { Liquid, type Template } from 'liquidjs';
import type { ErrorIssue } from '#common/contracts/error.ts';
import { invalidInput } from '#server/sandbox/platform/errors.ts';
import type { VariableRecord, VariableType } from './template-variables.ts';

/**
 * Templates are Liquid (liquidjs: no `eval`, no code of the author runs, output HTML-escaped in
 * the HTML part). The author writes text and variables; the checks at save (`checkTemplate`)
 * refuse what would fail or mislead later, each problem with its line and column: a syntax
 * error, a variable the template's kind does not have, a loop over something that is not a
 * list, a tag that would read files. Rendering is bounded in time and memory.
 */

export type ProblemCode =
  | 'syntax_error'
  | 'unknown_variable'
  | 'not_a_list'
  | 'tag_not_allowed'
  | 'missing_content'
  | 'too_long';

export interface TemplateProblem {
  code: ProblemCode;
  line: number;
  column: number;
  /** The variable or tag the problem is about. */
  name?: string;
  /** English, for logs and the wire's message. */
  message: string;
}

/** Tags that would read other templates or files: a template stands alone. */
const FORBIDDEN_TAGS = ['include', 'render', 'layout', 'block'];
/** What a template may be at most: a letter, not a book. */
export const MAX_TEMPLATE_LENGTH = 100_000;

const LOCALES: Record<string, string> = { de: 'de-DE', en: 'en-GB', pl: 'pl-PL' };

/**
 * `{{ policy.premiumCents | money }}`: an amount in integer cents as the language writes money
 * (`488,72 €`; `money: 'PLN', 'pl'` for another currency and language). Not a number: empty.
 */
export function formatMoney(cents: unknown, currency: unknown = 'EUR', language: unknown = 'de') {
  const amount = typeof cents === 'string' && cents.trim() !== '' ? Number(cents) : cents;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return '';
  try {
    return new Intl.NumberFormat(LOCALES[String(language)] ?? 'de-DE', {
      style: 'currency',
      currency: String(currency),
    }).format(amount / 100);
  } catch {
    return '';
  }
}

/**
 * `{{ policy.startDate | day }}`: a day (YYYY-MM-DD, or the day of an ISO instant) as the language
 * writes it (`01.01.2026`; `day: 'en'` 01/01/2026), read as written: no time zone shifts it.
 */
export function formatDay(value: unknown, language: unknown = 'de'): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value ?? ''));
  if (!match) return '';
  const [, y, m, d] = match;
  return String(language) === 'en' ? `${d}/${m}/${y}` : `${d}.${m}.${y}`;
}

function engine(escapeHtml: boolean, strict: boolean): Liquid {
  const liquid = new Liquid({
    strictVariables: strict,
    strictFilters: true,
    // Only a record's own values: no `constructor`, no prototype walking.
    ownPropertyOnly: true,
    // No file system at all: `templates` replaces it, and it is empty.
    templates: {},
    outputEscape: escapeHtml ? 'escape' : undefined,
    parseLimit: MAX_TEMPLATE_LENGTH,
    renderLimit: 2_000,
    memoryLimit: 20_000_000,
  });
  liquid.registerFilter('money', formatMoney);
  liquid.registerFilter('day', formatDay);
  for (const tag of FORBIDDEN_TAGS) {
    liquid.registerTag(tag, {
      parse(token) {
        throw Object.assign(new Error(`the tag ${tag} is not allowed`), {
          forbiddenTag: tag,
          token,
        });
      },
      render() {
        return '';
      },
    });
  }
  return liquid;
}

const checker = engine(false, true);
const htmlRenderer = engine(true, false);
const textRenderer = engine(false, false);

interface Positioned {
  getPosition(): [number, number];
}
const positionOf = (token: unknown): [number, number] =>
  token && typeof (token as Positioned).getPosition === 'function'
    ? (token as Positioned).getPosition()
    : [1, 1];

/** A liquidjs error as a problem: its own message without the source excerpt it appends. */
function problemOfError(error: unknown): TemplateProblem {
  const e = error as {
    message?: string;
    token?: unknown;
    originalError?: { forbiddenTag?: string };
  };
  const [line, column] = positionOf(e.token);
  const message = String(e.message ?? error)
    .split('\n')[0]!
    .replace(/, line:\d+, col:\d+$/, '');
  const forbidden = e.originalError?.forbiddenTag;
  return forbidden
    ? { code: 'tag_not_allowed', line, column, name: forbidden, message }
    : { code: 'syntax_error', line, column, message };
}

/** The type at `segments` under `type`; undefined when there is none. */
function typeAt(type: VariableType, segments: readonly unknown[]): VariableType | undefined {
  let at: VariableType | undefined = type;
  for (const segment of segments) {
    if (at === undefined) return undefined;
    if (Array.isArray(at)) {
      // A list's size, and its first and last items.
      if (segment === 'size') at = 'number';
      else if (segment === 'first' || segment === 'last') at = at[0] as VariableType;
      else return undefined;
    } else if (typeof at === 'string') {
      return segment === 'size' ? 'number' : undefined;
    } else {
      const record = at as VariableRecord;
      at =
        typeof segment === 'string' && Object.hasOwn(record, segment) ? record[segment] : undefined;
    }
  }
  return at;
}

/** The dotted path of a loop's collection (`policy.premiumItems`); null for a range or literal. */
function collectionPath(token: { getText?: () => string } | undefined): string[] | null {
  const text = token?.getText?.().trim() ?? '';
  return /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/.test(text) ? text.split('.') : null;
}

interface LoopTag {
  name: string;
  token: unknown;
  variable: string;
  collection?: { getText?: () => string };
  templates?: Template[];
  elseTemplates?: Template[];
}

/**
 * The problems of `source` against the variables of its kind; none means it may be saved. A
 * loop's variable takes its list's item type, so `item.name` inside is checked too.
 */
export function checkTemplate(source: string, variables: VariableRecord): TemplateProblem[] {
  if (source.length > MAX_TEMPLATE_LENGTH)
    return [
      {
        code: 'too_long',
        line: 1,
        column: 1,
        message: `a template may have at most ${MAX_TEMPLATE_LENGTH} characters`,
      },
    ];
  let templates: Template[];
  try {
    templates = checker.parse(source);
  } catch (error) {
    return [problemOfError(error)];
  }
  const problems: TemplateProblem[] = [];
  const scope: Record<string, VariableType> = { ...variables };
  const untyped = new Set<string>();
  // Loop variables, by name, with their items' types (nested loops name theirs apart).
  const walk = (nodes: readonly Template[]) => {
    for (const node of nodes) {
      const tag = node as unknown as LoopTag;
      if (tag.name === 'for' && tag.collection) {
        const path = collectionPath(tag.collection);
        const type = path ? typeAt(scope, path) : undefined;
        const [line, column] = positionOf(tag.token);
        if (path && type !== undefined && !Array.isArray(type)) {
          problems.push({
            code: 'not_a_list',
            line,
            column,
            name: path.join('.'),
            message: `${path.join('.')} is not a list`,
          });
        }
        // A list's variable takes its item type; any other loop's (a range, a refused one) is
        // left unchecked rather than reported again at each use.
        if (Array.isArray(type)) scope[tag.variable] = type[0] as VariableType;
        else untyped.add(tag.variable);
      }
      if (tag.templates) walk(tag.templates);
      if (tag.elseTemplates) walk(tag.elseTemplates);
      const branches = (node as unknown as { branches?: { templates: Template[] }[] }).branches;
      for (const branch of branches ?? []) walk(branch.templates);
    }
  };
  walk(templates);
  const analysis = checker.analyzeSync(templates);
  const locals = new Set(Object.keys(analysis.locals));
  for (const [root, uses] of Object.entries(analysis.variables)) {
    // Assigned and captured names are the template's own; `forloop` is Liquid's.
    if (
      root === 'forloop' ||
      untyped.has(root) ||
      (locals.has(root) && !Object.hasOwn(scope, root))
    )
      continue;
    for (const use of uses) {
      const segments = use.segments;
      if (segments.some((s) => typeof s !== 'string' && typeof s !== 'number')) continue;
      if (typeAt(scope, segments) !== undefined) continue;
      problems.push({
        code: 'unknown_variable',
        line: use.location.row,
        column: use.location.col,
        name: String(use),
        message: `unknown variable ${String(use)}`,
      });
    }
  }
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** `{{ content }}` in a layout, the one place the template's body goes. */
const CONTENT = /\{\{-?\s*content\s*-?\}\}/g;

/** A layout's problems: its own, and the body's place, which must be there exactly once. */
export function checkLayout(source: string, variables: VariableRecord): TemplateProblem[] {
  const problems = checkTemplate(source, { ...variables, content: 'text' });
  const places = source.match(CONTENT)?.length ?? 0;
  if (places !== 1 && !problems.some((p) => p.code === 'syntax_error'))
    problems.push({
      code: 'missing_content',
      line: 1,
      column: 1,
      name: 'content',
      message: 'a layout places the body exactly once with {{ content }}',
    });
  return problems;
}

/** Renders checked sources; `html` escapes every value, the body placed as it was rendered. */
export async function renderPart(
  part: 'html' | 'text',
  source: string,
  values: Record<string, unknown>,
  layout?: string,
): Promise<string> {
  const renderer = part === 'html' ? htmlRenderer : textRenderer;
  const body = await renderer.parseAndRender(source, values);
  if (layout === undefined) return body;
  // The body is rendered (and escaped) already: the layout takes it as it is.
  const place = part === 'html' ? '{{ content | raw }}' : '{{ content }}';
  return renderer.parseAndRender(layout.replace(CONTENT, place), { ...values, content: body });
}

/** Problems as the error answer's issues, each at its source (`bodies.de.html`). */
const issuesOf = (path: string, problems: readonly TemplateProblem[]): ErrorIssue[] =>
  problems.map((p) => ({
    path,
    code: p.code,
    line: p.line,
    column: p.column,
    ...(p.name === undefined ? {} : { name: p.name }),
  }));

/** A 400 naming every problem of the checked sources at its path, when there is one. */
export function refuseProblems(
  checked: readonly { path: string; problems: TemplateProblem[] }[],
): void {
  const issues = checked.flatMap(({ path, problems }) => issuesOf(path, problems));
  if (issues.length)
    throw invalidInput(
      issues,
      checked
        .flatMap(({ path, problems }) =>
          problems.map((p) => `${path} line ${p.line}, column ${p.column}: ${p.message}`),
        )
        .join('; '),
    );
}
