/** The load generator and the forked server processes the proxy benchmarks share. */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { ControlMessage, ServerMessage } from './server-process.ts';

export const USER = 'admin@demo.test';
export const PASSWORD = 'Demo1234!';

export interface ProcessStats {
  cpuMicros: number;
  accepted: number;
  opened: number;
}

export function statsDelta(a: ProcessStats, b: ProcessStats): ProcessStats {
  return {
    cpuMicros: b.cpuMicros - a.cpuMicros,
    accepted: b.accepted - a.accepted,
    opened: b.opened - a.opened,
  };
}

/** One forked bench/lib/server-process.ts with a request/answer channel over IPC. */
export class ServerProcess {
  private waiting: ((m: ServerMessage) => void)[] = [];
  private constructor(readonly child: ChildProcess) {
    child.on('message', (m: ServerMessage) => {
      if (m.type !== 'ready') this.waiting.shift()?.(m);
    });
  }

  static start(args: string[], extraExecArgv: string[] = []) {
    const child = fork(fileURLToPath(new URL('./server-process.ts', import.meta.url)), args, {
      // process.execArgv carries tsx's loader, so the child runs TypeScript the same way.
      execArgv: [...process.execArgv, ...extraExecArgv],
      env: { ...process.env, ...(extraExecArgv.length ? { BENCH_REPORT_SERVED: '1' } : {}) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const proc = new ServerProcess(child);
    return new Promise<{ proc: ServerProcess; urls: Record<string, string> }>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`server process ${args[0]} exited (${code})`)));
      child.on('message', (m: ServerMessage) => {
        if (m.type === 'ready') resolve({ proc, urls: m.urls });
      });
    });
  }

  private ask(m: ControlMessage): Promise<ServerMessage> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.send(m);
    });
  }

  /** CPU time (user + system, µs) the process has used so far, and the TCP connections it has
   * accepted and opened. */
  async stats(): Promise<ProcessStats> {
    const m = await this.ask({ type: 'stats' });
    if (m.type !== 'stats') throw new Error(`unexpected answer ${m.type}`);
    return { cpuMicros: m.cpuMicros, accepted: m.accepted, opened: m.opened };
  }

  /** Runs the session micro-timings in the process (role `layers` only). */
  async micro(cookie: string): Promise<Record<string, number>> {
    const m = await this.ask({ type: 'micro', cookie });
    return m.type === 'micro' ? m.micros : {};
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.send({ type: 'stop' } satisfies ControlMessage);
    });
  }
}

export interface Target {
  url: URL;
  headers: Record<string, string>;
}

export interface LoadResult {
  ok: number;
  errors: number;
  elapsedMs: number;
  latenciesMs: number[];
}

export function keepAliveAgent(concurrency: number) {
  return new Agent({ keepAlive: true, maxSockets: concurrency });
}

function get(agent: Agent, t: Target): Promise<number> {
  return new Promise((resolve) => {
    const req = request(t.url, { agent, headers: t.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** `concurrency` loops, each sending its next request when the previous answer has been read,
 * over keep-alive connections, until `durationMs` has passed. */
export async function load(t: Target, concurrency: number, durationMs: number, agent: Agent) {
  const result: LoadResult = { ok: 0, errors: 0, elapsedMs: 0, latenciesMs: [] };
  const start = performance.now();
  const end = start + durationMs;
  const loop = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const status = await get(agent, t);
      if (status === 200) {
        result.ok++;
        result.latenciesMs.push(performance.now() - t0);
      } else {
        result.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  result.elapsedMs = performance.now() - start;
  return result;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export async function bearerFromSandbox(sandboxUrl: string): Promise<string> {
  const res = await fetch(`${sandboxUrl}/authservice/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: USER, password: PASSWORD }),
  });
  const body = (await res.json()) as { accessToken?: string };
  if (!res.ok || !body.accessToken) throw new Error(`sandbox login failed: ${res.status}`);
  return body.accessToken;
}

/** The three (or more) targets must answer the same thing, or a comparison means nothing. */
export async function assertSameAnswers(targets: Record<string, Target>) {
  const answers = await Promise.all(
    Object.entries(targets).map(async ([name, t]) => {
      const res = await fetch(t.url, { headers: t.headers });
      return { name, text: `${res.status} ${await res.text()}` };
    }),
  );
  const first = answers[0]!.text;
  if (!first.startsWith('200 ') || answers.some((a) => a.text !== first)) {
    throw new Error(
      `the variants answer differently:\n${answers.map((a) => `${a.name}: ${a.text}`).join('\n')}`,
    );
  }
}
