import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, login, makeTempDir } from '#server/sandbox/testing.ts';
import { withSandbox } from '#tests/support/sandbox.ts';
import { startSeededSandbox } from '#tests/support/sandbox-template.ts';

const kit = withSandbox();
let base: string;
const sockets: WebSocket[] = [];

beforeAll(() => {
  base = kit.base;
});

// Registered after the kit's, so it runs before the kit closes the sandbox.
afterAll(() => {
  for (const socket of sockets) socket.terminate();
});

interface Client {
  socket: WebSocket;
  frames: Record<string, unknown>[];
  next(): Promise<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(token: string | null): Client {
  const query = token === null ? '' : `?authToken=${encodeURIComponent(token)}`;
  const socket = new WebSocket(`${base.replace('http', 'ws')}/notificationservice/v1/ws${query}`);
  sockets.push(socket);
  const frames: Record<string, unknown>[] = [];
  const waiters: ((frame: Record<string, unknown>) => void)[] = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Record<string, unknown>;
    const waiter = waiters.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return {
    socket,
    frames,
    closed,
    next: () =>
      new Promise((resolve) => {
        const frame = frames.shift();
        if (frame) resolve(frame);
        else waiters.push(resolve);
      }),
  };
}

describe('notification websocket', () => {
  it('says hello with the tenant slug', async () => {
    const session = await login(base, 'viewer@demo.test');
    const client = connect(session.accessToken);
    expect(await client.next()).toEqual({ type: 'hello', tenantSlug: 'demo' });
    client.socket.close();
  });

  it('closes with 4401 for a bad, missing or forged token', async () => {
    const session = await login(base, 'viewer@demo.test');
    for (const token of ['garbage', null, session.accessToken.slice(0, -3) + 'abc']) {
      const client = connect(token);
      const { code } = await client.closed;
      expect(code).toBe(4401);
      expect(client.frames).toEqual([]);
    }
  });

  it('refuses upgrades on other paths', async () => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/elsewhere`);
    sockets.push(socket);
    await new Promise<void>((resolve) => {
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
    });
    expect(socket.readyState).not.toBe(WebSocket.OPEN);
  });
});

describe('POST /notificationservice/v1/notifications', () => {
  it('publishes to the sockets of the caller tenant only', async () => {
    const admin = await login(base, 'admin@demo.test');
    const viewer = await login(base, 'viewer@demo.test');
    const nord = await login(base, 'admin@nordlicht.test');
    const demoSocket = connect(viewer.accessToken);
    const nordSocket = connect(nord.accessToken);
    expect((await demoSocket.next()).type).toBe('hello');
    expect((await nordSocket.next()).type).toBe('hello');

    const res = await api(base, '/notificationservice/v1/notifications', {
      body: { title: 'Neue Police', body: 'POL-1 wurde angelegt' },
      token: admin.accessToken,
    });
    expect(res.status).toBe(201);
    expect(res.body.delivered).toBe(1);
    expect(await demoSocket.next()).toMatchObject({
      type: 'notification',
      title: 'Neue Police',
      body: 'POL-1 wurde angelegt',
      id: expect.any(String),
    });

    const nordRes = await api(base, '/notificationservice/v1/notifications', {
      body: { title: 'Nord', body: '' },
      token: nord.accessToken,
    });
    expect(nordRes.body.delivered).toBe(1);
    expect(await nordSocket.next()).toMatchObject({ type: 'notification', title: 'Nord' });
    // Only the own tenant's frames arrive on each socket: a frame of the other tenant would come
    // before these last ones, which each tenant sends after everything above.
    for (const [tenant, token, socket] of [
      ['demo', admin.accessToken, demoSocket],
      ['nord', nord.accessToken, nordSocket],
    ] as const) {
      await api(base, '/notificationservice/v1/notifications', {
        body: { title: `last of ${tenant}`, body: '' },
        token,
      });
      expect(await socket.next()).toMatchObject({ title: `last of ${tenant}` });
      expect(socket.frames).toEqual([]);
    }
  });

  it('needs a token, the permission and a valid body', async () => {
    const admin = await login(base, 'admin@demo.test');
    const viewer = await login(base, 'viewer@demo.test');
    const body = { title: 'x', body: 'y' };
    expect((await api(base, '/notificationservice/v1/notifications', { body })).status).toBe(401);
    expect(
      (
        await api(base, '/notificationservice/v1/notifications', {
          body,
          token: viewer.accessToken,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api(base, '/notificationservice/v1/notifications', {
          body: { title: '' },
          token: admin.accessToken,
        })
      ).status,
    ).toBe(400);
  });
});

describe('close()', () => {
  it('closes open sockets and the server', async () => {
    const tmp = await makeTempDir();
    const other = await startSeededSandbox(tmp.dir);
    try {
      const session = await login(other.url, 'viewer@demo.test');
      const socket = new WebSocket(
        `${other.url.replace('http', 'ws')}/notificationservice/v1/ws?authToken=${session.accessToken}`,
      );
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await new Promise<void>((resolve) => socket.on('message', () => resolve()));
      await other.close();
      await closed;
      await expect(fetch(`${other.url}/health`)).rejects.toThrow();
    } finally {
      await other.close();
      await tmp.remove();
    }
    // It starts a sandbox of its own on an empty directory: migrations and the whole seed, which
    // take 25-30 s on a busy 2-core box, more than the default 30 s leave for the test itself.
  }, 120_000);
});
