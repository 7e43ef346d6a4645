// The product as ops run it: the standalone sandbox (`npm run sandbox`) on PostgreSQL, several
// BFF processes (`npm start` with UPSTREAM_URL) sharing Redis, and nginx in front with the
// repository's configuration (deploy/nginx.conf.template). Real processes on loopback ports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '#server/sandbox/testing.ts';
import { cuttableRelay } from '#tests/support/net.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
/** Added to the test's configuration only: nginx says at `notice` level when its workers start
 * and exit (at start and after each reload), and the test waits for those lines instead of a
 * fixed time. */
const NOTICE_LOG =
  '\n# tests/support/topology.ts: worker starts, on stderr\nerror_log stderr notice;\n';
const WORKER_STARTED = /start worker process \d+/;

/** The nginx workers alive according to its notice lines: started and not yet exited. */
function liveWorkers(output: string): string[] {
  const exited = new Set([...output.matchAll(/worker process (\d+) exited/g)].map((m) => m[1]));
  return [...output.matchAll(/start worker process (\d+)/g)]
    .map((m) => m[1]!)
    .filter((pid) => !exited.has(pid));
}

/** The template with its `${NAME}` placeholders filled; a placeholder left over is an error, so
 * that a renamed variable fails here and not as an nginx syntax error. */
export function renderNginxConf(template: string, vars: Record<string, string>): string {
  const out = template.replace(/\$\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
  const left = /\$\{\w+\}/.exec(out);
  if (left) throw new Error(`nginx template: no value for ${left[0]}`);
  return out;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Proc {
  child: ChildProcess;
  /** Exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string>;
  output(): string;
}

function run(args: string[], env: Record<string, string>, what: string): Proc {
  const child = spawn(args[0]!, args.slice(1), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // The tail is enough to explain a failure; a long run must not grow without bound.
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  void exited.then((c) => {
    if (c !== 0 && c !== 'SIGKILL') out += `\n[${what} exited with ${c}]`;
  });
  return { child, exited, output: () => out };
}

/** Waits (on its output, no polling) for a process to print something matching `pattern`:
 * anything it printed so far counts too, unless `fromNow`. */
function awaitOutput(
  p: Proc,
  pattern: RegExp,
  what: string,
  opts: { fromNow?: boolean; timeoutMs?: number } = {},
): Promise<RegExpExecArray> {
  let seen = opts.fromNow ? '' : p.output();
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      p.child.stdout!.off('data', onData);
      p.child.stderr!.off('data', onData);
    };
    function check() {
      const m = pattern.exec(seen);
      if (!m) return;
      stop();
      resolve(m);
    }
    function onData(d: Buffer) {
      seen = (seen + d.toString()).slice(-200_000);
      check();
    }
    const fail = () => {
      stop();
      reject(new Error(`${what}: no ${pattern} in its output:\n${p.output().slice(-4000)}`));
    };
    const timer = setTimeout(fail, opts.timeoutMs ?? 120_000);
    p.child.stdout!.on('data', onData);
    p.child.stderr!.on('data', onData);
    void p.exited.then(() => {
      check();
      fail();
    });
    check();
  });
}

/** Waits for the line a process prints once it listens, and returns its port. */
async function portFrom(p: Proc, pattern: RegExp, what: string): Promise<number> {
  return Number((await awaitOutput(p, pattern, `${what} did not start`))[1]);
}

export interface Bff extends Proc {
  port: number;
  url: string;
}

export interface TopologyOptions {
  instances?: number;
  /** Lifetime of the sandbox's access tokens in seconds (short ones make the BFFs refresh). */
  tokenTtlSeconds?: number;
  /** Extra environment for every BFF. */
  bffEnv?: Record<string, string>;
}

export interface Topology {
  /** nginx: where the browser goes. */
  url: string;
  sandboxUrl: string;
  bffs: Bff[];
  /** The TCP relay between every BFF and Redis: `cut()` takes Redis away from all of them. */
  redis: Awaited<ReturnType<typeof cuttableRelay>>;
  /** The TCP relay between every BFF and the sandbox: `stall()` makes the upstream hang. */
  upstream: Awaited<ReturnType<typeof cuttableRelay>>;
  /** Take one BFF out of nginx, SIGTERM it, wait for its exit (the code is returned), start it
   * again on its port and put it back. */
  restartBff(index: number): Promise<number | string>;
  accessLog(): Promise<string>;
  /** Processes that exited without being told to: the sandbox, a BFF or nginx. */
  deaths(): string[];
  /** The tail of each process's output (LOG_LEVEL=warn), by name, restarted ones included. */
  logs(): Record<string, string>;
  stop(): Promise<void>;
}

export async function startTopology(opts: TopologyOptions = {}): Promise<Topology> {
  const instances = opts.instances ?? 2;
  // Each BFF would build a missing client on start: several test files doing that at once on
  // two cores is minutes of nothing. CI builds first (scripts/test-all.sh); say so otherwise.
  if (!existsSync(join(root, 'dist/client/index.html')))
    throw new Error('No client build in dist/client: run `npx vite build` once, then the test.');
  const dir = await mkdtemp(join(tmpdir(), 'topology-'));
  const cleanups: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];
  const expectedExit = new Set<Proc>();
  const procs: { what: string; p: Proc }[] = [];
  const stopProc = async (p: Proc, signal: NodeJS.Signals = 'SIGTERM') => {
    expectedExit.add(p);
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
    const timer = setTimeout(() => p.child.kill('SIGKILL'), 20_000);
    const code = await p.exited;
    clearTimeout(timer);
    return code;
  };
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const c of cleanups.reverse()) await c().catch(() => {});
    })());

  try {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    const sandbox = run(
      [process.execPath, '--import', 'tsx', 'server/sandbox-main.ts'],
      {
        DATABASE_URL: db.url,
        DATA_DIR: join(dir, 'sandbox'),
        SANDBOX_HOST: '127.0.0.1',
        SANDBOX_PORT: '0',
        SANDBOX_ACCESS_TOKEN_TTL: String(opts.tokenTtlSeconds ?? 3600),
        LOG_LEVEL: 'warn',
      },
      'sandbox',
    );
    procs.push({ what: 'sandbox', p: sandbox });
    cleanups.push(() => stopProc(sandbox));
    const sandboxPort = await portFrom(
      sandbox,
      /running at http:\/\/127\.0\.0\.1:(\d+)/,
      'sandbox',
    );
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;

    const redis = await cuttableRelay(6379);
    cleanups.push(() => redis.close());
    // nginx reaches the sandbox's storage directly; only the BFFs' calls can be made to hang.
    const upstream = await cuttableRelay(sandboxPort);
    cleanups.push(() => upstream.close());

    // One secret for all: each instance must verify the cookies the others signed.
    const secret = randomBytes(32).toString('hex');
    const startBff = async (index: number, port: number): Promise<Bff> => {
      const p = run(
        [process.execPath, '--import', 'tsx', 'server/index.ts'],
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          UPSTREAM_URL: `http://127.0.0.1:${upstream.port}`,
          REDIS_URL: `redis://127.0.0.1:${redis.port}`,
          SESSION_SECRET: secret,
          TRUST_PROXY: '1',
          DATA_DIR: join(dir, `bff${index}`),
          APP_ENV: 'test',
          LOG_LEVEL: 'warn',
          ...opts.bffEnv,
        },
        `bff${index}`,
      );
      procs.push({ what: `bff${index}`, p });
      const got = await portFrom(p, /running at http:\/\/localhost:(\d+)/, `BFF ${index}`);
      return Object.assign(p, { port: got, url: `http://127.0.0.1:${got}` });
    };
    // One after the other: two cores do not start several faster anyway.
    const bffs: Bff[] = [];
    for (let i = 0; i < instances; i++) bffs.push(await startBff(i, 0));
    cleanups.push(() => Promise.all(bffs.map((b) => stopProc(b))));

    const nginx = await startNginx(dir, bffs, sandboxPort, procs, cleanups, stopProc);
    const url = nginx.url;

    return {
      url,
      sandboxUrl,
      bffs,
      redis,
      upstream,
      // A rolling restart as ops run it behind nginx: out of the balancer, SIGTERM (the BFF
      // drains what it already has), start again on the same port, back in.
      async restartBff(index) {
        const old = bffs[index]!;
        await nginx.takeOut(index);
        const code = await stopProc(old);
        bffs[index] = await startBff(index, old.port);
        await nginx.takeOut(null);
        return code;
      },
      accessLog: () => readFile(join(dir, 'logs/access.log'), 'utf8'),
      deaths: () =>
        procs
          .filter(
            ({ p }) => !expectedExit.has(p) && (p.child.exitCode ?? p.child.signalCode) !== null,
          )
          .map(({ what, p }) => `${what}: ${p.output().slice(-2000)}`),
      logs: () => Object.fromEntries(procs.map(({ what, p }, i) => [`${i} ${what}`, p.output()])),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

async function startNginx(
  dir: string,
  bffs: Bff[],
  sandboxPort: number,
  procs: { what: string; p: Proc }[],
  cleanups: (() => Promise<unknown>)[],
  stopProc: (p: Proc) => Promise<number | string>,
): Promise<{ url: string; takeOut(index: number | null): Promise<void> }> {
  if (!existsSync(NGINX))
    throw new Error(`nginx not found at ${NGINX}: apt-get install -y nginx (or set NGINX_PATH)`);
  await mkdir(join(dir, 'logs'), { recursive: true });
  await mkdir(join(dir, 'tmp'), { recursive: true });
  // As root, nginx's workers run as nobody: they must reach the prefix (nginx makes the temp
  // directories theirs itself).
  await chmod(dir, 0o755);
  const template = await readFile(join(root, 'deploy/nginx.conf.template'), 'utf8');
  // A free port can be taken between the check and nginx's bind: try a few.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const conf = join(dir, 'nginx.conf');
    const write = (down: number | null) =>
      writeFile(
        conf,
        renderNginxConf(template, {
          LISTEN: `127.0.0.1:${port}`,
          BFF_SERVERS: bffs
            .map(
              (b, i) =>
                `server 127.0.0.1:${b.port} max_fails=1 fail_timeout=5s${i === down ? ' down' : ''};`,
            )
            .join('\n    '),
          SANDBOX: `127.0.0.1:${sandboxPort}`,
        }) + NOTICE_LOG,
      );
    await write(null);
    const check = spawnSync(NGINX, ['-t', '-q', '-p', `${dir}/`, '-e', 'stderr', '-c', conf], {
      encoding: 'utf8',
    });
    if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
    const p = run(
      [NGINX, '-p', `${dir}/`, '-e', 'stderr', '-c', conf, '-g', 'daemon off;'],
      {},
      'nginx',
    );
    const url = `http://127.0.0.1:${port}`;
    // nginx starts its workers once it listens (a port taken meanwhile ends it instead).
    const started = await awaitOutput(p, WORKER_STARTED, 'nginx', { timeoutMs: 15_000 }).then(
      () =>
        fetch(`${url}/lb-health`).then(
          (r) => r.ok,
          () => false,
        ),
      () => false,
    );
    if (started) {
      procs.push({ what: 'nginx', p });
      cleanups.push(() => stopProc(p));
      return {
        url,
        // What ops do with nginx before restarting an instance: mark it down and reload
        // (SIGHUP). Old workers finish their requests; new ones send nothing to that instance.
        async takeOut(index: number | null) {
          await write(index);
          const old = liveWorkers(p.output());
          const reloaded = awaitOutput(p, WORKER_STARTED, 'nginx reload', {
            fromNow: true,
            timeoutMs: 15_000,
          });
          p.child.kill('SIGHUP');
          // Once the new workers started, they have the new configuration; what is in flight
          // drains in the old. Only when the old workers are gone has nothing an open connection
          // to the instance taken out: stopping it earlier, an old worker may send a request on
          // a kept-alive connection the instance is closing, and nginx cannot pass a POST on
          // (a 502 the user would see; CI saw one).
          await reloaded;
          for (const pid of old) {
            await awaitOutput(p, new RegExp(`worker process ${pid} exited`), 'nginx old worker', {
              timeoutMs: 100_000,
            });
          }
        },
      };
    }
    await stopProc(p);
    if (attempt === 2) throw new Error(`nginx did not start:\n${p.output()}`);
  }
}
