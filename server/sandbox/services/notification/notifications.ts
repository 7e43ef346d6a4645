import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Router } from 'express';
import { WebSocketServer, WebSocket } from 'ws';
import type { Logger } from 'pino';
import type { Db } from '#server/sandbox/platform/db.ts';
import type { TokenSigner } from '#server/sandbox/platform/crypto.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  resolveToken,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { NotificationBody } from '#common/contracts/notification.ts';

export const WS_PATH = '/notificationservice/v1/ws';
export const WS_CLOSE_UNAUTHORIZED = 4401;

/** What a user's open sockets are told when their access changed (roles, role edits, disabled). */
export const ACCESS_CHANGED = { kind: 'access.changed' } as const;

/**
 * Fan-out of notifications to the open sockets of one tenant. One hub per sandbox instance, so
 * that several sandboxes in one process (tests) never see each other's frames.
 */
export class NotificationHub {
  private readonly sockets = new Map<number, Set<WebSocket>>();
  /** Whose socket it is: a change to one user's access is told to that user only. */
  private readonly owners = new WeakMap<WebSocket, number>();

  add(tenantId: number, socket: WebSocket, userId?: number): void {
    let set = this.sockets.get(tenantId);
    if (!set) this.sockets.set(tenantId, (set = new Set()));
    set.add(socket);
    if (userId !== undefined) this.owners.set(socket, userId);
    socket.once('close', () => {
      set.delete(socket);
      if (set.size === 0) this.sockets.delete(tenantId);
    });
  }

  /** Sends `{type:'notification', ...payload}` to every socket of the tenant; returns how many. */
  publish(tenantId: number, payload: Record<string, unknown>): number {
    return this.send(tenantId, payload, () => true);
  }

  /** As {@link publish}, to the sockets of the given users of the tenant only. */
  publishToUsers(tenantId: number, userIds: Iterable<number>, payload: Record<string, unknown>) {
    const wanted = new Set(userIds);
    return this.send(tenantId, payload, (socket) => wanted.has(this.owners.get(socket) ?? -1));
  }

  private send(
    tenantId: number,
    payload: Record<string, unknown>,
    include: (socket: WebSocket) => boolean,
  ): number {
    const frame = JSON.stringify({ ...payload, type: 'notification' });
    let sent = 0;
    for (const socket of this.sockets.get(tenantId) ?? []) {
      if (socket.readyState === WebSocket.OPEN && include(socket)) {
        socket.send(frame);
        sent++;
      }
    }
    return sent;
  }

  closeAll(): void {
    for (const set of this.sockets.values()) for (const socket of set) socket.terminate();
    this.sockets.clear();
  }
}

export function notificationRouter(deps: {
  db: Db;
  signer: TokenSigner;
  hub: NotificationHub;
}): Router {
  const router = Router();
  router.post(
    '/notifications',
    requireAuth(deps.db, deps.signer),
    requirePermission('notification-management.notifications.create'),
    (req, res) => {
      const auth = getAuth(res);
      const body = parseBody(NotificationBody, req.body);
      const notification = {
        id: randomUUID(),
        title: body.title,
        body: body.body,
        createdAt: new Date().toISOString(),
        createdBy: auth.userCode,
      };
      const delivered = deps.hub.publish(auth.tenantId, notification);
      res.status(201).json({ notification, delivered });
    },
  );
  return router;
}

/** Wires the socket endpoint onto the HTTP server's upgrade event and returns its server. */
export function attachNotificationSocket(
  server: Server,
  deps: { db: Db; signer: TokenSigner; hub: NotificationHub; logger: Logger },
): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    if (url.pathname !== WS_PATH) {
      socket.destroy();
      return;
    }
    socket.on('error', () => socket.destroy());
    // The upgrade completes before the token check so that a bad token gets a readable 4401
    // close code rather than a bare HTTP error the browser cannot inspect.
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => ws.terminate());
      const token = url.searchParams.get('authToken') ?? '';
      void (async () => {
        const auth = token ? await resolveToken(deps.db, deps.signer, token) : null;
        if (ws.readyState !== WebSocket.OPEN) return;
        if (!auth) {
          ws.close(WS_CLOSE_UNAUTHORIZED, 'unauthorized');
          return;
        }
        deps.hub.add(auth.tenantId, ws, auth.userId);
        ws.send(JSON.stringify({ type: 'hello', tenantSlug: auth.tenantSlug }));
      })().catch((err: unknown) => {
        deps.logger.error({ err }, 'notification socket setup failed');
        ws.close(1011, 'internal error');
      });
    });
  });
  return wss;
}
