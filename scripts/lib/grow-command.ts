import { parseArgs } from 'node:util';
import { migrate, openPglite, openPostgres, type Db } from '#server/sandbox/platform/db.ts';
import { migrationFiles } from '#server/sandbox/services/registry.ts';

/** How a seed command grows one kind of row of a workspace to a count. */
export interface GrowCommand {
  /** The npm script, for the usage line (`seed:policies`). */
  script: string;
  /** The rows as the summary names them (`policies`, `workflow instances`). */
  rows: string;
  /** The rows as a progress line names them. */
  progressRows: string;
  /** At most one progress line this often (ms); 0: one a chunk. */
  progressEveryMs: number;
  grow(
    db: Db,
    workspace: string,
    count: number,
    progress: (total: number) => void,
  ): Promise<{ before: number; after: number }>;
}

/**
 * A seed command's run: `--count <n> [--workspace <slug>]` read and checked, the product's
 * database (`DATABASE_URL` when set, else the embedded PGlite database in `DATA_DIR`, default
 * `./data`) migrated and grown, with progress and a summary line; errors end the process with
 * their message.
 */
export function runGrowCommand(command: GrowCommand): void {
  main(command, process.argv.slice(2), process.env).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

async function main(command: GrowCommand, argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const usage = `usage: npm run ${command.script} -- --count <n> [--workspace <slug>]`;
  const { values } = parseArgs({
    args: argv,
    options: { count: { type: 'string' }, workspace: { type: 'string', default: 'demo' } },
  });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 10_000_000) {
    throw new Error(`--count must be a whole number from 1 to 10 000 000\n${usage}`);
  }
  const where = env.DATABASE_URL ? 'DATABASE_URL' : `PGlite in ${env.DATA_DIR ?? './data'}`;
  const db = env.DATABASE_URL
    ? openPostgres(env.DATABASE_URL)
    : await openPglite(env.DATA_DIR ?? './data');
  try {
    await migrate(db, migrationFiles());
    const started = performance.now();
    let last = started;
    const result = await command.grow(db, values.workspace, count, (total) => {
      const now = performance.now();
      // One line every few seconds where chunks are many, not one per chunk.
      if (now - last >= command.progressEveryMs) {
        console.log(`  ${total} ${command.progressRows}`);
        last = now;
      }
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const { rows } = command;
    console.log(
      result.after === result.before
        ? `${values.workspace} has ${result.before} ${rows} already (${where}); nothing to add`
        : `${values.workspace}: ${result.before} -> ${result.after} ${rows} in ${seconds} s (${where})`,
    );
  } finally {
    await db.close();
  }
}
