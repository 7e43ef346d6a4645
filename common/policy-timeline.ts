/** A stretch of a policy's timeline: [from, to), ISO timestamps in UTC, `to` null when open. */
export interface TimelineSlice {
  from: string;
  to: string | null;
}

/**
 * The timeslice in force at `now`: the one whose [from, to) holds it; before the first slice
 * the first, after the last the last (a policy that has not started or has run out still shows
 * the premium it had or will have). The policy screens and the CSV export read a policy's
 * current premium from it, so that the file and the list show the same amount.
 */
export function timesliceAt<T extends TimelineSlice>(timeline: readonly T[], now: Date): T | null {
  if (timeline.length === 0) return null;
  const at = now.getTime();
  const holding = timeline.find(
    (slice) => Date.parse(slice.from) <= at && (slice.to === null || at < Date.parse(slice.to)),
  );
  if (holding) return holding;
  return at < Date.parse(timeline[0]!.from) ? timeline[0]! : timeline.at(-1)!;
}

/**
 * The premium a policy's list entry shows: the one of the timeslice in force at `now` (see
 * `timesliceAt`); undefined without a timeline. The policies list rows (BFF, `view=row`) and the
 * CSV export read it alike.
 */
export function premiumInForce<P>(
  timeline: readonly (TimelineSlice & { premium?: P })[] | null | undefined,
  now: Date,
): P | undefined {
  return timesliceAt(timeline ?? [], now)?.premium;
}
