/**
 * `npm run seed:workflow-instances -- --count 50000 [--workspace demo]`: grows a workspace's
 * workflow instances to the given count with copies of its finished ones (bulk inserts), for
 * trying the monitor and measuring it at scale (bench/workflow-monitor.ts). Off unless run: the
 * start-up seed makes the demo's few instances only.
 *
 * The database is the product's: `DATABASE_URL` when set, else the embedded PGlite database in
 * `DATA_DIR` (default `./data`). The demo world must exist, so start the product once first; and
 * stop it while this runs against PGlite, which one process at a time may open.
 */
import { parseArgs } from 'node:util';
import { migrate, openPglite, openPostgres } from '#server/sandbox/platform/db.ts';
import { growWorkflowInstances } from '#server/sandbox/services/processmanager/seed-instances.ts';
import { migrationFiles } from '#server/sandbox/services/registry.ts';

const USAGE = 'usage: npm run seed:workflow-instances -- --count <n> [--workspace <slug>]';

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { count: { type: 'string' }, workspace: { type: 'string', default: 'demo' } },
  });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 10_000_000) {
    throw new Error(`--count must be a whole number from 1 to 10 000 000\n${USAGE}`);
  }
  const where = env.DATABASE_URL ? 'DATABASE_URL' : `PGlite in ${env.DATA_DIR ?? './data'}`;
  const db = env.DATABASE_URL
    ? openPostgres(env.DATABASE_URL)
    : await openPglite(env.DATA_DIR ?? './data');
  try {
    await migrate(db, migrationFiles());
    const started = performance.now();
    const result = await growWorkflowInstances(db, values.workspace, count, (total) =>
      console.log(`  ${total} instances`),
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      result.after === result.before
        ? `${values.workspace} has ${result.before} workflow instances already (${where}); nothing to add`
        : `${values.workspace}: ${result.before} -> ${result.after} workflow instances in ${seconds} s (${where})`,
    );
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2), process.env).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
