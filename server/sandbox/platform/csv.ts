import type { FileProblem } from '#common/file-problem.ts';
import { HttpError } from './errors.ts';

export type { FileProblem };

/**
 * A small RFC 4180 reader for the files product managers upload (factor tables, translations):
 * quoted cells with "" escapes and line breaks, `,` or `;` as separator (spreadsheets set up for
 * German export `;`), a UTF-8 byte order mark, CRLF or LF. Every record keeps the line it starts
 * on, so that each problem names the line a person sees in an editor.
 */

export interface CsvRecord {
  line: number;
  cells: string[];
}

export interface CsvText {
  delimiter: ',' | ';';
  records: CsvRecord[];
  /** Set when the file cannot be read further (an unterminated quote). */
  problem: FileProblem | null;
}

/** The separator of the header line: `;` when it has more of them than commas outside quotes. */
function delimiterOf(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === ',') commas += 1;
    else if (!quoted && c === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

export function readCsv(input: string): CsvText {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const delimiter = delimiterOf(text);
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const start = line;
    const cells: string[] = [];
    let quotedAny = false;
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        quotedAny = true;
        const quoteLine = line;
        i += 1;
        for (;;) {
          if (i >= text.length) {
            return {
              delimiter,
              records,
              problem: {
                line: quoteLine,
                code: 'unterminated_quote',
                message: `line ${quoteLine}: a quoted cell is not closed`,
              },
            };
          }
          const c = text[i]!;
          if (c === '"' && text[i + 1] === '"') {
            cell += '"';
            i += 2;
          } else if (c === '"') {
            i += 1;
            break;
          } else {
            if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line += 1;
            cell += c;
            i += 1;
          }
        }
        // Anything between the closing quote and the separator is kept, as spreadsheets do.
        while (i < text.length && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') {
          cell += text[i];
          i += 1;
        }
      } else {
        while (i < text.length && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') {
          cell += text[i];
          i += 1;
        }
        cell = cell.trim();
      }
      cells.push(cell);
      if (text[i] === delimiter) {
        i += 1;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i += 1;
    if (text[i] === '\n') i += 1;
    line += 1;
    // Blank lines (an empty last line above all) are not records.
    if (cells.length === 1 && cells[0] === '' && !quotedAny) continue;
    records.push({ line: start, cells });
  }
  return { delimiter, records, problem: null };
}

/** Problems beyond this many are summed up in one last entry, so an answer stays small. */
export const MAX_PROBLEMS = 200;

/** Collects problems up to MAX_PROBLEMS and counts the rest. */
export class ProblemList {
  readonly items: FileProblem[] = [];
  private more = 0;
  private lastLine = 1;

  add(problem: FileProblem): void {
    this.lastLine = problem.line;
    if (this.items.length < MAX_PROBLEMS) this.items.push(problem);
    else this.more += 1;
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  list(): FileProblem[] {
    if (!this.more) return this.items;
    return [
      ...this.items,
      {
        line: this.lastLine,
        code: 'too_many_problems',
        count: this.more,
        message: `${this.more} more problems`,
      },
    ];
  }
}

/** The 400 of a refused upload: every problem in `problems`, the first three in the message. */
export function invalidFile(problems: FileProblem[]): HttpError {
  const shown = problems.slice(0, 3).map((p) => p.message);
  const count = problems.length === 1 ? 'one problem' : `${problems.length} problems`;
  return new HttpError(
    400,
    'invalid_file',
    `${count}: ${shown.join('; ')}${problems.length > 3 ? '; …' : ''}`,
    { problems },
  );
}
