import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createActor, waitFor } from 'xstate';
import { socketConnector, type SocketLike } from '#client/api/notification-socket.ts';
import { notificationSocketMachine } from '#machines/notification-socket.machine.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The client's own socket connector and statechart, over `ws` instead of the browser's
 * WebSocket, against the real BFF and sandbox, both restarted under it. */
describe('notification socket across a restart', () => {
  const stacks: Stack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.stop().catch(() => undefined);
  });

  it('reconnects after 10 s and ends up with exactly one connection', async () => {
    const port = await freePort();
    const first = await startStack({ PORT: String(port) });
    stacks.push(first);
    const agent = new Agent(first.url);
    await agent.login('admin@demo.test');

    let live = 0;
    const opened: number[] = [];
    const closed: number[] = [];
    const connector = socketConnector((path) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, {
        headers: { cookie: agent.cookie, origin: `http://127.0.0.1:${port}` },
      });
      ws.on('open', () => {
        live++;
        opened.push(Date.now());
      });
      ws.on('close', () => {
        live--;
        closed.push(Date.now());
      });
      return ws as unknown as SocketLike;
    });
    const actor = createActor(
      notificationSocketMachine.provide({ actors: { connectSocket: connector } }),
      {
        input: { url: '/ws?account=0' },
      },
    ).start();
    try {
      await waitFor(actor, (s) => s.matches({ connection: 'open' }), { timeout: 10_000 });
      await waitFor(actor, (s) => s.context.lastMessage !== null, { timeout: 5_000 });

      // The whole product goes down (BFF and the embedded upstream) and comes back on the same port.
      await first.stop(false);
      await waitFor(actor, (s) => s.matches('waiting'), { timeout: 5_000 });
      const droppedAt = Date.now();
      const second = await startStack({ PORT: String(port) }, { dataDir: first.dataDir });
      stacks.push(second);

      await waitFor(actor, (s) => s.matches({ connection: 'open' }), { timeout: 20_000 });
      const reopenedAt = opened.at(-1)!;
      expect(reopenedAt - droppedAt).toBeGreaterThanOrEqual(9_500);
      expect(reopenedAt - droppedAt).toBeLessThan(16_000);
      // Waiting a little longer shows no second socket piling up.
      await new Promise((r) => setTimeout(r, 500));
      expect(live).toBe(1);
      expect(opened).toHaveLength(2);
    } finally {
      actor.stop();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(live).toBe(0);
    expect(closed.length).toBe(2);
  }, 60_000);
});
