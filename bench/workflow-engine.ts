/**
 * The workflow engine's throughput (issue 17): instances of the claim-intake workflow started
 * and completed per second, started the way production starts them, by domain events.
 *
 * Method: the sandbox alone (in this process, `startTestSandbox`: the demo world seeded on a
 * fresh PGlite directory, no BFF, whose proxy cost bench/proxy-throughput.ts measures) signs in
 * as admin@demo.test and creates `--claims` claims (default 200) through
 * `POST /claimservice/v1/claims`, `--concurrency` (default 4) at a time, each with an estimated
 * damage of 500 EUR. Each claim's `claim.created` event starts the latest claim-intake version:
 * the claim-routing decision table (FEEL, DMN) says fast-track, two claim.setStatus service tasks
 * move the claim to in review and approved, the end event completes it, the engine's state saved
 * after every step. The clock runs from the first request until the database shows every one of
 * those instances completed (polled every 20 ms). Before that, a baseline: the same number of
 * claims with the claim.created binding removed (no workflow starts), so that the claim API's
 * own cost is known. Prints instances completed per second over the measured span, the claims/s
 * of both runs, what the engine adds per instance ((span - baseline) / claims; on one process
 * and one PGlite connection the engine and the claim API share the CPU), and each instance's
 * start-to-end time on the sandbox clock (median, min, max).
 *
 * Usage: npx tsx bench/workflow-engine.ts [--json] [--claims=200] [--concurrency=4]
 */
import { api, login, makeTempDir, startTestSandbox } from '#server/sandbox/testing.ts';
import { numberFlag, runWhenMain } from './lib/cli.ts';
import { median } from './lib/timing.ts';

export interface WorkflowEngineOptions {
  claims: number;
  concurrency: number;
}

export interface WorkflowEngineReport {
  options: WorkflowEngineOptions;
  completed: number;
  /** From the first claim request until the last instance completed. */
  totalSeconds: number;
  instancesPerSecond: number;
  /** Creating the claims (the API's answers, the engine running beside), and its rate. */
  createSeconds: number;
  claimsPerSecond: number;
  /** The same number of claims with no workflow bound: the claim API alone. */
  baselineSeconds: number;
  baselineClaimsPerSecond: number;
  /** What the engine added per instance: (total - baseline) / claims. */
  engineMsPerInstance: number;
  instanceMs: { median: number; min: number; max: number };
  failures: string[];
}

export async function measureWorkflowEngine(
  opts: WorkflowEngineOptions,
): Promise<WorkflowEngineReport> {
  const dir = await makeTempDir();
  const sandbox = await startTestSandbox(dir.dir);
  try {
    const base = sandbox.url;
    const { accessToken: token } = await login(base, 'admin@demo.test');
    const policy = (
      await api(base, '/insuranceservice/v1/policies?pageSize=1&order=id:ASC', { token })
    ).body.items[0];
    const damageDate = new Date(Date.parse(policy.policyStartDate) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    const failures: string[] = [];
    let codes: string[] = [];
    const createClaim = async (n: number) => {
      const res = await api(base, '/claimservice/v1/claims', {
        token,
        body: {
          policyCode: policy.code,
          title: `Bench claim ${n}`,
          description: 'Measured by bench/workflow-engine.ts.',
          damageDate,
          claimType: 'damage',
          customFields: { damageLocation: 'Berlin', estimatedDamage: 500 },
        },
      });
      if (res.status !== 201)
        throw new Error(`claim ${n}: ${res.status} ${JSON.stringify(res.body)}`);
      codes.push(res.body.claim.code);
    };

    const createAll = async (from: number) => {
      let next = from;
      await Promise.all(
        Array.from({ length: opts.concurrency }, async () => {
          while (next < from + opts.claims) await createClaim(next++);
        }),
      );
    };

    // The baseline: the same claims with no workflow bound to claim.created, so that the claim
    // API's own cost can be told from the engine's.
    const bindings = await sandbox.db.query<{ id: number }>(
      `DELETE FROM service_events WHERE event_type = 'claim.created'
          AND tenant_id = (SELECT id FROM tenants WHERE slug = 'demo')
        RETURNING workflow_id AS id`,
    );
    const baselineStarted = performance.now();
    await createAll(0);
    const baselineSeconds = (performance.now() - baselineStarted) / 1000;
    await sandbox.db.query(
      `INSERT INTO service_events (tenant_id, event_type, workflow_id, created_by, updated_by)
       SELECT t.id, 'claim.created', w, 'bench', 'bench'
         FROM tenants t, unnest($1::int[]) AS w WHERE t.slug = 'demo'`,
      [bindings.map((b) => b.id)],
    );
    codes = [];

    const started = performance.now();
    await createAll(opts.claims);
    const createSeconds = (performance.now() - started) / 1000;

    const completedCount = async () =>
      (
        await sandbox.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM workflow_instances i JOIN workflows w ON w.id = i.workflow_id
            WHERE w.code = 'claim-intake' AND i.status = 'completed' AND i.entity_code = ANY($1)`,
          [codes],
        )
      )[0]!.n;
    const deadline = Date.now() + 10 * 60_000;
    let completed = 0;
    while ((completed = await completedCount()) < opts.claims && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const totalSeconds = (performance.now() - started) / 1000;
    if (completed < opts.claims)
      failures.push(`${opts.claims - completed} instances did not complete`);

    const durations = (
      await sandbox.db.query<{ ms: number }>(
        `SELECT extract(epoch FROM (i.updated_at - i.created_at)) * 1000 AS ms
           FROM workflow_instances i WHERE i.entity_code = ANY($1) AND i.status = 'completed'`,
        [codes],
      )
    ).map((r) => Number(r.ms));
    return {
      options: opts,
      completed,
      totalSeconds,
      instancesPerSecond: completed / totalSeconds,
      createSeconds,
      claimsPerSecond: opts.claims / createSeconds,
      baselineSeconds,
      baselineClaimsPerSecond: opts.claims / baselineSeconds,
      engineMsPerInstance: ((totalSeconds - baselineSeconds) * 1000) / opts.claims,
      instanceMs: durations.length
        ? { median: median(durations), min: Math.min(...durations), max: Math.max(...durations) }
        : { median: 0, min: 0, max: 0 },
      failures,
    };
  } finally {
    await sandbox.close();
    await dir.remove();
  }
}

export function printWorkflowEngine(r: WorkflowEngineReport) {
  console.log(
    `\nWorkflow engine: claim intake started by claim.created, ${r.options.claims} claims, ${r.options.concurrency} at a time`,
  );
  console.log(
    `  ${r.completed} instances started and completed in ${r.totalSeconds.toFixed(2)} s: ` +
      `${r.instancesPerSecond.toFixed(1)} instances/s`,
  );
  console.log(
    `  the claim API's answers meanwhile: ${r.createSeconds.toFixed(2)} s (${r.claimsPerSecond.toFixed(1)} claims/s)`,
  );
  console.log(
    `  baseline, no workflow bound: ${r.baselineSeconds.toFixed(2)} s (${r.baselineClaimsPerSecond.toFixed(1)} claims/s); ` +
      `the engine adds ${r.engineMsPerInstance.toFixed(1)} ms per instance`,
  );
  console.log(
    `  one instance, start to end: median ${r.instanceMs.median.toFixed(1)} ms, ` +
      `min ${r.instanceMs.min.toFixed(1)}, max ${r.instanceMs.max.toFixed(1)}`,
  );
}

export function parseWorkflowEngineArgs(argv: string[]): WorkflowEngineOptions {
  return {
    claims: Math.round(numberFlag(argv, 'claims', 200)),
    concurrency: Math.round(numberFlag(argv, 'concurrency', 4)),
  };
}

async function main() {
  const argv = process.argv.slice(2);
  const report = await measureWorkflowEngine(parseWorkflowEngineArgs(argv));
  if (argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
  else printWorkflowEngine(report);
  if (report.failures.length) {
    for (const f of report.failures) console.error(`FAILED: ${f}`);
    process.exit(1);
  }
}

runWhenMain(import.meta.url, main);
