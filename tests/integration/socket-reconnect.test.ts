import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { socketConnector, type SocketLike } from '#client/api/notification-socket.ts';
import {
  notificationSocketMachine,
  RECONNECT_DELAY_MS,
} from '#machines/notification-socket.machine.ts';
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

    // The statechart's timers run on a simulated clock: the test moves it past the reconnect
    // delay instead of waiting 10 s, and sees that nothing happens a moment before.
    const clock = new SimulatedClock();
    let created = 0;
    let live = 0;
    let closed = 0;
    let allClosed = () => {};
    const connector = socketConnector((path) => {
      created++;
      const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, {
        headers: { cookie: agent.cookie, origin: `http://127.0.0.1:${port}` },
      });
      ws.on('open', () => live++);
      ws.on('close', () => {
        live--;
        closed++;
        if (live === 0) allClosed();
      });
      return ws as unknown as SocketLike;
    });
    const actor = createActor(
      notificationSocketMachine.provide({ actors: { connectSocket: connector } }),
      { input: { url: '/ws?account=0' }, clock },
    ).start();
    try {
      await waitFor(actor, (s) => s.matches({ connection: 'open' }), { timeout: 10_000 });
      await waitFor(actor, (s) => s.context.lastMessage !== null, { timeout: 5_000 });

      // The whole product goes down (BFF and the embedded upstream) and comes back on the same port.
      await first.stop(false);
      await waitFor(actor, (s) => s.matches('waiting'), { timeout: 5_000 });
      const second = await startStack({ PORT: String(port) }, { dataDir: first.dataDir });
      stacks.push(second);

      // Back, but the client keeps to its delay.
      clock.increment(RECONNECT_DELAY_MS - 1);
      expect(actor.getSnapshot().matches('waiting')).toBe(true);
      expect(created).toBe(1);
      clock.increment(1);
      await waitFor(actor, (s) => s.matches({ connection: 'open' }), { timeout: 20_000 });
      expect(created).toBe(2);
      // Further delays pass: no second socket piles up.
      clock.increment(RECONNECT_DELAY_MS * 3);
      expect(created).toBe(2);
      expect(live).toBe(1);
    } finally {
      const gone = new Promise<void>((resolve) => (allClosed = resolve));
      actor.stop();
      if (live > 0) await gone;
    }
    expect(live).toBe(0);
    expect(closed).toBe(2);
  }, 60_000);
});
