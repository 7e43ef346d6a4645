/**
 * Where the BFF spends its time per proxied request: the proxy path rebuilt layer by layer from
 * the BFF's own parts (bare Node proxy, http-proxy-middleware, + Express, + the BFF's apiProxy
 * with its session lookup, the whole BFF app), each measured as CPU µs per request of the
 * process that holds them, in front of the same fast upstream (`--upstream=sandbox`: the sandbox
 * itself). Diagnostic, no budget.
 * Usage: npx tsx bench/proxy-breakdown.ts [--json] [--duration=3] [--rounds=2] [--concurrency=32]
 *        [--upstream=sandbox]
 */
import { Agent as SessionAgent } from '#tests/support/stack.ts';
import {
  assertSameAnswers,
  bearerFromSandbox,
  keepAliveAgent,
  load,
  PASSWORD,
  ServerProcess,
  statsDelta,
  USER,
  type Target,
} from './lib/load.ts';

const ENDPOINT = '/tenantservice/v1/general';

/** Each layer and the one it is compared with (the difference is what it adds). */
const LAYERS = {
  bare: { label: 'bare Node proxy (http.request, keep-alive)', base: null },
  hpm: { label: 'http-proxy-middleware as the BFF sets it', base: 'bare' },
  hpmKeepAlive: { label: '  same, with a keep-alive agent', base: 'hpm' },
  hpmKeepAliveLean: { label: '  same, default plugins ejected', base: 'hpmKeepAlive' },
  expressHpm: { label: 'Express + http-proxy-middleware', base: 'hpm' },
  expressApiProxy: { label: "Express + the BFF's apiProxy (session)", base: 'expressHpm' },
  expressHelmetApiProxy: { label: '  + helmet (defaults) before it', base: 'expressApiProxy' },
  bffExpress: { label: 'the whole BFF app, all through Express', base: 'expressHelmetApiProxy' },
  bff: { label: 'the whole BFF as served (lean /api path)', base: 'bffExpress' },
} as const;
type Layer = keyof typeof LAYERS;

function option(argv: string[], name: string, fallback: number) {
  const a = argv.find((x) => x.startsWith(`--${name}=`));
  const v = a ? Number(a.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

async function main() {
  const argv = process.argv.slice(2);
  const durationMs = option(argv, 'duration', 3) * 1000;
  const rounds = Math.round(option(argv, 'rounds', 2));
  const concurrency = Math.round(option(argv, 'concurrency', 32));

  const sandbox = await ServerProcess.start(['sandbox']);
  let layers: Awaited<ReturnType<typeof ServerProcess.start>> | undefined;
  let fast: Awaited<ReturnType<typeof ServerProcess.start>> | undefined;
  try {
    const sandboxUrl = sandbox.urls.sandbox!;
    const bearer = await bearerFromSandbox(sandboxUrl);
    // In front of a fast upstream (the endpoint's answer from memory), as the throughput bench:
    // behind the sandbox, PGlite's time per call would hide what each layer costs.
    fast = argv.includes('--upstream=sandbox')
      ? undefined
      : await ServerProcess.start(['fast', sandboxUrl, bearer, ENDPOINT]);
    const upstreamUrl = fast?.urls.fast ?? sandboxUrl;
    layers = await ServerProcess.start(['layers', upstreamUrl, bearer]);
    const session = new SessionAgent(layers.urls.bff!);
    const login = await session.login(USER, PASSWORD);
    if (login.status !== 200 || !session.cookie) throw new Error(`sign-in failed: ${login.status}`);

    const names = Object.keys(LAYERS) as Layer[];
    const targets = Object.fromEntries(
      names.map((n) => {
        const signedIn =
          n === 'expressApiProxy' ||
          n === 'expressHelmetApiProxy' ||
          n === 'bffExpress' ||
          n === 'bff';
        const path = signedIn ? `/api/0${ENDPOINT}` : ENDPOINT;
        const headers: Record<string, string> = signedIn ? { cookie: session.cookie } : {};
        return [n, { url: new URL(layers!.urls[n] + path), headers }];
      }),
    ) as Record<Layer, Target>;
    await assertSameAnswers(targets);

    const totals = Object.fromEntries(
      names.map((n) => [
        n,
        { ok: 0, errors: 0, ms: 0, cpu: 0, sandboxCpu: 0, accepted: 0, upstream: 0 },
      ]),
    );
    for (const n of names) {
      const agent = keepAliveAgent(concurrency);
      await load(targets[n], concurrency, 1500, agent);
      agent.destroy();
    }
    for (let round = 0; round < rounds; round++) {
      for (const n of names) {
        const agent = keepAliveAgent(concurrency);
        await load(targets[n], concurrency, 300, agent);
        const upstream = (fast ?? sandbox).proc;
        const [c0, s0] = await Promise.all([layers.proc.stats(), upstream.stats()]);
        const r = await load(targets[n], concurrency, durationMs, agent);
        const [c1, s1] = await Promise.all([layers.proc.stats(), upstream.stats()]);
        const c = statsDelta(c0, c1);
        const sb = statsDelta(s0, s1);
        agent.destroy();
        const t = totals[n]!;
        t.ok += r.ok;
        t.errors += r.errors;
        t.ms += r.elapsedMs;
        t.cpu += c.cpuMicros;
        t.sandboxCpu += sb.cpuMicros;
        t.accepted += c.accepted;
        t.upstream += sb.accepted;
      }
    }
    const micro = await layers.proc.micro(session.cookie);

    const figures = names.map((n) => {
      const t = totals[n]!;
      return {
        layer: n,
        label: LAYERS[n].label,
        base: LAYERS[n].base,
        rps: t.ok / (t.ms / 1000),
        cpuMicrosPerRequest: t.cpu / t.ok,
        sandboxCpuMicrosPerRequest: t.sandboxCpu / t.ok,
        // New TCP connections per 100 requests: client to layer, and layer to sandbox.
        connectionsPer100: { in: (100 * t.accepted) / t.ok, out: (100 * t.upstream) / t.ok },
        errors: t.errors,
      };
    });
    if (argv.includes('--json')) {
      console.log(JSON.stringify({ endpoint: ENDPOINT, concurrency, figures, micro }, null, 2));
      return;
    }
    console.log(
      `\nBFF proxy path, layer by layer: GET ${ENDPOINT}, ${concurrency} in flight, ` +
        `${rounds} x ${durationMs / 1000} s per layer (alternated)`,
    );
    const byName = Object.fromEntries(figures.map((f) => [f.layer, f]));
    const bare = byName.bare!.cpuMicrosPerRequest;
    console.log(
      ''.padEnd(42) +
        ['req/s', 'CPU µs/req', 'x bare', 'adds', 'sandbox µs', 'conns in', 'conns out']
          .map((h) => h.padStart(11))
          .join(''),
    );
    for (const f of figures) {
      const base = f.base ? byName[f.base] : undefined;
      const delta = base ? f.cpuMicrosPerRequest - base.cpuMicrosPerRequest : NaN;
      console.log(
        f.label.padEnd(42) +
          [
            f.rps.toFixed(0),
            f.cpuMicrosPerRequest.toFixed(0),
            (f.cpuMicrosPerRequest / bare).toFixed(2),
            base ? `${delta >= 0 ? '+' : ''}${delta.toFixed(0)}` : '',
            f.sandboxCpuMicrosPerRequest.toFixed(0),
            f.connectionsPer100.in.toFixed(1),
            f.connectionsPer100.out.toFixed(1),
          ]
            .map((c) => c.padStart(11))
            .join('') +
          (f.errors ? `  (${f.errors} errors)` : ''),
      );
    }
    console.log(
      '(CPU µs/req: of the process holding the layers; adds: over the line it builds on; ' +
        "sandbox µs: the upstream's CPU per request; conns in / out: new TCP connections per 100 " +
        'requests, from the client to the layer and from the layer to the sandbox)',
    );
    console.log('session work per call, timed in a loop inside the same process:');
    for (const [k, v] of Object.entries(micro)) {
      console.log(`  ${k.padEnd(26)} ${k.endsWith('Bytes') ? `${v} bytes` : `${v.toFixed(1)} µs`}`);
    }
  } finally {
    await layers?.proc.stop();
    await fast?.proc.stop();
    await sandbox.proc.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
