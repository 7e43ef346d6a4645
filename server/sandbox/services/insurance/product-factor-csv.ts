import { ProblemList, readCsv, type FileProblem } from '#server/sandbox/platform/csv.ts';

/**
 * The file format of a product factor table (docs/contracts.md, "Product factors"): a header of
 * one to five key columns and a last column `value`, then one row per key combination:
 *
 *   zipRegion,value
 *   1,1.15
 *   *,1
 *
 * A key cell is any text up to 100 characters, or `*`, which matches every key (a fallback row).
 * A value is a decimal number with a point (`1.15`); with `;` as separator a decimal comma
 * (`1,15`) is read too. Every key combination appears once. Every problem is reported with the
 * line it is on, not only the first.
 */

export const FACTOR_LIMITS = { maxKeyColumns: 5, maxRows: 10_000, maxKeyLength: 100 } as const;

export interface FactorRow {
  keys: string[];
  value: number;
}
export interface FactorTable {
  keyColumns: string[];
  rows: FactorRow[];
}

const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function parseFactorCsv(
  text: string,
): { ok: true; table: FactorTable } | { ok: false; problems: FileProblem[] } {
  const csv = readCsv(text);
  const problems = new ProblemList();
  const [header, ...body] = csv.records;
  if (!header) {
    problems.add(
      csv.problem ?? {
        line: 1,
        code: 'empty_file',
        message: 'line 1: the file is empty; it needs a header such as key,value',
      },
    );
    return { ok: false, problems: problems.list() };
  }

  const columns = header.cells;
  const keyColumns = columns.slice(0, -1);
  if (columns.length < 2) {
    problems.add({
      line: header.line,
      code: 'header_too_short',
      message: `line ${header.line}: the header needs at least one key column and the column value`,
    });
  } else if (columns[columns.length - 1]!.toLowerCase() !== 'value') {
    problems.add({
      line: header.line,
      code: 'header_no_value',
      message: `line ${header.line}: the last column must be named value`,
    });
  }
  if (keyColumns.length > FACTOR_LIMITS.maxKeyColumns) {
    problems.add({
      line: header.line,
      code: 'too_many_keys',
      expected: FACTOR_LIMITS.maxKeyColumns,
      found: keyColumns.length,
      message: `line ${header.line}: at most ${FACTOR_LIMITS.maxKeyColumns} key columns, found ${keyColumns.length}`,
    });
  }
  const seenColumns = new Set<string>();
  for (const column of keyColumns) {
    if (!COLUMN_NAME.test(column)) {
      problems.add({
        line: header.line,
        code: 'bad_column_name',
        value: column,
        message: `line ${header.line}: column "${column}" must be a name of letters, digits and _`,
      });
    } else if (seenColumns.has(column.toLowerCase())) {
      problems.add({
        line: header.line,
        code: 'duplicate_column',
        value: column,
        message: `line ${header.line}: column "${column}" appears twice`,
      });
    }
    seenColumns.add(column.toLowerCase());
  }

  const decimalComma = csv.delimiter === ';';
  const rows: FactorRow[] = [];
  const firstLineOf = new Map<string, number>();
  if (body.length > FACTOR_LIMITS.maxRows) {
    problems.add({
      line: body[FACTOR_LIMITS.maxRows]!.line,
      code: 'too_many_rows',
      expected: FACTOR_LIMITS.maxRows,
      found: body.length,
      message: `at most ${FACTOR_LIMITS.maxRows} rows, found ${body.length}`,
    });
  }
  for (const record of body.slice(0, FACTOR_LIMITS.maxRows)) {
    const { line, cells } = record;
    if (cells.length !== columns.length) {
      problems.add({
        line,
        code: 'wrong_column_count',
        expected: columns.length,
        found: cells.length,
        message: `line ${line}: ${cells.length} cells, the header has ${columns.length}`,
      });
      continue;
    }
    const keys = cells.slice(0, -1);
    let rowOk = true;
    keys.forEach((key, k) => {
      const column = keyColumns[k]!;
      if (key === '') {
        rowOk = false;
        problems.add({
          line,
          column,
          code: 'empty_key',
          message: `line ${line}: ${column} is empty (use * to match every value)`,
        });
      } else if (key.length > FACTOR_LIMITS.maxKeyLength) {
        rowOk = false;
        problems.add({
          line,
          column,
          code: 'key_too_long',
          expected: FACTOR_LIMITS.maxKeyLength,
          message: `line ${line}: ${column} is longer than ${FACTOR_LIMITS.maxKeyLength} characters`,
        });
      }
    });
    const raw = cells[cells.length - 1]!;
    const normalised = decimalComma ? raw.replace(',', '.') : raw;
    const value = /^-?\d{1,15}(\.\d{1,10})?$/.test(normalised) ? Number(normalised) : NaN;
    if (Number.isNaN(value)) {
      rowOk = false;
      problems.add({
        line,
        column: 'value',
        code: 'not_a_number',
        value: raw,
        message: `line ${line}: value "${raw}" is not a number like 1.15`,
      });
    }
    if (!rowOk) continue;
    const identity = JSON.stringify(keys);
    const first = firstLineOf.get(identity);
    if (first !== undefined) {
      problems.add({
        line,
        code: 'duplicate_key',
        otherLine: first,
        value: keys.join(', '),
        message: `line ${line}: the keys ${keys.join(', ')} already appear on line ${first}`,
      });
      continue;
    }
    firstLineOf.set(identity, line);
    rows.push({ keys, value });
  }
  if (csv.problem) problems.add(csv.problem);
  else if (body.length === 0) {
    problems.add({
      line: header.line + 1,
      code: 'no_rows',
      message: `line ${header.line + 1}: the file has a header but no rows`,
    });
  }
  if (!problems.empty) return { ok: false, problems: problems.list() };
  return { ok: true, table: { keyColumns, rows } };
}

const NUMERIC_KEY = /^-?\d+(\.\d+)?$/;

/**
 * The value a factor table gives for the keys of a formula call: a text or yes/no key matches
 * the cell's text exactly (so the postcode 01067 stays itself), a number matches a numeric cell
 * of the same value (1 and 1.0 alike), `*` matches any key including none (null), and of several
 * matching rows the one with the fewest `*` wins, then the earlier row.
 */
export function lookupFactor(table: FactorTable, keys: readonly unknown[]): number | undefined {
  if (keys.length !== table.keyColumns.length) return undefined;
  const matches = (cell: string, key: unknown) =>
    typeof key === 'number'
      ? NUMERIC_KEY.test(cell) && Number(cell) === key
      : (typeof key === 'string' || typeof key === 'boolean') && cell === String(key);
  let best: FactorRow | undefined;
  let bestWildcards = Infinity;
  for (const row of table.rows) {
    let wildcards = 0;
    let match = true;
    for (let i = 0; i < keys.length; i += 1) {
      const cell = row.keys[i]!;
      if (cell === '*') wildcards += 1;
      else if (!matches(cell, keys[i])) {
        match = false;
        break;
      }
    }
    if (match && wildcards < bestWildcards) {
      best = row;
      bestWildcards = wildcards;
      if (wildcards === 0) break;
    }
  }
  return best?.value;
}
