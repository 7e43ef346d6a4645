import { assign, fromCallback, setup } from 'xstate';
import type { EventObject } from 'xstate';

/** WebSocket close code of a normal close; the socket's cleanup closes with it. */
export const NORMAL_CLOSURE = 1000;

/** The spec: minimum reconnect delay 10 000 ms, growth factor 1 (every retry waits 10 s). */
export const RECONNECT_DELAY_MS = 10_000;

/** i18n keys per state; the English texts are the spec's. */
export const socketStatusKeys = {
  connecting: 'socket.connecting',
  open: 'socket.open',
  waiting: 'socket.waiting',
  closed: 'socket.closed',
} as const;

export type SocketStatusKey = (typeof socketStatusKeys)[keyof typeof socketStatusKeys];

/** The spec's status messages, for the English bundle. */
export const socketStatusMessages: Readonly<Record<SocketStatusKey, string>> = {
  'socket.connecting': 'Connecting...',
  'socket.open': 'Connection opened.',
  'socket.waiting': 'Connection dropped. Trying to reconnect...',
  'socket.closed': 'Connection closed.',
};

export type NotificationSocketInput = { url: string };

export type NotificationSocketContext = {
  url: string;
  /** The last frame received, as `connectSocket` reported it. */
  lastMessage: unknown;
  statusKey: SocketStatusKey;
};

/** What `connectSocket` sends back to the machine. */
export type SocketCallbackEvent =
  | { type: 'socket.opened' }
  | { type: 'socket.message'; data: unknown }
  | { type: 'socket.closed'; code: number };

export type NotificationSocketEvent = SocketCallbackEvent | { type: 'socket.close' };

/**
 * The notification WebSocket (`/ws?account={i}` on the BFF).
 *
 * `connection` owns the one socket: `connectSocket` is invoked there and spans `connecting` and
 * `open`, so leaving `connection` always closes the socket and at most one exists at a time,
 * however often it drops.
 *
 * - `socket.close` (the user or the screen asked): `closed` (final); leaving `connection` runs the
 *   socket's cleanup, which closes with code 1000.
 * - Any close the machine did not ask for, whatever its code (1000 from the server included, as
 *   the user still wants notifications), or the socket actor failing: `waiting`, then after
 *   `reconnectDelay` (10 s, never growing) `connection` again.
 *
 * Provide: actor `connectSocket` (`fromCallback`, input `{ url }`; sends back `socket.opened`,
 * `socket.message { data }`, `socket.closed { code }`; its cleanup closes the socket with 1000),
 * action `deliverMessage` (params `{ data }`).
 */
export const notificationSocketMachine = setup({
  types: {
    input: {} as NotificationSocketInput,
    context: {} as NotificationSocketContext,
    events: {} as NotificationSocketEvent,
  },
  actors: {
    // Receives nothing from the machine; it only sends SocketCallbackEvents back.
    connectSocket: fromCallback<EventObject, { url: string }>(() => {
      throw new Error('notificationSocketMachine: provide the connectSocket actor');
    }),
  },
  actions: {
    deliverMessage: (_, _params: { data: unknown }) => {},
    setStatus: assign((_, params: { statusKey: SocketStatusKey }) => ({
      statusKey: params.statusKey,
    })),
  },
  delays: {
    reconnectDelay: RECONNECT_DELAY_MS,
  },
}).createMachine({
  id: 'notificationSocket',
  context: ({ input }) => ({
    url: input.url,
    lastMessage: null,
    statusKey: socketStatusKeys.connecting,
  }),
  initial: 'connection',
  states: {
    connection: {
      invoke: {
        id: 'connectSocket',
        src: 'connectSocket',
        input: ({ context }) => ({ url: context.url }),
        onError: 'waiting',
      },
      initial: 'connecting',
      on: {
        'socket.closed': 'waiting',
        'socket.close': 'closed',
      },
      states: {
        connecting: {
          entry: { type: 'setStatus', params: { statusKey: socketStatusKeys.connecting } },
          on: {
            'socket.opened': 'open',
          },
        },
        open: {
          entry: { type: 'setStatus', params: { statusKey: socketStatusKeys.open } },
          on: {
            'socket.message': {
              actions: [
                assign({ lastMessage: ({ event }) => event.data }),
                { type: 'deliverMessage', params: ({ event }) => ({ data: event.data }) },
              ],
            },
          },
        },
      },
    },
    waiting: {
      entry: { type: 'setStatus', params: { statusKey: socketStatusKeys.waiting } },
      after: {
        reconnectDelay: 'connection',
      },
      on: {
        'socket.close': 'closed',
      },
    },
    closed: {
      type: 'final',
      entry: { type: 'setStatus', params: { statusKey: socketStatusKeys.closed } },
    },
  },
});

/** Sample input for `npm run paths -- notification-socket`. */
export const pathsInput: NotificationSocketInput = { url: '/ws?account=0' };

/** Sample events for the paths script and the model-based test. */
export const pathEvents = {
  'socket.message': [{ type: 'socket.message', data: { type: 'hello' } }],
  'socket.closed': [
    { type: 'socket.closed', code: 1006 },
    { type: 'socket.closed', code: NORMAL_CLOSURE },
  ],
  'xstate.error.actor.connectSocket': [
    { type: 'xstate.error.actor.connectSocket', error: { message: 'connection refused' } },
  ],
} as const;
