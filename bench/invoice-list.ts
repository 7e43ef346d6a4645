/**
 * The invoice list at scale: the first page against a deep page, at 1 000 000 invoices, through
 * the BFF as the finance screen asks for it (issue 18). Keyset pages should cost the same
 * wherever they are.
 *
 * Method: a first start of the real stack (`startStack`) seeds the demo world on a fresh data
 * directory; with it stopped, the demo workspace's invoices grow to `--invoices` with the seed
 * command's code (`growInvoices`, what `npm run seed:invoices` runs: one INSERT ... SELECT
 * generate_series per 50 000 copies of the billing run's invoices, with their items and a
 * status each), and the keyset token of page `--invoice-deep-page` is read from the database:
 * the token the list hands out after the page before it, in the list's default order (due date,
 * newest first: `<page>.<last id>.d.t<total>.dueDate.<last due date>`). Then the stack starts
 * again on that directory, signs in as admin@demo.test and asks
 * `GET /api/0/billingservice/v1/invoices?pageSize=30&expand=currency` as the SPA does
 * (client/api/billing-client.ts): one warm-up of each page, then `--runs` alternating timings
 * of the first page and the deep one, end to end through the BFF. Prints every timing, median /
 * min / max of each and deep / first (the budget).
 *
 * Usage: npx tsx bench/invoice-list.ts [--check] [--json] [--count=1000000] [--runs=9]
 *        [--invoice-deep-page=1000] [--data-dir=<dir, kept and reused>]
 * (in run-all.ts: --invoices=N and --invoice-data-dir=<dir>).
 */
import { growInvoices } from '#server/sandbox/services/billing/seed-invoices.ts';
import { buildBenchMain, countFlag, runWhenMain, textFlag } from './lib/cli.ts';
import { deepPageToken, prepareGrownWorld } from './lib/grown-world.ts';
import {
  firstAgainstDeep,
  type FirstAgainstDeep,
  summaryText,
  withSignedInStack,
} from './lib/timing.ts';

/** Budget: a deep page may take at most this many times the first page's median. */
export const MAX_INVOICE_RATIO = 2;

const PAGE_SIZE = 30;
const LIST = `/api/0/billingservice/v1/invoices?pageSize=${PAGE_SIZE}&expand=currency`;

export interface InvoiceListOptions {
  count: number;
  runs: number;
  deepPage: number;
  dataDir?: string;
}

export interface InvoiceListReport extends FirstAgainstDeep {
  options: InvoiceListOptions;
  invoices: number;
  growSeconds: number;
  deepToken: string;
}

/** Seeds (unless the directory has a world), grows and reads the deep page's token. */
const prepare = (opts: InvoiceListOptions) =>
  prepareGrownWorld({
    dataDir: opts.dataDir,
    prefix: 'bench-invoices-',
    grow: async (db) => (await growInvoices(db, 'demo', opts.count)).after,
    read: (db, invoices) =>
      deepPageToken(db, {
        table: 'invoices',
        column: 'due_date',
        field: 'dueDate',
        deepPage: opts.deepPage,
        pageSize: PAGE_SIZE,
        total: invoices,
        tooFew: 'raise --invoices',
      }),
  });

export async function measureInvoiceList(opts: InvoiceListOptions): Promise<InvoiceListReport> {
  const world = await prepare(opts);
  const invoices = world.count;
  const deepToken = world.found;
  try {
    return await withSignedInStack(world.dataDir, async (agent) => {
      const deepQuery = `&pageToken=${deepToken}`;
      const measured = await firstAgainstDeep(agent, {
        list: LIST,
        deepQuery,
        pageSize: PAGE_SIZE,
        total: invoices,
        runs: opts.runs,
        maxRatio: MAX_INVOICE_RATIO,
        name: 'invoices',
      });
      return {
        options: opts,
        invoices,
        growSeconds: world.growSeconds,
        deepToken,
        ...measured,
      };
    });
  } finally {
    await world.dispose();
  }
}

export function printInvoiceList(r: InvoiceListReport) {
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
  console.log(`\nInvoice list through the BFF, ${r.invoices} invoices in the demo workspace`);
  console.log(`  grown to ${r.options.count} in ${r.growSeconds.toFixed(1)} s`);
  console.log(
    `  first page (${PAGE_SIZE}, items and statuses): ${ms(r.firstMs)} ms (${summaryText(r.first)})`,
  );
  console.log(`  page ${r.options.deepPage} (token ${r.deepToken}):`);
  console.log(`    ${ms(r.deepMs)} ms (${summaryText(r.deep)})`);
  console.log(
    `  deep / first (medians) ${r.deepToFirstRatio.toFixed(2)} (budget <= ${MAX_INVOICE_RATIO})`,
  );
}

/**
 * Standalone, `--count` and `--data-dir` as in policy-list.ts; run-all.ts passes one command
 * line to every bench, so there (`prefixed`) they are `--invoices` and `--invoice-data-dir`.
 */
export function parseInvoiceListArgs(argv: string[], prefixed = true): InvoiceListOptions {
  const dataDir = textFlag(argv, prefixed ? 'invoice-data-dir' : 'data-dir');
  return {
    count: countFlag(argv, prefixed ? 'invoices' : 'count', 1_000_000),
    runs: countFlag(argv, 'runs', 9),
    deepPage: countFlag(argv, 'invoice-deep-page', 1000),
    ...(dataDir ? { dataDir } : {}),
  };
}

runWhenMain(
  import.meta.url,
  buildBenchMain({
    measure: (argv) => measureInvoiceList(parseInvoiceListArgs(argv, false)),
    print: printInvoiceList,
  }),
);
