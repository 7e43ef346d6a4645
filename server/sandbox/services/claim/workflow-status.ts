import type { Queryable } from '#server/sandbox/platform/db.ts';
import { claimWorkflow } from './claim-workflow.ts';

/**
 * A claim's status set by a workflow's task (the process manager): the same transition rules a
 * clerk's move obeys, a new version so that a clerk's edit based on the old one is a conflict.
 * Throws a plain Error: the task fails and the instance keeps the message.
 */
export async function setClaimStatusByWorkflow(
  db: Queryable,
  tenantId: number,
  code: string,
  status: string,
  by: string,
): Promise<void> {
  const [claim] = await db.query<{ id: number; status: string }>(
    'SELECT id, status FROM claims WHERE tenant_id = $1 AND code = $2',
    [tenantId, code],
  );
  if (!claim) throw new Error(`claim ${code} does not exist`);
  await claimWorkflow.checkMove(db, tenantId, claim.status, status, {
    unknown: (to) => new Error(`unknown claim status ${to}`),
    illegal: (from, to) => new Error(`a claim in status "${from}" cannot move to "${to}"`),
  });
  if (claim.status === status) return;
  await db.query(
    `UPDATE claims SET status = $3, version = version + 1, updated_at = now(), updated_by = $4
      WHERE tenant_id = $1 AND id = $2`,
    [tenantId, claim.id, status, by],
  );
}
