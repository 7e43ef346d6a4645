import { describe, expect, it } from 'vitest';
import { timesliceAt } from './policy-timeline.ts';

const slice = (id: number, from: string, to: string | null) => ({ id, from, to });

describe('timesliceAt', () => {
  it('finds the timeslice in force, else the first before the start and the last after the end', () => {
    const timeline = [
      slice(1, '2025-01-01T00:00:00Z', '2025-07-01T00:00:00Z'),
      slice(2, '2025-07-01T00:00:00Z', '2026-01-01T00:00:00Z'),
    ];
    expect(timesliceAt(timeline, new Date('2025-03-01T00:00:00Z'))?.id).toBe(1);
    // `to` is exclusive: the second slice starts where the first ends.
    expect(timesliceAt(timeline, new Date('2025-07-01T00:00:00Z'))?.id).toBe(2);
    expect(timesliceAt(timeline, new Date('2024-06-01T00:00:00Z'))?.id).toBe(1);
    expect(timesliceAt(timeline, new Date('2027-01-01T00:00:00Z'))?.id).toBe(2);
    expect(timesliceAt([slice(3, '2025-01-01T00:00:00Z', null)], new Date('2030-01-01'))?.id).toBe(
      3,
    );
    expect(timesliceAt([], new Date())).toBeNull();
  });
});
