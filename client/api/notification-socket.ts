import { fromCallback, type EventObject } from 'xstate';
import type { SocketCallbackEvent } from '#machines/notification-socket.machine.ts';
// Types only: the contract's module holds valibot schemas the shell need not load.
import type { DocumentIssuedFrame } from '#common/contracts/notification.ts';

/** What the connector needs of a WebSocket: the browser's, or `ws` in a Node test. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  close(code?: number): void;
}

const CONNECTING = 0;
const OPEN = 1;

/**
 * The `connectSocket` actor of the notification-socket statechart: opens one socket for the
 * machine's `url`, reports it back as events, and closes it normally (1000) when the machine
 * stops it. `open` builds the socket, so the same code runs in the browser and in tests.
 */
export function socketConnector(open: (path: string) => SocketLike) {
  return fromCallback<EventObject, { url: string }>(({ input, sendBack }) => {
    const send = (event: SocketCallbackEvent) => sendBack(event);
    const socket = open(input.url);
    socket.onopen = () => send({ type: 'socket.opened' });
    socket.onmessage = (message) => {
      try {
        send({ type: 'socket.message', data: JSON.parse(String(message.data)) });
      } catch {
        // A frame that is not JSON is not ours to show.
      }
    };
    socket.onclose = (event) => send({ type: 'socket.closed', code: event.code });
    return () => {
      socket.onclose = null;
      if (socket.readyState === CONNECTING || socket.readyState === OPEN) socket.close(1000);
    };
  });
}

/** The browser's socket to `/ws?account={i}` on this origin. */
export const browserSocketConnector = socketConnector((path) => {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return new WebSocket(`${protocol}//${window.location.host}${path}`) as unknown as SocketLike;
});

/** The frame the tenant service sends to a user's sockets when an administrator changed their
 * roles, edited one of their roles, or disabled or deleted them. */
export function isAccessChange(message: unknown): boolean {
  return isFrame(message, 'access.changed');
}

function isFrame(message: unknown, kind: string): boolean {
  if (!message || typeof message !== 'object') return false;
  const frame = message as Record<string, unknown>;
  return frame.type === 'notification' && frame.kind === kind;
}

/** The frame the document service sends when it issued a document of a record (a schedule). */
export function isDocumentIssued(message: unknown): message is DocumentIssuedFrame {
  return isFrame(message, 'document.issued' satisfies DocumentIssuedFrame['kind']);
}
