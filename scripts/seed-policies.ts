/**
 * `npm run seed:policies -- --count 100000 [--workspace demo]`: grows a workspace's policies to
 * the given count with the demo seed's generator (bulk inserts, numbered on), for trying the
 * lists and measuring them at scale (bench/policy-list.ts).
 *
 * The database is the product's: `DATABASE_URL` when set, else the embedded PGlite database in
 * `DATA_DIR` (default `./data`). The demo world must exist, so start the product once first; and
 * stop it while this runs against PGlite, which one process at a time may open.
 */
import { parseArgs } from 'node:util';
import { migrate, openPglite, openPostgres } from '#server/sandbox/platform/db.ts';
import { growPolicies } from '#server/sandbox/services/insurance/seed-policies.ts';
import { migrationFiles } from '#server/sandbox/services/registry.ts';

const USAGE = 'usage: npm run seed:policies -- --count <n> [--workspace <slug>]';

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
    let last = started;
    const result = await growPolicies(db, values.workspace, count, (total) => {
      const now = performance.now();
      // One line every few seconds, not one per chunk.
      if (now - last > 5000) {
        console.log(`  ${total} policies`);
        last = now;
      }
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      result.after === result.before
        ? `${values.workspace} has ${result.before} policies already (${where}); nothing to add`
        : `${values.workspace}: ${result.before} -> ${result.after} policies in ${seconds} s (${where})`,
    );
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2), process.env).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
