import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import {
  createServer as createTcpServer,
  connect,
  type Server as TcpServer,
  type Socket,
} from 'node:net';

export function listen(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : 0);
    });
  });
}

export function closeServer(server: Server | TcpServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/** A pass-through HTTP proxy in front of the real sandbox that records what reaches it, so tests
 * can see exactly which calls the BFF made upstream (and with which headers). */
export async function recordingUpstream(target: string) {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const t = new URL(target);
    const up = request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('upgrade', (req, socket: Socket, head) => {
    const t = new URL(target);
    const s = connect(Number(t.port), t.hostname, () => {
      s.write(`${req.method} ${req.url} HTTP/1.1\r\n`);
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        s.write(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`);
      s.write('\r\n');
      s.write(head);
      s.pipe(socket).pipe(s);
    });
    s.on('error', () => socket.destroy());
    socket.on('error', () => s.destroy());
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: () => closeServer(server) };
}

/** A TCP relay that can be cut, to take a real service (Redis) away from under the BFF. */
export async function cuttableRelay(targetPort: number) {
  const sockets = new Set<Socket>();
  let mode: 'open' | 'cut' | 'stall' | 'garbage' = 'open';
  const server = createTcpServer((client) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    if (mode === 'cut') return void client.destroy();
    if (mode === 'stall') return; // accept, then say nothing
    if (mode === 'garbage') return void client.end('this is not HTTP at all\r\n\r\n');
    const up = connect(targetPort, '127.0.0.1');
    sockets.add(up);
    client.pipe(up).pipe(client);
    const end = () => {
      client.destroy();
      up.destroy();
    };
    client.on('error', end).on('close', end);
    up.on('error', end).on('close', end);
  });
  const port = await listen(server);
  return {
    port,
    /** New connections are refused and live ones dropped. */
    cut() {
      mode = 'cut';
      for (const s of sockets) s.destroy();
    },
    /** New connections are accepted and never answered. */
    stall() {
      mode = 'stall';
      for (const s of sockets) s.destroy();
    },
    /** New connections get bytes that are not the expected protocol. */
    garbage() {
      mode = 'garbage';
      for (const s of sockets) s.destroy();
    },
    restore() {
      mode = 'open';
    },
    close() {
      for (const s of sockets) s.destroy();
      return closeServer(server);
    },
  };
}
