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
