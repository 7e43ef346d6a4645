/**
 * The policy list at scale: the first page against a deep page, at 100 000 policies, through the
 * BFF as the SPA asks for it. Keyset pages should cost the same wherever they are.
 * Usage: npx tsx bench/policy-list.ts [--check] [--json] [--count=100000] [--runs=9]
 *        [--deep-page=1000] [--data-dir=<dir, kept and reused>]
 */
import type { Agent } from '#tests/support/stack.ts';
import { buildBenchMain, countFlag, runWhenMain, textFlag } from './lib/cli.ts';
import { preparePolicyWorld } from './lib/grown-world.ts';
import { alternatingTimings, median, timedGet, withSignedInStack } from './lib/timing.ts';

/** Budget: a deep page may take at most this many times the first page's median. */
export const MAX_DEEP_TO_FIRST_RATIO = 2;

const PAGE_SIZE = 30;
const LIST = '/api/0/insuranceservice/v1/policies';

export interface PolicyListOptions {
  count: number;
  runs: number;
  deepPage: number;
  /** A data directory to reuse (and keep); a fresh temporary one otherwise. */
  dataDir?: string;
}

export interface PolicyListReport {
  options: PolicyListOptions;
  policies: number;
  /** Growing the demo workspace to `count` (the seed command's work), seconds. */
  growSeconds: number;
  deepToken: string;
  firstMs: number[];
  deepMs: number[];
  firstMedianMs: number;
  deepMedianMs: number;
  deepToFirstRatio: number;
  failures: string[];
}

interface Page {
  items: { id: number }[];
  nextPageToken: string | null;
}

const timedPage = (agent: Agent, query: string) => timedGet<Page>(agent, `${LIST}${query}`);

export async function measurePolicyList(opts: PolicyListOptions): Promise<PolicyListReport> {
  const world = await preparePolicyWorld(opts.count, opts.dataDir);
  const { dataDir, policies, growSeconds } = world;
  try {
    return await withSignedInStack(dataDir, async (agent) => {
      const first = await timedPage(agent, '');
      const newest = first.page.items[0]?.id ?? 0;
      // The token the list would hand out after `deepPage - 1` pages: `<page>.<last id>.d`. The
      // demo workspace's ids run without gaps (the other tenant's few are older), so the last
      // id of that page is this far below the newest.
      const deepToken = `${opts.deepPage}.${newest - (opts.deepPage - 1) * PAGE_SIZE + 1}.d`;
      const deep = await timedPage(agent, `?pageToken=${deepToken}`);
      const failures: string[] = [];
      if (first.page.items.length !== PAGE_SIZE || deep.page.items.length !== PAGE_SIZE) {
        failures.push(`a page had not ${PAGE_SIZE} policies: is the workspace large enough?`);
      }

      // After one more warm-up of each.
      await timedPage(agent, '');
      await timedPage(agent, `?pageToken=${deepToken}`);
      const { firstMs, secondMs: deepMs } = await alternatingTimings(
        opts.runs,
        () => timedPage(agent, ''),
        () => timedPage(agent, `?pageToken=${deepToken}`),
      );
      const firstMedianMs = median(firstMs);
      const deepMedianMs = median(deepMs);
      const deepToFirstRatio = deepMedianMs / firstMedianMs;
      if (deepToFirstRatio > MAX_DEEP_TO_FIRST_RATIO) {
        failures.push(
          `deep page ${deepToFirstRatio.toFixed(2)}x the first (limit ${MAX_DEEP_TO_FIRST_RATIO}x)`,
        );
      }
      return {
        options: opts,
        policies,
        growSeconds,
        deepToken,
        firstMs,
        deepMs,
        firstMedianMs,
        deepMedianMs,
        deepToFirstRatio,
        failures,
      };
    });
  } finally {
    await world.dispose();
  }
}

export function printPolicyList(r: PolicyListReport) {
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
  console.log(`\nPolicy list through the BFF, ${r.policies} policies in the demo workspace`);
  console.log(`  grown to ${r.options.count} in ${r.growSeconds.toFixed(1)} s`);
  console.log(`  first page (${PAGE_SIZE}, timelines and product): ${ms(r.firstMs)} ms`);
  console.log(
    `  page ${r.options.deepPage} (token ${r.deepToken}):             ${ms(r.deepMs)} ms`,
  );
  console.log(
    `  medians: first ${r.firstMedianMs.toFixed(1)} ms, deep ${r.deepMedianMs.toFixed(1)} ms, ` +
      `deep / first ${r.deepToFirstRatio.toFixed(2)} (budget <= ${MAX_DEEP_TO_FIRST_RATIO})`,
  );
}

export function parsePolicyListArgs(argv: string[]): PolicyListOptions {
  const dataDir = textFlag(argv, 'data-dir');
  return {
    count: countFlag(argv, 'count', 100_000),
    runs: countFlag(argv, 'runs', 9),
    deepPage: countFlag(argv, 'deep-page', 1000),
    ...(dataDir ? { dataDir } : {}),
  };
}

runWhenMain(
  import.meta.url,
  buildBenchMain({
    measure: (argv) => measurePolicyList(parsePolicyListArgs(argv)),
    print: printPolicyList,
  }),
);
