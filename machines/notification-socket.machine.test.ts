import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import type { AnyEventObject } from 'xstate';
import {
  NORMAL_CLOSURE,
  notificationSocketMachine,
  pathEvents,
  pathsInput,
  RECONNECT_DELAY_MS,
  socketStatusMessages,
} from './notification-socket.machine.ts';
import { controlledCallback, flushPromises } from './testing/actors.ts';
import { expectFullCoverage, expectHandlers, checkInEveryState } from './testing/assertions.ts';
import {
  createMachineTestModel,
  describePath,
  eventTypes,
  transitionPaths,
} from './testing/model.ts';

function start() {
  const socket = controlledCallback<{ url: string }>();
  const deliverMessage = vi.fn();
  const clock = new SimulatedClock();
  const actor = createActor(
    notificationSocketMachine.provide({
      actors: { connectSocket: socket.logic },
      actions: { deliverMessage: (_, params) => deliverMessage(params.data) },
    }),
    { input: { url: '/ws?account=0' }, clock },
  ).start();
  return { actor, socket, clock, deliverMessage };
}

describe('notificationSocketMachine', () => {
  it('connects at once with the url', () => {
    const { actor, socket } = start();
    expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
    expect(actor.getSnapshot().context).toEqual({
      url: '/ws?account=0',
      lastMessage: null,
      statusKey: 'socket.connecting',
    });
    expect(socket.instances).toHaveLength(1);
    expect(socket.last().input).toEqual({ url: '/ws?account=0' });
  });

  it('opens, keeps and delivers messages', () => {
    const { actor, socket, deliverMessage } = start();
    socket.last().sendBack({ type: 'socket.opened' });
    expect(actor.getSnapshot().value).toEqual({ connection: 'open' });
    expect(actor.getSnapshot().context.statusKey).toBe('socket.open');

    socket.last().sendBack({ type: 'socket.message', data: { type: 'hello' } });
    socket.last().sendBack({ type: 'socket.message', data: { type: 'notification', id: 1 } });
    expect(deliverMessage.mock.calls).toEqual([
      [{ type: 'hello' }],
      [{ type: 'notification', id: 1 }],
    ]);
    expect(actor.getSnapshot().context.lastMessage).toEqual({ type: 'notification', id: 1 });
    expect(socket.instances).toHaveLength(1);
  });

  it('a drop waits exactly 10 s, then reconnects', () => {
    const { actor, socket, clock } = start();
    socket.last().sendBack({ type: 'socket.opened' });
    socket.last().sendBack({ type: 'socket.closed', code: 1006 });
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context.statusKey).toBe('socket.waiting');
    expect(socket.liveCount()).toBe(0);

    clock.increment(RECONNECT_DELAY_MS - 1);
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(1);
    expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
    expect(socket.instances).toHaveLength(2);
  });

  it('the delay never grows and one socket at most is alive after many drops', () => {
    const { actor, socket, clock } = start();
    const drops = 12;
    for (let drop = 1; drop <= drops; drop++) {
      // Alternate drops before and after opening, and with the server's normal close code.
      if (drop % 2 === 0) socket.last().sendBack({ type: 'socket.opened' });
      socket
        .last()
        .sendBack({ type: 'socket.closed', code: drop % 3 === 0 ? NORMAL_CLOSURE : 1006 });
      expect(actor.getSnapshot().value).toBe('waiting');
      expect(socket.liveCount()).toBe(0);
      clock.increment(9_999);
      expect(actor.getSnapshot().value).toBe('waiting');
      clock.increment(1);
      expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
      expect(socket.liveCount()).toBe(1);
    }
    expect(socket.instances).toHaveLength(drops + 1);
    expect(socket.liveCount()).toBe(1);
  });

  it('socket.close closes for good; the cleanup closes the socket', () => {
    const { actor, socket, clock } = start();
    socket.last().sendBack({ type: 'socket.opened' });
    actor.send({ type: 'socket.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.statusKey).toBe('socket.closed');
    expect(socket.liveCount()).toBe(0);
    clock.increment(10 * RECONNECT_DELAY_MS);
    expect(socket.instances).toHaveLength(1);
  });

  it('socket.close while waiting cancels the reconnect', () => {
    const { actor, socket, clock } = start();
    socket.last().sendBack({ type: 'socket.closed', code: 1006 });
    actor.send({ type: 'socket.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    clock.increment(RECONNECT_DELAY_MS);
    expect(socket.instances).toHaveLength(1);
  });

  it('a failing socket actor counts as a drop', async () => {
    const clock = new SimulatedClock();
    let starts = 0;
    const { fromCallback } = await import('xstate');
    const actor = createActor(
      notificationSocketMachine.provide({
        actors: {
          connectSocket: fromCallback(() => {
            starts++;
            throw new Error('refused');
          }),
        },
      }),
      { input: pathsInput, clock },
    ).start();
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(RECONNECT_DELAY_MS);
    await flushPromises();
    expect(starts).toBe(2);
  });

  it('ignores messages and opened outside the states that expect them', () => {
    const { actor, socket, deliverMessage } = start();
    socket.last().sendBack({ type: 'socket.message', data: 'early' });
    expect(deliverMessage).not.toHaveBeenCalled();
    expect(actor.getSnapshot().can({ type: 'socket.opened' })).toBe(true);
  });

  it('has the spec texts for every status key', () => {
    expect(Object.values(socketStatusMessages)).toEqual([
      'Connecting...',
      'Connection opened.',
      'Connection dropped. Trying to reconnect...',
      'Connection closed.',
    ]);
  });
});

describe('notificationSocketMachine model', () => {
  const model = createMachineTestModel(notificationSocketMachine, {
    input: pathsInput,
    events: pathEvents,
  });
  // Shortest paths plus one path per transition (simple paths are too many here).
  const paths = [...model.getShortestPaths(), ...transitionPaths(model)];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(notificationSocketMachine, paths);
  });

  function driver() {
    const socket = controlledCallback<{ url: string }>();
    const clock = new SimulatedClock();
    const actor = createActor(
      notificationSocketMachine.provide({ actors: { connectSocket: socket.logic } }),
      { input: pathsInput, clock },
    ).start();
    const fromSocket = ({ event }: { event: AnyEventObject }) => socket.last().sendBack(event);
    const events = {
      'socket.opened': fromSocket,
      'socket.message': fromSocket,
      'socket.closed': fromSocket,
      'socket.close': ({ event }: { event: AnyEventObject }) => {
        actor.send(event as Parameters<typeof actor.send>[0]);
      },
      'xstate.after.reconnectDelay.notificationSocket.waiting': () => {
        clock.increment(RECONNECT_DELAY_MS);
      },
      // A callback actor can only fail while starting (covered above with a throwing fake); here
      // the error event xstate would deliver is sent as is.
      'xstate.error.actor.connectSocket': ({ event }: { event: AnyEventObject }) => {
        actor.send(event as never);
      },
    };
    return { actor, events, socket };
  }

  it('has an executor for every event', () => {
    expectHandlers(eventTypes(notificationSocketMachine), driver().events);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    const { events, socket } = driver();
    // Whatever the path, after every step: never more than one socket.
    await model.testPath(path, {
      states: checkInEveryState(notificationSocketMachine, () => {
        expect(socket.liveCount()).toBeLessThanOrEqual(1);
      }),
      events,
    });
  });
});
