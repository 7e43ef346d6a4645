import { createServer, request } from 'node:http';
import { closeServer, listen } from '#tests/support/net.ts';

/**
 * A pass-through HTTP proxy in front of the real sandbox that, while holding, keeps back the
 * answers to calls whose path matches: the upstream has done the work (a refresh has rotated
 * the token, a write is applied), the BFF has not heard of it yet. Lets a test put a fault or a
 * shutdown exactly into that window, without sleeping.
 */
export async function holdingUpstream(target: string, matches: (path: string) => boolean) {
  const held: (() => void)[] = [];
  // Tests waiting for so many answers to be held back at once: told when it happens, not polled.
  const waiting: { count: number; reached: () => void }[] = [];
  const tell = () => {
    for (const w of waiting.filter((w) => held.length >= w.count)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.reached();
    }
  };
  let holding = false;
  const t = new URL(target);
  const server = createServer((req, res) => {
    const up = request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        const answer = () => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        };
        if (holding && matches(req.url ?? '')) {
          held.push(answer);
          tell();
        } else answer();
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    hold() {
      holding = true;
    },
    /** Settles once `count` answers are held back at the same time. */
    whenHeld(count: number): Promise<void> {
      return new Promise((reached) => {
        waiting.push({ count, reached });
        tell();
      });
    },
    release() {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    close() {
      this.release();
      return closeServer(server);
    },
  };
}

/**
 * Waits for `event`, a promise that what the test watches settles (an answer, a closed socket, a
 * log line); nothing is polled. `ms` is only a failure deadline, generous because the machine may
 * be loaded: past it the test fails, naming `what` (read then, so it can tell what was seen).
 */
export async function within<T>(
  ms: number,
  what: string | (() => string),
  event: Promise<T>,
): Promise<T> {
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    const name = () => (typeof what === 'string' ? what : what());
    deadline = setTimeout(() => reject(new Error(`${name()}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([event, late]);
  } finally {
    clearTimeout(deadline);
  }
}
