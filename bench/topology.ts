/**
 * The long load and fault run on the scale-out topology (npm run bench:topology): nginx, two
 * BFF processes, the standalone sandbox on PostgreSQL, Redis. Many sessions of mixed reads and
 * writes with short tokens while one BFF is restarted, Redis goes away and the upstream hangs;
 * then every write is checked against the sandbox. Prints figures; exits 1 when an invariant
 * (nobody signed out, no acknowledged write lost, no refused write applied, no process died)
 * is broken. bench/README.md, "topology.ts", has the method.
 *
 * Usage: npx tsx bench/topology.ts [--sessions=200] [--seconds=180] [--token-ttl=20]
 *        [--redis-away=15] [--hang=10] [--json]
 */
import { randomBytes } from 'node:crypto';
import { checkWrites, percentile, runLoad, signIn } from '#tests/support/load.ts';
import { startTopology, type Topology } from '#tests/support/topology.ts';
import { numberFlag } from './lib/cli.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const argv = process.argv.slice(2);
  const sessions = numberFlag(argv, 'sessions', 200);
  const seconds = numberFlag(argv, 'seconds', 180);
  const tokenTtl = numberFlag(argv, 'token-ttl', 20);
  const redisAway = numberFlag(argv, 'redis-away', 15);
  const hang = numberFlag(argv, 'hang', 10);
  const json = argv.includes('--json');
  const say = (line: string) => {
    if (!json) console.log(line);
  };

  say(`Starting nginx, 2 BFFs, the sandbox (PostgreSQL), Redis relay...`);
  // A short upstream timeout, so that the hang shows as answers (504) within the run.
  const topo = await startTopology({
    instances: 2,
    tokenTtlSeconds: tokenTtl,
    bffEnv: { UPSTREAM_TIMEOUT: '5' },
  });
  try {
    say(`Signing in ${sessions} sessions...`);
    const clients = await signIn(topo.url, sessions);

    // The faults at fixed shares of the run, whatever the restart takes: a rolling restart at
    // 15 %, Redis away at 40 %, the upstream hanging at 70 %. Each allows its error answers
    // until 5 s (the hang: 15 s) after it ends.
    const allowed = new Map<string, { statuses: number[]; until: number }>();
    const allow = (name: string, statuses: number[], until: number) =>
      allowed.set(name, { statuses, until });
    const events: string[] = [];
    const started = Date.now();
    const at = (share: number) => sleep(Math.max(0, started + seconds * 1000 * share - Date.now()));
    const t = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const restart = (async () => {
      await at(0.15);
      events.push(`${t()} SIGTERM to BFF 1`);
      const code = await topo.restartBff(1);
      events.push(`${t()} BFF 1 exited with ${code} and is back`);
      return code;
    })();
    const fault = async (
      share: number,
      name: string,
      statuses: number[],
      afterMs: number,
      relay: Topology['redis'],
      mode: 'cut' | 'stall',
      forS: number,
    ) => {
      await at(share);
      events.push(`${t()} ${name} for ${forS} s`);
      allow(name, statuses, Infinity);
      relay[mode]();
      await sleep(forS * 1000);
      relay.restore();
      allow(name, statuses, Date.now() + afterMs);
      events.push(`${t()} ${name}: over`);
    };
    const faults = Promise.all([
      fault(0.4, 'Redis away', [503], 5_000, topo.redis, 'cut', redisAway),
      // Calls queued behind the hang still run into UPSTREAM_TIMEOUT (5 s) after it ends.
      fault(0.7, 'upstream hanging', [502, 503, 504], 15_000, topo.upstream, 'stall', hang),
    ]);

    const report = await runLoad(clients, {
      base: topo.url,
      sessions,
      durationMs: seconds * 1000,
      runId: `bench_${randomBytes(4).toString('hex')}`,
      pauseMs: 500,
      allowedNow: () =>
        [...allowed.values()].filter((a) => a.until > Date.now()).flatMap((a) => a.statuses),
    });
    await faults;
    const restartExit = await restart;
    const writes = await checkWrites(topo.sandboxUrl, report.writes);
    const deaths = topo.deaths();
    const figures = {
      sessions,
      seconds,
      tokenTtlSeconds: tokenTtl,
      requests: report.requests,
      p50Ms: Math.round(percentile(report.latenciesMs, 50)),
      p99Ms: Math.round(percentile(report.latenciesMs, 99)),
      maxMs: Math.round(percentile(report.latenciesMs, 100)),
      allowedErrorsDuringFaults: report.refusals,
      resentAfterClosedConnection: report.resent,
      unexpectedAnswers: report.unexpected.length,
      signedOut: report.signedOut.length,
      writesAcknowledged: writes.acknowledged,
      writesRefused: writes.refused,
      writesUnknown: writes.unknown,
      acknowledgedLost: writes.lost.length,
      refusedApplied: writes.appliedRefused.length,
      unknownApplied: writes.appliedUnknown,
      leakedAcrossTenants: writes.leaked.length,
      restartExitCode: restartExit,
      processesDied: deaths.length,
    };
    const broken = [
      figures.signedOut && 'sessions signed out',
      figures.acknowledgedLost && 'acknowledged writes lost',
      figures.refusedApplied && 'refused writes applied',
      figures.leakedAcrossTenants && 'writes visible in another tenant',
      figures.processesDied && 'a process died',
      restartExit !== 0 && 'the restarted BFF did not exit 0 on SIGTERM',
    ].filter(Boolean);
    if (json) {
      console.log(JSON.stringify({ ...figures, events, broken }, null, 2));
    } else {
      for (const e of events) say(`  ${e}`);
      say('');
      for (const [k, v] of Object.entries(figures)) say(`  ${k.padEnd(28)} ${v}`);
      const show = (title: string, items: string[]) => {
        if (items.length)
          say(`\n${title} (first 10 of ${items.length}):\n  ${items.slice(0, 10).join('\n  ')}`);
      };
      show('Unexpected answers', report.unexpected);
      show('Signed out', report.signedOut);
      show('Acknowledged writes lost', writes.lost);
      show('Refused writes applied', writes.appliedRefused);
      show('Processes that died', deaths);
      if (broken.length) {
        // What the processes logged (warnings and errors) explains most broken runs.
        for (const [name, out] of Object.entries(topo.logs())) {
          const tail = out.trim().split('\n').slice(-15);
          if (out.trim()) say(`\nLast lines of ${name}:\n  ${tail.join('\n  ')}`);
        }
      }
      say(broken.length ? `\nBROKEN: ${broken.join(', ')}` : '\nAll invariants held.');
    }
    process.exitCode = broken.length ? 1 : 0;
  } finally {
    await topo.stop();
  }
}

await main();
