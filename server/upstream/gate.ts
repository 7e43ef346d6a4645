import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { sendError } from '#server/http-errors.ts';
import { watchClose } from '#server/upstream/response-close.ts';

export interface GateLimits {
  /** Calls that may be with the upstream at once. */
  concurrency: number;
  /** Calls that may wait for a free slot; one more is answered 503 at once. */
  queue: number;
  /** How long a call may wait for a slot before it is answered 503. */
  maxWaitMs: number;
}

type Next = (err?: unknown) => void;
type Pass = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

interface Waiter {
  req: IncomingMessage;
  res: ServerResponse;
  next: Next;
  pass: Pass;
  timer: NodeJS.Timeout | undefined;
  admitted: boolean;
}

/** Seconds a browser is told to wait after a 503 `upstream_busy`. */
const RETRY_AFTER_SECONDS = 2;

/**
 * A bounded concurrency gate in front of one upstream connection pool. The pool itself never
 * queues (its socket limit is above the gate's), so a call either runs at once, waits here in a
 * short FIFO queue that nobody can grow without bound, or is refused with a fast 503. A slot is
 * held until the browser's response closes, which is also when a proxy gives up its upstream
 * request, so a slot never outlives the work it stands for.
 */
export class UpstreamGate {
  #inFlight = 0;
  #refused = 0;
  #loggedAt = 0;
  readonly #queue: Waiter[] = [];

  constructor(
    readonly name: string,
    readonly limits: GateLimits,
    private readonly log: Logger,
  ) {}

  /** Calls with the upstream now (for a drain on shutdown, and for tests). */
  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /** Hands the call to `pass` (a proxy) now or later, or answers 503 `upstream_busy`. */
  enter(req: IncomingMessage, res: ServerResponse, next: Next, pass: Pass): void {
    if (this.#inFlight < this.limits.concurrency && this.#queue.length === 0) {
      this.#inFlight++;
      // Freed by the response's one 'close' listener, which also ends the upstream call and logs.
      res.heldSlot = this;
      watchClose(res);
      return pass(req, res, next);
    }
    if (this.#queue.length >= this.limits.queue) return this.#busy(req, res);
    const w: Waiter = { req, res, next, pass, admitted: false, timer: undefined };
    w.timer = setTimeout(this.#expire, this.limits.maxWaitMs, w);
    this.#queue.push(w);
    res.once('close', () => this.#waiterClosed(w));
  }

  /** Frees a slot taken in `enter`: called once, when the response holding it closes. */
  release(): void {
    this.#inFlight--;
    this.#admitNext();
  }

  #admitNext(): void {
    while (this.#inFlight < this.limits.concurrency && this.#queue.length > 0) {
      const w = this.#queue.shift()!;
      clearTimeout(w.timer);
      w.admitted = true;
      this.#inFlight++;
      try {
        w.pass(w.req, w.res, w.next);
      } catch (err) {
        w.next(err);
      }
    }
  }

  #waiterClosed(w: Waiter): void {
    if (w.admitted) return this.release();
    // The browser left while waiting: its place goes to the next one.
    clearTimeout(w.timer);
    const i = this.#queue.indexOf(w);
    if (i >= 0) this.#queue.splice(i, 1);
  }

  readonly #expire = (w: Waiter): void => {
    if (w.admitted) return;
    const i = this.#queue.indexOf(w);
    if (i >= 0) this.#queue.splice(i, 1);
    this.#busy(w.req, w.res);
  };

  #busy(req: IncomingMessage, res: ServerResponse): void {
    this.#refused++;
    // One line per burst, not one per refused call: a flood must not flood the log as well.
    const now = Date.now();
    if (now - this.#loggedAt >= 5_000) {
      this.log.warn(
        {
          gate: this.name,
          inFlight: this.#inFlight,
          waiting: this.#queue.length,
          refused: this.#refused,
        },
        'upstream busy: calls refused',
      );
      this.#loggedAt = now;
      this.#refused = 0;
    }
    if (res.headersSent) return void res.destroy();
    res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
    // A body still on its way would keep the socket busy for nothing: close instead of reading it.
    if (!req.complete) res.setHeader('connection', 'close');
    sendError(res, 503, 'upstream_busy');
  }
}
