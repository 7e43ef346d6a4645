/**
 * Throughput and added latency of the BFF's /api proxy against a bare Node reverse proxy and a
 * direct call, all three in front of the same upstream and endpoint. By default the upstream is
 * a fast one (the endpoint's answer held in memory, bench/lib/server-process.ts `fast`), so the
 * proxies' own cost is what the comparison sees; `--upstream=sandbox` puts the real sandbox there
 * instead, where PGlite's time per call hides most of it.
 * Usage: npx tsx bench/proxy-throughput.ts [--check] [--json] [--duration=4] [--rounds=3]
 *        [--concurrency=32] [--warmup=2] [--latency-duration=2] [--profile] [--upstream=sandbox]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent as SessionAgent } from '#tests/support/stack.ts';
import {
  assertSameAnswers,
  bearerFromSandbox,
  keepAliveAgent,
  load,
  PASSWORD,
  percentile,
  ServerProcess,
  statsDelta,
  USER,
  type Target,
} from './lib/load.ts';
import { checkBudgets, runWhenMain } from './lib/cli.ts';

/** Budget: BFF requests per second at least this share of the bare proxy's (issue 14). */
export const MIN_BFF_TO_BARE_RATIO = 0.8;
/** Budget: what the BFF adds over the bare proxy to one call's p50, unloaded (issue 14). */
export const MAX_BFF_ADDED_P50_MS = 0.4;

const ENDPOINT = '/tenantservice/v1/general';

export interface ProxyOptions {
  durationMs: number;
  rounds: number;
  concurrency: number;
  warmupMs: number;
  /** Per variant and round, one request at a time, for latency without queueing. */
  latencyDurationMs: number;
  /** Write a V8 CPU profile of the proxies' process (bare proxy and BFF) into this directory. */
  profileDir?: string;
  /** What the proxies stand in front of: a fast in-memory upstream, or the sandbox itself. */
  upstream: 'fast' | 'sandbox';
}

type VariantName = 'direct' | 'bare' | 'bff';
const VARIANTS: Record<VariantName, string> = {
  direct: '(a) direct to upstream',
  bare: '(b) bare Node proxy',
  bff: '(c) BFF, signed in',
};

export interface Latency {
  requests: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
}

export interface VariantFigures {
  /** Under load: `concurrency` requests in flight. */
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  loaded: Latency;
  /** One request in flight: the cost of the hop itself. */
  unloaded: Latency;
  /** CPU time of the process holding the bare proxy and the BFF, per request (0 for direct). */
  proxyCpuMicrosPerRequest: number;
  sandboxCpuMicrosPerRequest: number;
  clientCpuMicrosPerRequest: number;
  /** New TCP connections per 100 requests under load: those the client opened (to the sandbox,
   * the bare proxy or the BFF) and those the sandbox accepted. With keep-alive both are ~0. */
  connectionsPer100: { client: number; sandbox: number };
}

export interface ProxyReport {
  endpoint: string;
  options: ProxyOptions;
  variants: Record<VariantName, VariantFigures>;
  /** BFF req/s over bare proxy req/s, under load: the budgeted figure. */
  bffToBareRatio: number;
  /** Bare proxy CPU per request over the BFF's: the ratio the two would reach if the proxy, not
   * the sandbox, were the bottleneck. */
  bffToBareCpuRatio: number;
  bffAddedLatencyMs: {
    unloaded: { p50: number; p99: number };
    loaded: { p50: number; p99: number };
  };
  bareAddedLatencyMs: {
    unloaded: { p50: number; p99: number };
    loaded: { p50: number; p99: number };
  };
  /** The BFF's unloaded p50 over the bare proxy's: what the BFF's own work adds to a call. */
  bffOverBareP50Ms: number;
  budgets: { minBffToBareRatio: number; maxBffAddedP50Ms: number };
  failures: string[];
}

interface Totals {
  ok: number;
  errors: number;
  ms: number;
  loaded: number[];
  unloaded: number[];
  proxyCpu: number;
  sandboxCpu: number;
  clientCpu: number;
  proxyAccepted: number;
  sandboxAccepted: number;
}

function latency(samples: number[]): Latency {
  const sorted = samples.sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p90Ms: percentile(sorted, 0.9),
    p99Ms: percentile(sorted, 0.99),
  };
}

function added(v: Record<VariantName, VariantFigures>, n: VariantName) {
  const diff = (k: 'loaded' | 'unloaded') => ({
    p50: v[n][k].p50Ms - v.direct[k].p50Ms,
    p99: v[n][k].p99Ms - v.direct[k].p99Ms,
  });
  return { unloaded: diff('unloaded'), loaded: diff('loaded') };
}

export async function measureProxy(opts: ProxyOptions): Promise<ProxyReport> {
  const sandbox = await ServerProcess.start(['sandbox']);
  let proxies: Awaited<ReturnType<typeof ServerProcess.start>> | undefined;
  let fast: Awaited<ReturnType<typeof ServerProcess.start>> | undefined;
  try {
    const sandboxUrl = sandbox.urls.sandbox!;
    const bearer = await bearerFromSandbox(sandboxUrl);
    if (opts.upstream === 'fast')
      fast = await ServerProcess.start(['fast', sandboxUrl, bearer, ENDPOINT]);
    // The one every variant calls: "direct" is this upstream without a proxy.
    const upstreamUrl = fast?.urls.fast ?? sandboxUrl;
    const profileArgs = opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`] : [];
    proxies = await ServerProcess.start(['proxies', upstreamUrl, bearer], profileArgs);
    const session = new SessionAgent(proxies.urls.bff!);
    const login = await session.login(USER, PASSWORD);
    if (login.status !== 200 || !session.cookie)
      throw new Error(`BFF sign-in failed: ${login.status}`);

    const targets: Record<VariantName, Target> = {
      direct: {
        url: new URL(upstreamUrl + ENDPOINT),
        headers: { authorization: `Bearer ${bearer}` },
      },
      bare: { url: new URL(proxies.urls.bare + ENDPOINT), headers: {} },
      bff: {
        url: new URL(`${proxies.urls.bff}/api/0${ENDPOINT}`),
        headers: { cookie: session.cookie },
      },
    };
    const names = Object.keys(VARIANTS) as VariantName[];
    await assertSameAnswers(targets);

    const empty = (): Totals => ({
      ok: 0,
      errors: 0,
      ms: 0,
      loaded: [],
      unloaded: [],
      proxyCpu: 0,
      sandboxCpu: 0,
      clientCpu: 0,
      proxyAccepted: 0,
      sandboxAccepted: 0,
    });
    const totals: Record<VariantName, Totals> = { direct: empty(), bare: empty(), bff: empty() };

    // JIT, connection pools and the PGlite caches settle before anything is counted.
    for (const n of names) {
      const agent = keepAliveAgent(opts.concurrency);
      await load(targets[n], opts.concurrency, opts.warmupMs, agent);
      agent.destroy();
    }
    // a b c a b c ...: slow drift of the machine (other jobs, thermal) spreads over all three.
    for (let round = 0; round < opts.rounds; round++) {
      for (const n of names) {
        const agent = keepAliveAgent(opts.concurrency);
        // Opens the connections so the measured window starts with a full pool.
        await load(targets[n], opts.concurrency, 300, agent);
        const upstreamProc = (fast ?? sandbox).proc;
        const [p0, s0] = await Promise.all([proxies.proc.stats(), upstreamProc.stats()]);
        const c0 = process.cpuUsage();
        const r = await load(targets[n], opts.concurrency, opts.durationMs, agent);
        const c1 = process.cpuUsage(c0);
        const [p1, s1] = await Promise.all([proxies.proc.stats(), upstreamProc.stats()]);
        const p = statsDelta(p0, p1);
        const sb = statsDelta(s0, s1);
        agent.destroy();
        const t = totals[n];
        t.ok += r.ok;
        t.errors += r.errors;
        t.ms += r.elapsedMs;
        for (const x of r.latenciesMs) t.loaded.push(x);
        t.proxyCpu += p.cpuMicros;
        t.sandboxCpu += sb.cpuMicros;
        t.proxyAccepted += p.accepted;
        t.sandboxAccepted += sb.accepted;
        t.clientCpu += c1.user + c1.system;
      }
    }
    // Under load a latency is mostly queueing (32 in flight / req/s); one at a time shows what
    // the extra hop itself costs.
    for (let round = 0; round < opts.rounds; round++) {
      for (const n of names) {
        const agent = keepAliveAgent(1);
        await load(targets[n], 1, 100, agent);
        const r = await load(targets[n], 1, opts.latencyDurationMs, agent);
        agent.destroy();
        totals[n].errors += r.errors;
        for (const x of r.latenciesMs) totals[n].unloaded.push(x);
      }
    }

    const variants = {} as Record<VariantName, VariantFigures>;
    for (const n of names) {
      const t = totals[n];
      const per = (micros: number) => (t.ok ? micros / t.ok : NaN);
      variants[n] = {
        requests: t.ok,
        errors: t.errors,
        seconds: t.ms / 1000,
        rps: t.ok / (t.ms / 1000),
        loaded: latency(t.loaded),
        unloaded: latency(t.unloaded),
        // The proxies' process idles during direct calls; its small CPU there is timers and GC.
        proxyCpuMicrosPerRequest: n === 'direct' ? 0 : per(t.proxyCpu),
        sandboxCpuMicrosPerRequest: per(t.sandboxCpu),
        clientCpuMicrosPerRequest: per(t.clientCpu),
        connectionsPer100: {
          client: (100 * (n === 'direct' ? t.sandboxAccepted : t.proxyAccepted)) / t.ok,
          sandbox: (100 * t.sandboxAccepted) / t.ok,
        },
      };
    }
    const ratio = variants.bff.rps / variants.bare.rps;
    const failures: string[] = [];
    if (!(ratio >= MIN_BFF_TO_BARE_RATIO)) {
      failures.push(
        `BFF throughput is ${ratio.toFixed(2)} x the bare proxy, under the budget of ${MIN_BFF_TO_BARE_RATIO}`,
      );
    }
    const overBare = variants.bff.unloaded.p50Ms - variants.bare.unloaded.p50Ms;
    if (opts.upstream === 'fast' && !(overBare <= MAX_BFF_ADDED_P50_MS)) {
      failures.push(
        `the BFF adds ${overBare.toFixed(2)} ms to an unloaded call's p50 over the bare proxy, over the budget of ${MAX_BFF_ADDED_P50_MS} ms`,
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
      bffToBareCpuRatio:
        variants.bare.proxyCpuMicrosPerRequest / variants.bff.proxyCpuMicrosPerRequest,
      bffAddedLatencyMs: added(variants, 'bff'),
      bareAddedLatencyMs: added(variants, 'bare'),
      bffOverBareP50Ms: overBare,
      budgets: { minBffToBareRatio: MIN_BFF_TO_BARE_RATIO, maxBffAddedP50Ms: MAX_BFF_ADDED_P50_MS },
      failures,
    };
  } finally {
    await proxies?.proc.stop();
    await fast?.proc.stop();
    await sandbox.proc.stop();
  }
}

export function printProxy(r: ProxyReport) {
  const o = r.options;
  console.log(
    `\nProxy throughput: GET ${r.endpoint} of ${o.upstream === 'fast' ? 'a fast in-memory upstream' : 'the sandbox'}; under load ${o.concurrency} in flight on keep-alive ` +
      `connections, ${o.rounds} x ${o.durationMs / 1000} s per variant; unloaded 1 in flight, ` +
      `${o.rounds} x ${o.latencyDurationMs / 1000} s; variants alternated`,
  );
  const line = (cells: string[]) =>
    console.log(cells.map((c, i) => (i === 0 ? c.padEnd(22) : c.padStart(9))).join(''));
  line(['', '', 'loaded', 'loaded', 'unloaded', 'unloaded', '', 'CPU µs', 'per req', '']);
  line([
    '',
    'req/s',
    'p50 ms',
    'p99 ms',
    'p50 ms',
    'p99 ms',
    'errors',
    'proxy',
    'upstream',
    'client',
  ]);
  for (const [n, v] of Object.entries(r.variants) as [VariantName, VariantFigures][]) {
    line([
      VARIANTS[n],
      v.rps.toFixed(0),
      v.loaded.p50Ms.toFixed(2),
      v.loaded.p99Ms.toFixed(2),
      v.unloaded.p50Ms.toFixed(2),
      v.unloaded.p99Ms.toFixed(2),
      String(v.errors),
      n === 'direct' ? '-' : v.proxyCpuMicrosPerRequest.toFixed(0),
      v.sandboxCpuMicrosPerRequest.toFixed(0),
      v.clientCpuMicrosPerRequest.toFixed(0),
    ]);
  }
  const ms = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} ms`;
  const { bffAddedLatencyMs: bff, bareAddedLatencyMs: bare } = r;
  console.log(
    `BFF / bare proxy throughput: ${r.bffToBareRatio.toFixed(2)} (budget >= ${r.budgets.minBffToBareRatio})`,
  );
  console.log(
    `BFF over the bare proxy, unloaded p50: ${ms(r.bffOverBareP50Ms)} (budget <= +${r.budgets.maxBffAddedP50Ms.toFixed(2)} ms${o.upstream === 'fast' ? '' : ', checked with the fast upstream only'})`,
  );
  console.log(
    `BFF added latency over direct: unloaded p50 ${ms(bff.unloaded.p50)}, p99 ${ms(bff.unloaded.p99)}; ` +
      `under load p50 ${ms(bff.loaded.p50)}, p99 ${ms(bff.loaded.p99)}`,
  );
  console.log(
    `(bare proxy over direct: unloaded p50 ${ms(bare.unloaded.p50)}, p99 ${ms(bare.unloaded.p99)}; ` +
      `under load p50 ${ms(bare.loaded.p50)}, p99 ${ms(bare.loaded.p99)})`,
  );
  const conns = (n: VariantName) => {
    const c = r.variants[n].connectionsPer100;
    return n === 'direct'
      ? `${VARIANTS[n]} ${c.client.toFixed(1)}`
      : `${VARIANTS[n]} ${c.client.toFixed(1)} to it, ${c.sandbox.toFixed(1)} from it to the sandbox`;
  };
  console.log(
    `new TCP connections per 100 requests under load: ${(Object.keys(VARIANTS) as VariantName[]).map(conns).join('; ')}`,
  );
  const cpuBare = r.variants.bare.proxyCpuMicrosPerRequest;
  const cpuBff = r.variants.bff.proxyCpuMicrosPerRequest;
  console.log(
    `proxy CPU per request: BFF ${cpuBff.toFixed(0)} µs, bare ${cpuBare.toFixed(0)} µs; ` +
      `were the proxy the bottleneck, BFF / bare would be ${r.bffToBareCpuRatio.toFixed(2)}`,
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
    durationMs: num('duration', 4) * 1000,
    rounds: Math.round(num('rounds', 3)),
    concurrency: Math.round(num('concurrency', 32)),
    warmupMs: num('warmup', 2) * 1000,
    latencyDurationMs: num('latency-duration', 2) * 1000,
    upstream: argv.includes('--upstream=sandbox') ? 'sandbox' : 'fast',
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
    console.error(
      `CPU profile of the proxies' process in ${report.options.profileDir}; summarise it with ` +
        'npx tsx bench/lib/profile-summary.ts <file> [requests]',
    );
  }
  checkBudgets(argv, report.failures);
}

runWhenMain(import.meta.url, main);
