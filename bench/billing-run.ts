/**
 * The billing run at scale (issue 18): the time of one run over 100 000 policies that have no
 * invoices yet, and of a second run right after it, which must create nothing (idempotent).
 *
 * Method: a first start of the real stack (`startStack`) seeds the demo world on a fresh data
 * directory (its start runs the billing run once over the demo policies); with it stopped, the
 * demo workspace grows to `--policies` policies with the seed command's code (`growPolicies`,
 * what `npm run seed:policies` runs, as `preparePolicyWorld` does for policy-list.ts). The grown
 * policies have no invoices: the stack has not started since. The data directory is then copied
 * (so that a kept `--billing-data-dir` stays unbilled for the next run) and, on the copy, PGlite is
 * opened in this process and `runBilling` (billing-run.ts, the function the sandbox's day hook
 * calls) runs twice with the same clock: each run timed, its invoices counted. No HTTP: the
 * run is the sandbox's own job. Prints the invoices, items and seconds of each run and the
 * invoices per second of the first; fails when the second run creates anything.
 *
 * Usage: npx tsx bench/billing-run.ts [--check] [--json] [--count=100000]
 *        [--data-dir=<dir, kept and reused>]
 * (in run-all.ts: --policies=N and --billing-data-dir=<dir>).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, type Db } from '#server/sandbox/platform/db.ts';
import { growPolicies } from '#server/sandbox/services/insurance/seed-policies.ts';
import { runBilling } from '#server/sandbox/services/billing/billing-run.ts';
import { buildBenchMain, countFlag, runWhenMain, textFlag } from './lib/cli.ts';
import { prepareGrownWorld } from './lib/grown-world.ts';

export interface BillingRunOptions {
  count: number;
  dataDir?: string;
}

interface Run {
  invoices: number;
  items: number;
  seconds: number;
}

export interface BillingRunReport {
  options: BillingRunOptions;
  policies: number;
  /** Policies the growth added (none when a kept directory had them). */
  grown: number;
  growSeconds: number;
  invoicesBefore: number;
  first: Run;
  second: Run;
  invoicesPerSecond: number;
  failures: string[];
}

const countRows = async (db: Db, table: string) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

async function timedRun(db: Db, nowMs: number): Promise<Run> {
  const items = await countRows(db, 'invoice_items');
  const started = performance.now();
  const { invoices } = await runBilling(db, nowMs);
  const seconds = (performance.now() - started) / 1000;
  return { invoices, items: (await countRows(db, 'invoice_items')) - items, seconds };
}

export async function measureBillingRun(opts: BillingRunOptions): Promise<BillingRunReport> {
  let before = 0;
  const world = await prepareGrownWorld({
    dataDir: opts.dataDir,
    prefix: 'bench-billing-',
    grow: async (db) => {
      const grown = await growPolicies(db, 'demo', opts.count);
      before = grown.before;
      return grown.after;
    },
  });
  const copy = await mkdtemp(join(tmpdir(), 'bench-billing-run-'));
  try {
    await cp(world.dataDir, copy, { recursive: true });
    const db = await openPglite(copy);
    try {
      const invoicesBefore = await countRows(db, 'invoices');
      // One clock for both runs: the second is the same day's run again.
      const nowMs = Date.now();
      const first = await timedRun(db, nowMs);
      const second = await timedRun(db, nowMs);
      const failures: string[] = [];
      if (second.invoices !== 0)
        failures.push(`the second billing run created ${second.invoices} invoices (must be 0)`);
      if (first.invoices === 0)
        failures.push('the first billing run created nothing: were the policies billed already?');
      return {
        options: opts,
        policies: world.count,
        grown: world.count - before,
        growSeconds: world.growSeconds,
        invoicesBefore,
        first,
        second,
        invoicesPerSecond: first.invoices / first.seconds,
        failures,
      };
    } finally {
      await db.close();
    }
  } finally {
    await rm(copy, { recursive: true, force: true });
    await world.dispose();
  }
}

export function printBillingRun(r: BillingRunReport) {
  const run = (x: Run) => `${x.invoices} invoices (${x.items} items) in ${x.seconds.toFixed(2)} s`;
  console.log(`\nBilling run, ${r.policies} policies in the demo workspace`);
  console.log(
    `  grown by ${r.grown} in ${r.growSeconds.toFixed(1)} s; ${r.invoicesBefore} invoices before`,
  );
  console.log(`  first run:  ${run(r.first)} (${r.invoicesPerSecond.toFixed(0)} invoices/s)`);
  console.log(`  second run: ${run(r.second)} (idempotent: must be 0 invoices)`);
}

/**
 * Standalone, `--count` and `--data-dir` as in policy-list.ts; run-all.ts passes one command
 * line to every bench, so there (`prefixed`) they are `--policies` and `--billing-data-dir`.
 */
export function parseBillingRunArgs(argv: string[], prefixed = true): BillingRunOptions {
  const dataDir = textFlag(argv, prefixed ? 'billing-data-dir' : 'data-dir');
  return {
    count: countFlag(argv, prefixed ? 'policies' : 'count', 100_000),
    ...(dataDir ? { dataDir } : {}),
  };
}

runWhenMain(
  import.meta.url,
  buildBenchMain({
    measure: (argv) => measureBillingRun(parseBillingRunArgs(argv, false)),
    print: printBillingRun,
  }),
);
