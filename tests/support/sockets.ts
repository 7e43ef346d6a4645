import { WebSocket } from 'ws';

/** The browser's notification socket through a BFF's bridge (`/ws?account=0`), resolved once
 * the upstream's hello arrives; the frames collect as they come. The socket goes into `opened`
 * so that the test can terminate it. */
export async function openNotificationSocket(
  base: string,
  cookie: string,
  opened: WebSocket[],
): Promise<Record<string, unknown>[]> {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/ws?account=0`, {
    headers: { cookie, origin: base },
  });
  opened.push(socket);
  const frames: Record<string, unknown>[] = [];
  // The hello frame shows the upstream socket stands, not only the bridge.
  let helloArrived = () => {};
  const hello = new Promise<void>((resolve, reject) => {
    helloArrived = resolve;
    socket.once('error', reject);
  });
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Record<string, unknown>;
    frames.push(frame);
    if (frame.type === 'hello') helloArrived();
  });
  await hello;
  return frames;
}
