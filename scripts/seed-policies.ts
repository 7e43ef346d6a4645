/**
 * `npm run seed:policies -- --count 100000 [--workspace demo]`: grows a workspace's policies to
 * the given count with the demo seed's generator (bulk inserts, numbered on), for trying the
 * lists and measuring them at scale (bench/policy-list.ts).
 *
 * The database is the product's: `DATABASE_URL` when set, else the embedded PGlite database in
 * `DATA_DIR` (default `./data`). The demo world must exist, so start the product once first; and
 * stop it while this runs against PGlite, which one process at a time may open.
 */
import { growPolicies } from '#server/sandbox/services/insurance/seed-policies.ts';
import { runGrowCommand } from './lib/grow-command.ts';

runGrowCommand({
  script: 'seed:policies',
  rows: 'policies',
  progressRows: 'policies',
  progressEveryMs: 5000,
  grow: growPolicies,
});
