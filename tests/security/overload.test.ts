import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { within } from '#tests/support/hold.ts';
import { cuttableRelay } from '#tests/support/net.ts';
import { Agent } from '#tests/support/stack.ts';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';

/**
 * The real server in a child process, so that an error reaching `uncaughtException` shows as what
 * it is in production: a dead process. Started through `startServer` (what server/index.ts runs)
 * rather than index.ts itself, which would first build the client bundle.
 */
async function startChild(env: Record<string, string>) {
  const dataDir = await mkdtemp(join(tmpdir(), 'overload-'));
  const start = pathToFileURL(join(process.cwd(), 'server/start.ts')).href;
  const config = pathToFileURL(join(process.cwd(), 'server/config.ts')).href;
  const logger = pathToFileURL(join(process.cwd(), 'server/logger.ts')).href;
  const code = `
    const { startServer } = await import(${JSON.stringify(start)});
    const { loadConfig } = await import(${JSON.stringify(config)});
    const { createLogger } = await import(${JSON.stringify(logger)});
    const config = loadConfig(process.env);
    const running = await startServer(config, createLogger(config.logLevel));
    process.stdout.write('LISTENING ' + running.url + '\\n');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /LISTENING (http:\/\/[\d.:]+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 100);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`exited early: ${out}`));
    });
  });
  const running = {
    url,
    alive: () => child.exitCode === null && child.signalCode === null,
    output: () => out,
    async stop() {
      child.kill('SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  cleanups.push(running.stop);
  return running;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The process is alive and serves both its own routes and a real upstream call. */
async function expectServing(server: { url: string; alive(): boolean }, agent: Agent) {
  expect(server.alive()).toBe(true);
  expect((await fetch(server.url + '/healthz')).status).toBe(200);
  const users = await agent.json('/api/0/tenantservice/v1/users', {
    signal: AbortSignal.timeout(20_000),
  });
  expect(users.status).toBe(200);
  expect(users.body.items.length).toBeGreaterThan(0);
}

describe('a full upstream pool', () => {
  it('answers the excess with a fast 503, times out the rest, and stays up', async () => {
    const sandbox = await startStandaloneSandbox();
    cleanups.push(() => sandbox.close());
    const relay = await cuttableRelay(sandbox.port);
    cleanups.push(() => relay.close());
    const server = await startChild({
      UPSTREAM_URL: `http://127.0.0.1:${relay.port}`,
      UPSTREAM_TIMEOUT: '6',
      UPSTREAM_MAX_CONCURRENCY: '8',
      UPSTREAM_MAX_QUEUE: '8',
    });
    const agent = new Agent(server.url);
    expect((await agent.login('admin@demo.test')).status).toBe(200);

    // The upstream accepts connections and never answers: every call holds its slot until the
    // upstream timeout. 260 is more than the connection pool the issue found crashing (256).
    relay.stall();
    const answers: { status: number; error: string; at: number }[] = [];
    let order = 0;
    await Promise.all(
      Array.from({ length: 260 }, async () => {
        const r = await agent.json('/api/0/tenantservice/v1/users', {
          signal: AbortSignal.timeout(45_000),
        });
        answers.push({ status: r.status, error: r.body?.error, at: order++ });
        if (r.status === 503) expect(Number(r.res.headers.get('retry-after'))).toBeGreaterThan(0);
      }),
    );
    const busy = answers.filter((a) => a.status === 503 && a.error === 'upstream_busy');
    const timedOut = answers.filter((a) => a.status === 504 && a.error === 'upstream_timeout');
    expect(busy.length + timedOut.length).toBe(260);
    // 8 with the upstream and 8 waiting; all the others were refused at once, before the first
    // call with the upstream gave up.
    expect(timedOut.length).toBeGreaterThanOrEqual(8);
    const firstTimeout = Math.min(...timedOut.map((a) => a.at));
    expect(busy.filter((a) => a.at < firstTimeout).length).toBeGreaterThanOrEqual(260 - 16);

    relay.restore();
    await expectServing(server, agent);
    expect(server.output()).not.toMatch(/ERR_HTTP_HEADERS_SENT|uncaught/i);
  }, 120_000);
});

/** A raw upload that sends its declared body a few bytes at a time. */
function slowUpload(port: number, length: number) {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  const status = () => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
  let begun: (status: number) => void = () => {};
  const answered = new Promise<number>((resolve) => (begun = resolve));
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => {
    answer += d;
    if (status() !== 0) begun(status());
  });
  socket.on('error', () => socket.destroy());
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    'POST /storage/documents HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      'Content-Type: multipart/form-data; boundary=x\r\n' +
      `Content-Length: ${length}\r\n\r\n--x`,
  );
  return {
    socket,
    closed,
    /** Settles with the status once the server's answer has begun. */
    answered,
    status,
    body: () => answer.slice(answer.indexOf('\r\n\r\n') + 4),
    send(bytes: string) {
      if (!socket.destroyed) socket.write(bytes);
    },
  };
}

describe('slow uploads to the object store', () => {
  it('are capped and cut, never starve API calls, and leave the process up', async () => {
    const server = await startChild({
      UPSTREAM_TIMEOUT: '10',
      STORAGE_MAX_CONCURRENCY: '4',
      STORAGE_MAX_QUEUE: '4',
      STORAGE_BODY_TIMEOUT: '8',
    });
    const agent = new Agent(server.url);
    expect((await agent.login('admin@demo.test')).status).toBe(200);
    const port = Number(new URL(server.url).port);

    // 260 anonymous uploads declaring a megabyte and sending a byte a second.
    const uploads = Array.from({ length: 260 }, () => slowUpload(port, 1_000_000));
    const drip = setInterval(() => uploads.forEach((u) => u.send('.')), 1000);
    try {
      // Settles when all but the 4 admitted and the 4 queued have been answered 503.
      const excessRefused = new Promise<void>((resolve) => {
        let refused = 0;
        for (const u of uploads)
          void u.answered.then((status) => {
            if (status === 503 && ++refused === 260 - 8) resolve();
          });
      });
      await within(40_000, 'the excess uploads refused', excessRefused);
      // The API has its own pool: a user's call goes through while the uploads hang on.
      expect(uploads.some((u) => u.status() === 0)).toBe(true);
      await expectServing(server, agent);

      // The admitted and the waiting ones are cut too, and every socket closed.
      // The body deadline (STORAGE_BODY_TIMEOUT) is a real I/O deadline of the child process,
      // not its time of day: no clock to move, so the test waits for the sockets to close.
      await within(
        40_000,
        'every upload answered and closed',
        Promise.all(uploads.map((u) => u.closed)),
      );
      for (const u of uploads) {
        expect([408, 503]).toContain(u.status());
        expect(JSON.parse(u.body()).error).toMatch(/^(request_timeout|upstream_busy)$/);
      }
      expect(uploads.filter((u) => u.status() === 408).length).toBeGreaterThanOrEqual(4);
    } finally {
      clearInterval(drip);
      uploads.forEach((u) => u.socket.destroy());
    }

    // Fast enough per second, but not whole by the deadline: cut as well.
    const steady = slowUpload(port, 1_000_000);
    const pour = setInterval(() => steady.send('x'.repeat(4096)), 500);
    try {
      await within(40_000, 'the steady upload cut at its deadline', steady.answered);
      await steady.closed;
    } finally {
      clearInterval(pour);
    }
    expect(steady.status()).toBe(408);
    expect(JSON.parse(steady.body())).toMatchObject({
      error: 'request_timeout',
      message: 'The upload did not arrive in time.',
    });

    await expectServing(server, agent);
    expect(server.output()).not.toMatch(/ERR_HTTP_HEADERS_SENT|uncaught/i);
  }, 150_000);
});
