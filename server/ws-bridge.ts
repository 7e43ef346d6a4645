import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import type { SessionKit } from '#server/session/session.ts';
import type { TokenService } from '#server/session/token-service.ts';

function reject(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Whether the upgrade comes from a page of this very origin (a cookie alone is not enough:
 * browsers send it on cross-site websocket handshakes too). */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * `/ws?account={i}`: the browser's notification socket. The upgrade is authenticated from the
 * session; the BFF then opens the upstream socket with the account's token (the token goes only
 * upstream) and relays frames both ways. Either side closing closes the other.
 */
export function wsBridge(deps: {
  upstreamUrl: string;
  kit: SessionKit;
  tokens: TokenService;
  log: Logger;
}) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const upstreamBase = deps.upstreamUrl.replace(/^http/, 'ws');

  async function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!sameOrigin(req)) return reject(socket, 403, 'Forbidden');
    const index = url.searchParams.get('account') ?? '';
    const sid = deps.kit.readSid(req as Parameters<SessionKit['readSid']>[0]);
    if (!/^\d{1,3}$/.test(index) || !sid) return reject(socket, 401, 'Unauthorized');
    let t;
    try {
      t = await deps.tokens.accessToken(sid, index);
    } catch {
      return reject(socket, 503, 'Service Unavailable');
    }
    if (!t.ok) return reject(socket, t.status === 503 ? 503 : 401, 'Unauthorized');

    const upstream = new WebSocket(
      `${upstreamBase}/notificationservice/v1/ws?authToken=${encodeURIComponent(t.accessToken)}`,
      { handshakeTimeout: 5000 },
    );
    upstream.once('error', (err) => {
      deps.log.warn({ err: err.message }, 'upstream websocket failed');
      if (upstream.readyState !== WebSocket.OPEN) reject(socket, 502, 'Bad Gateway');
    });
    upstream.once('unexpected-response', (_r, res) => {
      res.resume();
      reject(socket, 502, 'Bad Gateway');
    });
    // Frames can arrive (the upstream greets at once) before the browser side is upgraded;
    // hold them until it is, so none is lost.
    let client: WebSocket | null = null;
    const early: [WebSocket.RawData, boolean][] = [];
    upstream.on('message', (data, isBinary) => {
      if (client) client.send(data, { binary: isBinary });
      else early.push([data, isBinary]);
    });
    upstream.once('open', () => {
      wss.handleUpgrade(req, socket, head, (ready) => {
        client = ready;
        for (const [data, isBinary] of early.splice(0)) ready.send(data, { binary: isBinary });
        ready.on('message', (data, isBinary) => upstream.send(data, { binary: isBinary }));
        // Close codes 1005/1006 cannot be sent; anything unusual becomes 1011 so the client
        // reconnects, while a normal 1000 stays a normal close.
        const relayable = (code: number) =>
          code === 1000 || (code >= 3000 && code < 5000) ? code : 1011;
        upstream.on('close', (code) => ready.close(relayable(code)));
        ready.on('close', (code) => upstream.close(relayable(code)));
        upstream.on('error', () => ready.terminate());
        ready.on('error', () => upstream.terminate());
      });
    });
  }

  return {
    handleUpgrade,
    close() {
      for (const c of wss.clients) c.close(1001);
      wss.close();
    },
  };
}
