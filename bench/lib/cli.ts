import { pathToFileURL } from 'node:url';

/** Runs `main` when the module is the script node was started with, not when it is imported. */
export function runWhenMain(moduleUrl: string, main: () => Promise<void>): void {
  if (process.argv[1] && moduleUrl === pathToFileURL(process.argv[1]).href) {
    main().catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  }
}

/** With `--check`, names each broken budget and exits 1; without, the figures only inform. */
export function checkBudgets(argv: readonly string[], failures: readonly string[]): void {
  if (argv.includes('--check') && failures.length) {
    for (const f of failures) console.error(`BUDGET BROKEN: ${f}`);
    process.exit(1);
  }
}

/** The text of `--name=text`, or undefined without the flag. */
export function textFlag(argv: readonly string[], name: string): string | undefined {
  return argv.find((x) => x.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** `--name=N` read as a number and checked, or the fallback; else it stops naming the flag. */
function checkedFlag(
  argv: readonly string[],
  name: string,
  fallback: number,
  valid: (n: number) => boolean,
  what: string,
): number {
  const text = textFlag(argv, name);
  const n = text === undefined ? fallback : Number(text);
  if (!valid(n)) throw new Error(`--${name} must be ${what}`);
  return n;
}

/** `--name=N` as a positive number, or the fallback; anything else stops with the flag's name. */
export const numberFlag = (argv: readonly string[], name: string, fallback: number): number =>
  checkedFlag(argv, name, fallback, (n) => Number.isFinite(n) && n > 0, 'a positive number');

/** `--name=N` as a positive whole number (a count, a page), or the fallback. */
export const countFlag = (argv: readonly string[], name: string, fallback: number): number =>
  checkedFlag(argv, name, fallback, (n) => Number.isInteger(n) && n >= 1, 'a positive integer');

/**
 * A benchmark's `main`: when it needs something that is missing (a client build), it says so
 * and exits 1; otherwise it measures, prints the figures (or JSON with `--json`) and checks the
 * budgets.
 */
export function buildBenchMain<R extends { failures: readonly string[] }>(o: {
  missingBuild?: () => string | null;
  measure: (argv: string[]) => Promise<R>;
  print: (report: R) => void;
}): () => Promise<void> {
  return async () => {
    const argv = process.argv.slice(2);
    const missing = o.missingBuild?.() ?? null;
    if (missing) {
      console.error(missing);
      process.exit(1);
    }
    const report = await o.measure(argv);
    if (argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
    else o.print(report);
    checkBudgets(argv, report.failures);
  };
}
