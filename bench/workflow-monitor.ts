/**
 * The workflow monitor's list at scale: the first page against a deep page, at 50 000 instances,
 * through the BFF as the monitor asks for it (issue 17). Keyset pages should cost the same
 * wherever they are.
 *
 * Method: a first start of the real stack (`startStack`) seeds the demo world on a fresh data
 * directory; with it stopped, the demo workspace's workflow instances grow to `--count` with the
 * seed command's code (`growWorkflowInstances`, what `npm run seed:workflow-instances` runs:
 * bulk INSERT ... SELECT generate_series of copies of the finished instances), and the keyset
 * token of page `--deep-page` is read from the database: the token the list hands out after the
 * page before it (`<page>.<last id>.d.t<total>.createdAt.<last createdAt>`, the monitor's default
 * order, newest first), computed instead of walked to through 999 requests. Then the stack starts
 * again on that directory, signs in as admin@demo.test and asks
 * `GET /api/0/processmanager/v1/workflow-instances?pageSize=30`: one warm-up of each page, then
 * `--runs` alternating timings of the first page and the deep one, end to end through the BFF.
 * Prints every timing, median / min / max of each and deep / first (the budget).
 *
 * Usage: npx tsx bench/workflow-monitor.ts [--check] [--json] [--instances=50000] [--runs=9]
 *        [--monitor-deep-page=1000] [--workflow-data-dir=<dir, kept and reused>]
 */
import { growWorkflowInstances } from '#server/sandbox/services/processmanager/seed-instances.ts';
import { buildBenchMain, countFlag, runWhenMain, textFlag } from './lib/cli.ts';
import { deepPageToken, prepareGrownWorld } from './lib/grown-world.ts';
import {
  firstAgainstDeep,
  type FirstAgainstDeep,
  summaryText,
  withSignedInStack,
} from './lib/timing.ts';

/** Budget: a deep page may take at most this many times the first page's median. */
export const MAX_MONITOR_RATIO = 2;

const PAGE_SIZE = 30;
const LIST = `/api/0/processmanager/v1/workflow-instances?pageSize=${PAGE_SIZE}`;

export interface WorkflowMonitorOptions {
  count: number;
  runs: number;
  deepPage: number;
  dataDir?: string;
}

export interface WorkflowMonitorReport extends FirstAgainstDeep {
  options: WorkflowMonitorOptions;
  instances: number;
  growSeconds: number;
  deepToken: string;
}

/** Seeds (unless the directory has a world), grows and reads the deep page's token. */
const prepare = (opts: WorkflowMonitorOptions) =>
  prepareGrownWorld({
    dataDir: opts.dataDir,
    prefix: 'bench-workflows-',
    grow: async (db) => (await growWorkflowInstances(db, 'demo', opts.count)).after,
    read: (db, instances) =>
      deepPageToken(db, {
        table: 'workflow_instances',
        column: 'created_at',
        field: 'createdAt',
        deepPage: opts.deepPage,
        pageSize: PAGE_SIZE,
        total: instances,
        tooFew: 'raise --count',
      }),
  });

export async function measureWorkflowMonitor(
  opts: WorkflowMonitorOptions,
): Promise<WorkflowMonitorReport> {
  const world = await prepare(opts);
  const instances = world.count;
  const deepToken = world.found;
  try {
    return await withSignedInStack(world.dataDir, async (agent) => {
      const deepQuery = `&pageToken=${deepToken}`;
      const measured = await firstAgainstDeep(agent, {
        list: LIST,
        deepQuery,
        pageSize: PAGE_SIZE,
        total: instances,
        runs: opts.runs,
        maxRatio: MAX_MONITOR_RATIO,
        name: 'instances',
      });
      return {
        options: opts,
        instances,
        growSeconds: world.growSeconds,
        deepToken,
        ...measured,
      };
    });
  } finally {
    await world.dispose();
  }
}

export function printWorkflowMonitor(r: WorkflowMonitorReport) {
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
  console.log(
    `\nWorkflow monitor list through the BFF, ${r.instances} instances in the demo workspace`,
  );
  console.log(`  grown to ${r.options.count} in ${r.growSeconds.toFixed(1)} s`);
  console.log(`  first page (${PAGE_SIZE}): ${ms(r.firstMs)} ms (${summaryText(r.first)})`);
  console.log(`  page ${r.options.deepPage} (token ${r.deepToken}):`);
  console.log(`    ${ms(r.deepMs)} ms (${summaryText(r.deep)})`);
  console.log(
    `  deep / first (medians) ${r.deepToFirstRatio.toFixed(2)} (budget <= ${MAX_MONITOR_RATIO})`,
  );
}

export function parseWorkflowMonitorArgs(argv: string[]): WorkflowMonitorOptions {
  const dataDir = textFlag(argv, 'workflow-data-dir');
  return {
    count: countFlag(argv, 'instances', 50_000),
    runs: countFlag(argv, 'runs', 9),
    deepPage: countFlag(argv, 'monitor-deep-page', 1000),
    ...(dataDir ? { dataDir } : {}),
  };
}

runWhenMain(
  import.meta.url,
  buildBenchMain({
    measure: (argv) => measureWorkflowMonitor(parseWorkflowMonitorArgs(argv)),
    print: printWorkflowMonitor,
  }),
);
