/**
 * Throughput and added latency of the BFF's /api proxy against a bare Node reverse proxy and a
 * direct call, all three in front of the same sandbox process and endpoint.
 * Usage: npx tsx bench/proxy-throughput.ts [--check] [--json] [--duration=5] [--rounds=2]
 *        [--concurrency=32] [--profile]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent as SessionAgent } from '#tests/support/stack.ts';
import {
  assertSameAnswers,
  bearerFromSandbox,
  keepAliveAgent,
  load,
  PASSWORD,
  percentile,
  ServerProcess,
  USER,
  type Target,
} from './lib/load.ts';

/** Budget: BFF requests per second at least this share of the bare proxy's. */
export const MIN_BFF_TO_BARE_RATIO = 0.5;

const ENDPOINT = '/tenantservice/v1/general';

export interface ProxyOptions {
  durationMs: number;
  rounds: number;
  concurrency: number;
  warmupMs: number;
  /** Write a V8 CPU profile of the proxies' process (bare proxy and BFF) into this directory. */
  profileDir?: string;
}

type VariantName = 'direct' | 'bare' | 'bff';

export interface VariantFigures {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** CPU time of the process holding the bare proxy and the BFF, per request (0 for direct). */
  proxyCpuMicrosPerRequest: number;
  sandboxCpuMicrosPerRequest: number;
  clientCpuMicrosPerRequest: number;
}

export interface ProxyReport {
  endpoint: string;
  options: ProxyOptions;
  variants: Record<VariantName, VariantFigures>;
  bffToBareRatio: number;
  bffAddedLatencyMs: { p50: number; p99: number };
  bareAddedLatencyMs: { p50: number; p99: number };
  budgets: { minBffToBareRatio: number };
  failures: string[];
}

export async function measureProxy(opts: ProxyOptions): Promise<ProxyReport> {
  const sandbox = await ServerProcess.start(['sandbox']);
  let proxies: Awaited<ReturnType<typeof ServerProcess.start>> | undefined;
  try {
    const sandboxUrl = sandbox.urls.sandbox!;
    const bearer = await bearerFromSandbox(sandboxUrl);
    const profileArgs = opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`] : [];
    proxies = await ServerProcess.start(['proxies', sandboxUrl, bearer], profileArgs);
    const session = new SessionAgent(proxies.urls.bff!);
    const login = await session.login(USER, PASSWORD);
    if (login.status !== 200 || !session.cookie)
      throw new Error(`BFF sign-in failed: ${login.status}`);

    const targets: Record<VariantName, Target> = {
      direct: {
        url: new URL(sandboxUrl + ENDPOINT),
        headers: { authorization: `Bearer ${bearer}` },
      },
      bare: { url: new URL(proxies.urls.bare + ENDPOINT), headers: {} },
      bff: {
        url: new URL(`${proxies.urls.bff}/api/0${ENDPOINT}`),
        headers: { cookie: session.cookie },
      },
    };
    const names = Object.keys(targets) as VariantName[];

    await assertSameAnswers(targets);

    const totals = Object.fromEntries(
      names.map((n) => [
        n,
        { ok: 0, errors: 0, ms: 0, lat: [] as number[], proxyCpu: 0, sandboxCpu: 0, clientCpu: 0 },
      ]),
    ) as Record<
      VariantName,
      {
        ok: number;
        errors: number;
        ms: number;
        lat: number[];
        proxyCpu: number;
        sandboxCpu: number;
        clientCpu: number;
      }
    >;

    const newAgent = () => keepAliveAgent(opts.concurrency);
    // JIT, connection pools and the PGlite caches settle before anything is counted.
    for (const n of names) {
      const agent = newAgent();
      await load(targets[n], opts.concurrency, opts.warmupMs, agent);
      agent.destroy();
    }
    // a b c a b c ...: slow drift of the machine (other jobs, thermal) spreads over all three.
    for (let round = 0; round < opts.rounds; round++) {
      for (const n of names) {
        const agent = newAgent();
        // Opens the connections so the measured window starts with a full pool.
        await load(targets[n], opts.concurrency, 300, agent);
        const [p0, s0] = await Promise.all([proxies.proc.cpu(), sandbox.proc.cpu()]);
        const c0 = process.cpuUsage();
        const r = await load(targets[n], opts.concurrency, opts.durationMs, agent);
        const c1 = process.cpuUsage(c0);
        const [p1, s1] = await Promise.all([proxies.proc.cpu(), sandbox.proc.cpu()]);
        agent.destroy();
        const t = totals[n];
        t.ok += r.ok;
        t.errors += r.errors;
        t.ms += r.elapsedMs;
        for (const x of r.latenciesMs) t.lat.push(x);
        t.proxyCpu += p1 - p0;
        t.sandboxCpu += s1 - s0;
        t.clientCpu += c1.user + c1.system;
      }
    }

    const variants = {} as Record<VariantName, VariantFigures>;
    for (const n of names) {
      const t = totals[n];
      const sorted = t.lat.sort((a, b) => a - b);
      const per = (micros: number) => (t.ok ? micros / t.ok : NaN);
      variants[n] = {
        requests: t.ok,
        errors: t.errors,
        seconds: t.ms / 1000,
        rps: t.ok / (t.ms / 1000),
        p50Ms: percentile(sorted, 0.5),
        p90Ms: percentile(sorted, 0.9),
        p99Ms: percentile(sorted, 0.99),
        // The proxies' process idles during direct calls; its small CPU there is timers and GC.
        proxyCpuMicrosPerRequest: n === 'direct' ? 0 : per(t.proxyCpu),
        sandboxCpuMicrosPerRequest: per(t.sandboxCpu),
        clientCpuMicrosPerRequest: per(t.clientCpu),
      };
    }
    const ratio = variants.bff.rps / variants.bare.rps;
    const failures: string[] = [];
    if (!(ratio >= MIN_BFF_TO_BARE_RATIO)) {
      failures.push(
        `BFF throughput is ${ratio.toFixed(2)} x the bare proxy, under the budget of ${MIN_BFF_TO_BARE_RATIO}`,
      );
    }
    for (const n of names) {
      if (variants[n].errors) failures.push(`${n}: ${variants[n].errors} request(s) failed`);
    }
    return {
      endpoint: ENDPOINT,
      options: opts,
      variants,
      bffToBareRatio: ratio,
      bffAddedLatencyMs: {
        p50: variants.bff.p50Ms - variants.direct.p50Ms,
        p99: variants.bff.p99Ms - variants.direct.p99Ms,
      },
      bareAddedLatencyMs: {
        p50: variants.bare.p50Ms - variants.direct.p50Ms,
        p99: variants.bare.p99Ms - variants.direct.p99Ms,
      },
      budgets: { minBffToBareRatio: MIN_BFF_TO_BARE_RATIO },
      failures,
    };
  } finally {
    await proxies?.proc.stop();
    await sandbox.proc.stop();
  }
}

export function printProxy(r: ProxyReport) {
  const o = r.options;
  console.log(
    `\nProxy throughput: GET ${r.endpoint}, ${o.concurrency} in flight, keep-alive, ` +
      `${o.rounds} x ${o.durationMs / 1000} s per variant (alternated)`,
  );
  const line = (cells: string[]) =>
    console.log(cells.map((c, i) => (i === 0 ? c.padEnd(22) : c.padStart(10))).join(''));
  line([
    '',
    'req/s',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'errors',
    'CPU µs/req: proxy',
    'sandbox',
    'client',
  ]);
  const labels: Record<VariantName, string> = {
    direct: '(a) direct to sandbox',
    bare: '(b) bare Node proxy',
    bff: '(c) BFF, signed in',
  };
  for (const [n, v] of Object.entries(r.variants) as [VariantName, VariantFigures][]) {
    line([
      labels[n],
      v.rps.toFixed(0),
      v.p50Ms.toFixed(2),
      v.p90Ms.toFixed(2),
      v.p99Ms.toFixed(2),
      String(v.errors),
      n === 'direct' ? '-' : v.proxyCpuMicrosPerRequest.toFixed(0),
      v.sandboxCpuMicrosPerRequest.toFixed(0),
      v.clientCpuMicrosPerRequest.toFixed(0),
    ]);
  }
  const f = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} ms`;
  console.log(
    `BFF / bare proxy throughput: ${r.bffToBareRatio.toFixed(2)} (budget >= ${r.budgets.minBffToBareRatio})`,
  );
  console.log(
    `added latency over direct: BFF p50 ${f(r.bffAddedLatencyMs.p50)}, p99 ${f(r.bffAddedLatencyMs.p99)}; ` +
      `bare proxy p50 ${f(r.bareAddedLatencyMs.p50)}, p99 ${f(r.bareAddedLatencyMs.p99)}`,
  );
  const bare = r.variants.bare.proxyCpuMicrosPerRequest;
  const bff = r.variants.bff.proxyCpuMicrosPerRequest;
  console.log(
    `proxy CPU per request: BFF ${bff.toFixed(0)} µs vs bare ${bare.toFixed(0)} µs (${(bff / bare).toFixed(1)} x)`,
  );
}

export function parseProxyArgs(argv: string[]): ProxyOptions {
  const num = (name: string, fallback: number) => {
    const a = argv.find((x) => x.startsWith(`--${name}=`));
    const v = a ? Number(a.slice(name.length + 3)) : fallback;
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
    return v;
  };
  return {
    durationMs: num('duration', 5) * 1000,
    rounds: Math.round(num('rounds', 2)),
    concurrency: Math.round(num('concurrency', 32)),
    warmupMs: num('warmup', 2) * 1000,
    ...(argv.includes('--profile')
      ? { profileDir: mkdtempSync(join(tmpdir(), 'bench-proxy-prof-')) }
      : {}),
  };
}

async function main() {
  const argv = process.argv.slice(2);
  const report = await measureProxy(parseProxyArgs(argv));
  if (argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
  else printProxy(report);
  if (report.options.profileDir) {
    console.error(`CPU profile of the proxies' process in ${report.options.profileDir}`);
  }
  if (argv.includes('--check') && report.failures.length) {
    for (const f of report.failures) console.error(`BUDGET BROKEN: ${f}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
