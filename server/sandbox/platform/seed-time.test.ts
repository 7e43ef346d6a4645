import { describe, expect, it } from 'vitest';
import { SEED_WORLD_END_MS, seedShiftMs } from './seed-time.ts';

const DAY_MS = 86_400_000;

describe('the demo world moved with the clock', () => {
  it('stays where it is on a clock before its own end', () => {
    expect(seedShiftMs(Date.UTC(2025, 5, 1))).toBe(0);
    expect(seedShiftMs(SEED_WORLD_END_MS + 6 * DAY_MS)).toBe(0);
  });

  it('moves by whole weeks, so that its newest records are less than a week older than before', () => {
    const now = Date.UTC(2026, 10, 26, 22, 40);
    const shift = seedShiftMs(now);
    expect(shift % (7 * DAY_MS)).toBe(0);
    expect(now - (SEED_WORLD_END_MS + shift)).toBeGreaterThanOrEqual(0);
    expect(now - (SEED_WORLD_END_MS + shift)).toBeLessThan(7 * DAY_MS);
    // The same clock, the same world; a weekday stays a weekday.
    expect(seedShiftMs(now)).toBe(shift);
    expect(new Date(Date.UTC(2024, 0, 2, 9) + shift).getUTCDay()).toBe(2);
  });
});
