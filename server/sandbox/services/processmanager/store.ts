import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { Logger } from 'pino';
import type { Clock } from '#common/clock.ts';
import type { DomainEvent } from '#server/sandbox/platform/domain-events.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { WorkflowRuntime } from './engine.ts';
import { parseBpmn } from './bpmn.ts';

/** The runtime of each sandbox, by its database: routers are built before they ask for it. */
const runtimes = new WeakMap<Db, WorkflowRuntime>();

export function runtimeOf(db: Db): WorkflowRuntime {
  const runtime = runtimes.get(db);
  if (!runtime) throw new HttpError(503, 'unavailable', 'the workflow engine is not running');
  return runtime;
}

export function openRuntime(db: Db, clock: Clock, logger: Logger): WorkflowRuntime {
  const runtime = new WorkflowRuntime(db, clock, logger.child({ job: 'workflows' }));
  runtimes.set(db, runtime);
  return runtime;
}

export function closeRuntime(db: Db): void {
  runtimes.get(db)?.stop();
  runtimes.delete(db);
}

/** A new workflow with its first version; the BPMN is checked before anything is saved. */
export async function createWorkflow(
  db: Db,
  input: { tenantId: number; name: string; code?: string; definition: string; by: string },
): Promise<number> {
  await parseBpmn(input.definition);
  return db.transaction(async (tx) => {
    const [wf] = await tx.query<{ id: number }>(
      `INSERT INTO workflows (tenant_id, code, name, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $4) RETURNING id`,
      [input.tenantId, input.code ?? newCode('wfl'), input.name, input.by],
    );
    await addVersion(tx, input.tenantId, wf!.id, input.definition, input.by);
    return wf!.id;
  });
}

/** The workflow's next version (checked by the caller). */
export async function addVersion(
  tx: Queryable,
  tenantId: number,
  workflowId: number,
  definition: string,
  by: string,
): Promise<{ id: number; version_number: number }> {
  const [version] = await tx.query<{ id: number; version_number: number }>(
    `INSERT INTO workflow_versions (tenant_id, workflow_id, code, version_number, definition,
            created_by, updated_by)
     SELECT $1, $2, $3, coalesce(max(version_number), 0) + 1, $4, $5, $5
       FROM workflow_versions WHERE workflow_id = $2
     RETURNING id, version_number`,
    [tenantId, workflowId, newCode('wfv'), definition, by],
  );
  return version!;
}

/**
 * A domain event starts the latest version of every workflow defined for it in the event's
 * workspace, with the record's code as entityCode and the event's data as variables.
 */
export async function startFromEvent(
  db: Db,
  runtime: WorkflowRuntime,
  event: DomainEvent,
): Promise<string[]> {
  const versions = await db.query<{ id: number }>(
    `SELECT (SELECT v.id FROM workflow_versions v WHERE v.workflow_id = s.workflow_id
              ORDER BY v.version_number DESC LIMIT 1) AS id
       FROM service_events s WHERE s.tenant_id = $1 AND s.event_type = $2 ORDER BY s.id`,
    [event.tenantId, event.type],
  );
  const codes: string[] = [];
  for (const { id } of versions) {
    codes.push(
      await runtime.start({
        tenantId: event.tenantId,
        workflowVersionId: id,
        entityCode: event.entityCode,
        variables: { ...event.data, entityCode: event.entityCode, eventType: event.type },
        by: event.by,
      }),
    );
  }
  return codes;
}
