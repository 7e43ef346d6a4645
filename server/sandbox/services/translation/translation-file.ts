import { ProblemList, readCsv, type FileProblem } from '#server/sandbox/platform/csv.ts';

/**
 * Translation files of a product language (docs/contracts.md, "Product languages"): JSON, an
 * object of keys and texts (nested objects are joined with `.`: {"vehicle": {"label": "Auto"}}
 * is the key vehicle.label), or CSV with the header `key,value`. Chosen by the file name's
 * extension, else by the content (a file starting with `{` is JSON).
 */

export const TRANSLATION_LIMITS = { maxKeys: 5000, maxValueLength: 5000, maxDepth: 10 } as const;

const KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

export type TranslationFormat = 'json' | 'csv';

export function formatOf(filename: string, text: string): TranslationFormat {
  if (/\.csv$/i.test(filename)) return 'csv';
  if (/\.json$/i.test(filename)) return 'json';
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{')
    ? 'json'
    : 'csv';
}

type Parsed = { ok: true; entries: Map<string, string> } | { ok: false; problems: FileProblem[] };

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The line a JSON key first appears on, so a problem can say where to look. */
const lineOfKey = (text: string, key: string) => {
  const index = text.indexOf(JSON.stringify(key));
  return index < 0 ? 1 : lineAt(text, index);
};

/**
 * Where JSON.parse gave up: the platform's messages name a position only sometimes, so the text is
 * walked once more by a small JSON reader that stops at the first character it cannot take.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i += 1;
  };
  const literal = (word: string) => {
    for (const c of word) {
      if (text[i] !== c) fail();
      i += 1;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i += 1;
    while (text[i] !== '"') {
      if (i >= text.length || text.charCodeAt(i) < 0x20) fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    i += 1;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i += 1;
      space();
      if (text[i] === close) {
        i += 1;
        return;
      }
      for (;;) {
        if (c === '{') {
          space();
          string();
          space();
          if (text[i] !== ':') fail();
          i += 1;
        }
        value();
        space();
        if (text[i] === ',') i += 1;
        else if (text[i] === close) {
          i += 1;
          return;
        } else fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!number) fail();
    i += number![0].length;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
  } catch (at) {
    return Math.min(at as number, text.length);
  }
  return text.length;
}

function parseJson(text: string): Parsed {
  const problems = new ProblemList();
  let data: unknown;
  const source = text.replace(/^\uFEFF/, '');
  try {
    data = JSON.parse(source);
  } catch {
    const line = lineAt(source, jsonErrorOffset(source));
    return {
      ok: false,
      problems: [
        { line, code: 'invalid_json', message: `line ${line}: the file is not valid JSON` },
      ],
    };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      ok: false,
      problems: [
        {
          line: 1,
          code: 'not_an_object',
          message: 'line 1: the file must hold one object of keys and texts',
        },
      ],
    };
  }
  const entries = new Map<string, string>();
  const walk = (node: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [segment, value] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${segment}` : segment;
      // Searched only for a problem: a large file has thousands of keys and few problems.
      const line = () => lineOfKey(source, segment);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        if (depth >= TRANSLATION_LIMITS.maxDepth) {
          const at = line();
          problems.add({
            line: at,
            code: 'too_deep',
            value: key,
            message: `line ${at}: ${key} is nested too deeply`,
          });
        } else walk(value as Record<string, unknown>, key, depth + 1);
        continue;
      }
      addEntry(entries, problems, line, key, value);
    }
  };
  walk(data as Record<string, unknown>, '', 1);
  return finish(entries, problems);
}

function parseCsv(text: string): Parsed {
  const csv = readCsv(text);
  const problems = new ProblemList();
  const entries = new Map<string, string>();
  const [header, ...rows] = csv.records;
  if (
    !header ||
    header.cells.length !== 2 ||
    header.cells[0] !== 'key' ||
    header.cells[1] !== 'value'
  ) {
    problems.add({
      line: header?.line ?? 1,
      code: 'header_key_value',
      message: `line ${header?.line ?? 1}: the header must be key,value`,
    });
  }
  const firstLine = new Map<string, number>();
  for (const { line, cells } of header ? rows : []) {
    if (cells.length !== 2) {
      problems.add({
        line,
        code: 'wrong_column_count',
        expected: 2,
        found: cells.length,
        message: `line ${line}: ${cells.length} cells, the header has 2`,
      });
      continue;
    }
    const [key, value] = cells as [string, string];
    const first = firstLine.get(key);
    if (first !== undefined) {
      problems.add({
        line,
        code: 'duplicate_key',
        otherLine: first,
        value: key,
        message: `line ${line}: the key ${key} already appears on line ${first}`,
      });
      continue;
    }
    firstLine.set(key, line);
    addEntry(entries, problems, () => line, key, value);
  }
  if (csv.problem) problems.add(csv.problem);
  return finish(entries, problems);
}

function addEntry(
  entries: Map<string, string>,
  problems: ProblemList,
  lineOf: () => number,
  key: string,
  value: unknown,
) {
  const ok =
    KEY.test(key) && typeof value === 'string' && value.length <= TRANSLATION_LIMITS.maxValueLength;
  if (ok) {
    entries.set(key, value);
    return;
  }
  const line = lineOf();
  if (!KEY.test(key)) {
    problems.add({
      line,
      code: 'bad_key',
      value: key,
      message: `line ${line}: "${key}" is not a key of letters, digits, _ . and -`,
    });
  } else if (typeof value !== 'string') {
    problems.add({
      line,
      code: 'not_text',
      value: key,
      message: `line ${line}: the value of ${key} must be text`,
    });
  } else if (value.length > TRANSLATION_LIMITS.maxValueLength) {
    problems.add({
      line,
      code: 'value_too_long',
      value: key,
      expected: TRANSLATION_LIMITS.maxValueLength,
      message: `line ${line}: the text of ${key} is longer than ${TRANSLATION_LIMITS.maxValueLength} characters`,
    });
  }
}

function finish(entries: Map<string, string>, problems: ProblemList): Parsed {
  if (problems.empty && entries.size === 0) {
    problems.add({
      line: 1,
      code: 'no_translations',
      message: 'line 1: the file has no translations',
    });
  }
  if (entries.size > TRANSLATION_LIMITS.maxKeys) {
    problems.add({
      line: 1,
      code: 'too_many_translations',
      expected: TRANSLATION_LIMITS.maxKeys,
      found: entries.size,
      message: `at most ${TRANSLATION_LIMITS.maxKeys} keys, found ${entries.size}`,
    });
  }
  return problems.empty ? { ok: true, entries } : { ok: false, problems: problems.list() };
}

export function parseTranslationFile(filename: string, text: string): Parsed {
  return formatOf(filename, text) === 'json' ? parseJson(text) : parseCsv(text);
}

const csvCell = (value: string) =>
  /[",;\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value;

/** The file a download answers: keys in order, as JSON (flat) or as CSV. */
export function writeTranslationFile(
  format: TranslationFormat,
  entries: [string, string][],
): string {
  if (format === 'json') return `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
  return (
    ['key,value', ...entries.map(([k, v]) => `${csvCell(k)},${csvCell(v)}`)].join('\r\n') + '\r\n'
  );
}
