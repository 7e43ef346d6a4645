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
        if (holding && matches(req.url ?? '')) held.push(answer);
        else answer();
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
    /** How many answers are held back right now. */
    get held() {
      return held.length;
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

/** Polls `check` until it holds, for at most `ms` (generous: the machine may be loaded); `what`
 * names the condition in the error. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 30_000,
  what = 'condition',
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
