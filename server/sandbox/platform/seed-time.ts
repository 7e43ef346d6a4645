/**
 * When the demo world happened (issue 15 point 17): its seeds place records from fixed anchors
 * (customers until 2024-01-01, policies from 2024-01-02, claims from 2024-03-04, leads from
 * 2025-01-06), so that the newest records were made in the autumn of 2025. On a later clock the
 * whole world moves forward by whole weeks, the same for every seed: the newest leads are two to
 * three weeks old on the clock's today, the newest policies and claims five to six, the distances
 * between records and their weekdays stay as they were (a claim still follows its policy, a
 * customer precedes their policies), and a given clock always gives the same world. A clock
 * before the world's own dates leaves them where they are.
 */

const WEEK_MS = 7 * 86_400_000;

/**
 * Where the unshifted world ends, a month after its newest policy (2025-10-30): a policy starts up
 * to 29 days after it was made, and a seeded termination lies before yesterday, so every seeded
 * policy must have started by then (a terminated one would end before its start).
 */
export const SEED_WORLD_END_MS = Date.UTC(2025, 11, 3);

/** How far the demo world's dates move on a clock at `nowMs`: whole weeks, never back. */
export function seedShiftMs(nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - SEED_WORLD_END_MS) / WEEK_MS)) * WEEK_MS;
}
