/**
 * `npm run seed:invoices -- --count 1000000 [--workspace demo]`: grows a workspace's invoices to
 * the given count with copies of its computed ones and their items (bulk inserts, numbered on),
 * for trying the invoice list and measuring it at scale (bench/invoice-list.ts). Off unless run:
 * the start-up seed makes the demo's invoices only.
 *
 * The database is the product's: `DATABASE_URL` when set, else the embedded PGlite database in
 * `DATA_DIR` (default `./data`). The demo world must exist, so start the product once first; and
 * stop it while this runs against PGlite, which one process at a time may open.
 */
import { growInvoices } from '#server/sandbox/services/billing/seed-invoices.ts';
import { runGrowCommand } from './lib/grow-command.ts';

runGrowCommand({
  script: 'seed:invoices',
  rows: 'invoices',
  progressRows: 'invoices',
  progressEveryMs: 0,
  grow: growInvoices,
});
