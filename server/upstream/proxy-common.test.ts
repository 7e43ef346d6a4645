import { createServer, request, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { upstreamAgent } from '#server/upstream/proxy-common.ts';

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** One call on the pool; resolves with the socket timeout the call ran under. */
function call(port: number, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const up = request({
      port,
      path: '/',
      agent: upstreamAgent(`http://127.0.0.1:${port}`, 'test', timeoutMs),
    });
    let during = -1;
    up.on('socket', (s: Socket) => {
      during = s.timeout ?? -1;
    });
    up.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(during));
    });
    up.on('error', reject);
    up.end();
  });
}

describe('upstreamAgent', () => {
  it("runs a call on a reused socket under the call's timeout, not the shorter Keep-Alive hint", async () => {
    server = createServer((_req, res) => res.end('ok'));
    // Answers carry `Keep-Alive: timeout=2`, which makes Node shorten a freed socket's timer to 1 s.
    server.keepAliveTimeout = 2_000;
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as { port: number };

    expect(await call(port, 30_000)).toBe(30_000);
    // The same socket again (keep-alive): its timer is the call's once more.
    expect(await call(port, 30_000)).toBe(30_000);
    upstreamAgent(`http://127.0.0.1:${port}`, 'test', 30_000).destroy();
  });
});
