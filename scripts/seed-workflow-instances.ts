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
import { growWorkflowInstances } from '#server/sandbox/services/processmanager/seed-instances.ts';
import { runGrowCommand } from './lib/grow-command.ts';

runGrowCommand({
  script: 'seed:workflow-instances',
  rows: 'workflow instances',
  progressRows: 'instances',
  progressEveryMs: 0,
  grow: growWorkflowInstances,
});
