import { describe, expect, it } from 'vitest';
import { MovableClock, systemClock } from '#common/clock.ts';

describe('MovableClock', () => {
  it('follows the system clock until moved, then stays ahead by what it was moved', () => {
    const clock = new MovableClock();
    expect(Math.abs(clock.now() - systemClock.now())).toBeLessThan(1000);
    clock.advance(60_000);
    const ahead = clock.now() - Date.now();
    expect(ahead).toBeGreaterThanOrEqual(59_000);
    expect(ahead).toBeLessThanOrEqual(60_000);
    clock.advanceTo(clock.now() - 5_000);
    expect(clock.now() - Date.now()).toBeGreaterThanOrEqual(59_000);
    clock.advanceTo(Date.now() + 120_000);
    expect(clock.now() - Date.now()).toBeGreaterThanOrEqual(119_000);
    expect(() => clock.advance(-1)).toThrow();
  });
});
