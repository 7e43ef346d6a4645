import type { Db } from '#server/sandbox/platform/db.ts';

/**
 * Grows a workspace's workflow instances to `target` for the monitor benchmark
 * (`npm run seed:workflow-instances`, bench/workflow-monitor.ts): copies of the workspace's
 * finished instances (completed, failed, cancelled), written by one INSERT ... SELECT over
 * generate_series per chunk, not by running the engine 50 000 times. Never active ones: every
 * active instance resumes when the sandbox starts, and 50 000 of them would be a start-up load,
 * not a list. The copies keep their template's variables, history and error but not its engine
 * state, so a retry of a copied failed instance runs its version from the start.
 * Created between the newest instance and now, numbered on (`wfi_g<n>`), in chunks of their own
 * transactions; the planner statistics are refreshed at the end.
 */

const GROW_CHUNK = 10_000;
const MINUTE_MS = 60_000;

export async function growWorkflowInstances(
  db: Db,
  slug: string,
  target: number,
  progress: (total: number) => void = () => {},
): Promise<{ before: number; after: number }> {
  const [tenant] = await db.query<{ id: number }>('SELECT id FROM tenants WHERE slug = $1', [slug]);
  if (!tenant) throw new Error(`no workspace "${slug}" in this database`);
  const [stats] = await db.query<{ count: number; newest: Date | null; templates: number }>(
    `SELECT count(*)::int AS count, max(created_at) AS newest,
            count(*) FILTER (WHERE status <> 'active')::int AS templates
       FROM workflow_instances WHERE tenant_id = $1`,
    [tenant.id],
  );
  const before = stats!.count;
  const toAdd = target - before;
  if (toAdd <= 0) return { before, after: before };
  if (!stats!.templates)
    throw new Error(`workspace "${slug}" has no finished workflow instance to copy yet`);
  const now = Date.now();
  const newestMs = stats!.newest ? new Date(stats!.newest).getTime() : now;
  const stepMs = Math.max(1, Math.floor(Math.max(MINUTE_MS, now - newestMs) / toAdd));
  let added = 0;
  while (added < toAdd) {
    const count = Math.min(GROW_CHUNK, toAdd - added);
    const offset = added;
    await db.transaction(async (tx) => {
      await tx.query(
        `WITH template AS (
           SELECT row_number() OVER (ORDER BY id) - 1 AS k, workflow_id, workflow_version_id,
                  entity_code, status, variables, history, error, created_by
             FROM workflow_instances WHERE tenant_id = $1 AND status <> 'active'
              AND code NOT LIKE 'wfi_g%'),
         total AS (SELECT count(*) AS n FROM template),
         base AS (SELECT coalesce(max(id), 0) AS id FROM workflow_instances)
         INSERT INTO workflow_instances (tenant_id, code, workflow_id, workflow_version_id,
                entity_code, status, variables, history, error, created_at, updated_at,
                created_by, updated_by)
         SELECT $1, 'wfi_g' || (base.id + g), t.workflow_id, t.workflow_version_id, t.entity_code,
                t.status, t.variables, t.history, t.error,
                to_timestamp(($2::bigint + ($3::bigint + g) * $4::bigint) / 1000.0),
                to_timestamp(($2::bigint + ($3::bigint + g) * $4::bigint) / 1000.0),
                t.created_by, t.created_by
           FROM generate_series(1, $5::int) AS g
           CROSS JOIN base CROSS JOIN total
           JOIN template t ON t.k = g % total.n`,
        [tenant.id, newestMs, offset, stepMs, count],
      );
    });
    added += count;
    progress(before + added);
  }
  await db.query('ANALYZE workflow_instances');
  return { before, after: before + added };
}
