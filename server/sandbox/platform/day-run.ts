import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';

/** How often a day's job looks at the clock: a day boundary is noticed within this. */
const TICK_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * A job on the sandbox's clock (a service's `start`): once now (before the sandbox serves), then
 * whenever the clock has moved into another day since the last run (a test moving a MovableClock
 * past midnight too); never two runs at once. Answers the stop of its timer. The policy renewal
 * run and the billing run use it.
 */
export async function startDayRun(
  ctx: { clock: Clock; logger: Logger },
  job: string,
  run: (nowMs: number) => Promise<void>,
): Promise<() => void> {
  const log = ctx.logger.child({ job });
  let lastDay = Math.floor(ctx.clock.now() / DAY_MS);
  let running: Promise<void> | null = null;
  await run(ctx.clock.now());
  const timer = setInterval(() => {
    const nowMs = ctx.clock.now();
    const day = Math.floor(nowMs / DAY_MS);
    if (day === lastDay || running) return;
    lastDay = day;
    running = run(nowMs)
      .catch((err: unknown) => log.error({ err }, `the ${job} run failed`))
      .finally(() => {
        running = null;
      });
  }, TICK_MS);
  // The timer alone keeps no process alive.
  timer.unref();
  return () => clearInterval(timer);
}
