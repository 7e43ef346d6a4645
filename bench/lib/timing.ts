import { Agent, startStack } from '#tests/support/stack.ts';
import { PASSWORD, USER } from './load.ts';

/** The middle of the timings: the mean of the two middle ones for an even count. */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A GET through the BFF as the agent, timed end to end; an answer other than 200 throws. */
export async function timedGet<T>(agent: Agent, url: string): Promise<{ ms: number; page: T }> {
  const started = performance.now();
  const res = await agent.json<T>(url);
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  return { ms, page: res.body };
}

/**
 * The real stack started on a prepared data directory with the demo admin signed in, as the SPA
 * would be, for `run`; stopped afterwards, keeping the directory (its owner removes it).
 */
export async function withSignedInStack<T>(
  dataDir: string,
  run: (agent: Agent) => Promise<T>,
): Promise<T> {
  const stack = await startStack({}, { dataDir });
  try {
    const agent = new Agent(stack.url);
    const login = await agent.login(USER, PASSWORD);
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
    return await run(agent);
  } finally {
    await stack.stop(false);
  }
}

/** `runs` timings of two requests, alternated so that drift hits both alike. */
export async function alternatingTimings(
  runs: number,
  first: () => Promise<{ ms: number }>,
  second: () => Promise<{ ms: number }>,
): Promise<{ firstMs: number[]; secondMs: number[] }> {
  const firstMs: number[] = [];
  const secondMs: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    firstMs.push((await first()).ms);
    secondMs.push((await second()).ms);
  }
  return { firstMs, secondMs };
}

/** Median, min and max of timings in ms. */
export interface TimingSummary {
  medianMs: number;
  minMs: number;
  maxMs: number;
}

export const summaryOf = (values: number[]): TimingSummary => ({
  medianMs: median(values),
  minMs: Math.min(...values),
  maxMs: Math.max(...values),
});

/** A list page as the lists answer it, enough for a bench to check its size and count. */
export interface CountedPage {
  items: { code: string }[];
  nextPageToken: string | null;
  totalItems?: number;
  /** Instead of `totalItems` above a list's count cap (docs/decisions/016). */
  totalItemsAbove?: number;
}

/** The first page against a deep one of a counted list: timings, summaries and the checks. */
export interface FirstAgainstDeep {
  firstMs: number[];
  deepMs: number[];
  first: TimingSummary;
  deep: TimingSummary;
  deepToFirstRatio: number;
  failures: string[];
}

/**
 * `list` (a URL with its query) asked for its first page and for `deepQuery`'s page, one warm-up
 * of each, then `runs` alternating timings; fails when a page is short, when the list's count is
 * not `total` (or, capped, not below it), or when deep / first (medians) is over `maxRatio`. `name`: the list in messages.
 */
export async function firstAgainstDeep(
  agent: Agent,
  o: {
    list: string;
    deepQuery: string;
    pageSize: number;
    total: number;
    runs: number;
    maxRatio: number;
    name: string;
  },
): Promise<FirstAgainstDeep> {
  const page = (query: string) => timedGet<CountedPage>(agent, `${o.list}${query}`);
  const first = await page('');
  const deep = await page(o.deepQuery);
  const failures: string[] = [];
  if (first.page.items.length !== o.pageSize || deep.page.items.length !== o.pageSize)
    failures.push(`a page had not ${o.pageSize} ${o.name}: is the workspace large enough?`);
  // A capped count is right when the database holds more than its cap (decision 016).
  const above = first.page.totalItemsAbove;
  const counted = above === undefined ? first.page.totalItems === o.total : o.total > above;
  if (!counted)
    failures.push(
      `the list counts ${first.page.totalItems ?? `more than ${above}`}, the database ${o.total}`,
    );
  // After the warm-up above.
  const { firstMs, secondMs: deepMs } = await alternatingTimings(
    o.runs,
    () => page(''),
    () => page(o.deepQuery),
  );
  const firstSummary = summaryOf(firstMs);
  const deepSummary = summaryOf(deepMs);
  const deepToFirstRatio = deepSummary.medianMs / firstSummary.medianMs;
  if (deepToFirstRatio > o.maxRatio)
    failures.push(
      `${o.name}: deep page ${deepToFirstRatio.toFixed(2)}x the first (limit ${o.maxRatio}x)`,
    );
  return {
    firstMs,
    deepMs,
    first: firstSummary,
    deep: deepSummary,
    deepToFirstRatio,
    failures,
  };
}

/** `median 1.0, min 0.5, max 2.0 ms`. */
export const summaryText = (s: TimingSummary) =>
  `median ${s.medianMs.toFixed(1)}, min ${s.minMs.toFixed(1)}, max ${s.maxMs.toFixed(1)} ms`;
