/**
 * The one source of the time of day for the BFF and the sandbox: session timeouts, token
 * lifetimes and refresh margins, rate-limit windows. Production reads the system clock; tests
 * hand a {@link MovableClock} to both and move time forward instead of sleeping.
 *
 * Waits for real I/O (an upstream timeout, a lock's polling, a shutdown's grace) are not time of
 * day and keep using real timers.
 */
export interface Clock {
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The system clock plus an offset that only grows: time keeps flowing (network timeouts, Redis
 * expiries and real waits behave as usual), and a test jumps it forward with `advance`. */
export class MovableClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  advance(ms: number): void {
    if (ms < 0) throw new Error('a clock moves forward only');
    this.offset += ms;
  }

  /** Moves the clock forward to `at` (ms since the epoch), if it is not there yet. */
  advanceTo(at: number): void {
    this.advance(Math.max(0, at - this.now()));
  }
}
