import { Router, type Request } from 'express';
import * as v from 'valibot';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { getAuth, requireAuth, requirePermission } from '#server/sandbox/platform/auth-context.ts';
import { rawMultipart, readUploadForm } from '#server/sandbox/platform/multipart.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { audit, uniqueViolation, type Audit } from '#server/sandbox/platform/records.ts';
import {
  anyOf,
  equals,
  invalidQuery,
  listRoute,
  numeric,
  readList,
  type Filter,
  type ListSource,
} from '#server/sandbox/platform/list-sql.ts';
import { DOMAIN_EVENT_TYPES } from '#server/sandbox/platform/domain-events.ts';
import { parseBpmn } from './bpmn.ts';
import { addVersion, createWorkflow, runtimeOf } from './store.ts';
import { TASK_TYPES } from './task-registry.ts';

/**
 * The process manager's workflows, versions, instances and service events (spec section 7,
 * "Workflows and decision tables"; docs/decisions/011-workflow-engine.md). The error messages
 * are the spec's (section 8).
 */

export const can = (action: string) => requirePermission(`process-management.workflows.${action}`);

const cantLoadWorkflow = () => new HttpError(404, 'not_found', "Can't load workFlowCode");
const cantLoadVersion = () => new HttpError(404, 'not_found', "Can't load, workFlowVersionCode");
const cantLoadInstance = () => new HttpError(404, 'not_found', "Can't load instanceCode");
const cantLoadVersions = () => new HttpError(404, 'not_found', "Can't load workflowVersions");
/** A workflow's version looked up by its number (spec: a lookup that returns none fails). */
const cantLoadVersionOf = () => new HttpError(404, 'not_found', "Can't load, versionWorkFlowCode");
const cannotCancel = (status: string) =>
  new HttpError(409, 'illegal_transition', `an instance that is ${status} cannot be cancelled`);

/** A key of a path: the numeric id or the code. */
const byKey = (alias: string, key: string) =>
  /^\d{1,9}$/.test(key) ? `${alias}.id = $2::int` : `${alias}.code = $2`;

interface WorkflowRow extends Audit {
  id: number;
  code: string;
  name: string;
}

const presentWorkflow = (r: WorkflowRow) => ({ id: r.id, code: r.code, name: r.name, ...audit(r) });

interface VersionRow extends Audit {
  id: number;
  code: string;
  workflow_id: number;
  version_number: number;
  definition: string;
}

async function presentVersion(r: VersionRow, withDefinition: boolean) {
  const base = {
    id: r.id,
    code: r.code,
    workflowId: r.workflow_id,
    versionNumber: r.version_number,
    ...audit(r),
  };
  if (!withDefinition) return base;
  const parsed = await parseBpmn(r.definition);
  return { ...base, definition: r.definition, tasks: parsed.tasks, sequences: parsed.sequences };
}

export interface InstanceRow extends Audit {
  id: number;
  code: string;
  tenant_id: number;
  workflow_id: number;
  workflow_version_id: number;
  entity_code: string | null;
  status: string;
  variables: Record<string, unknown>;
  history: { key: string; type: string; event: string; at: string }[];
  error: unknown;
  timer_due_at: Date | null;
  engine_state: unknown;
  workflow_code: string;
  workflow_name: string;
  version_number: number;
  definition: string;
}

/** The spec's process status beside the instance status. */
const PROCESS_STATUS: Record<string, string> = {
  active: 'in_progress',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};
const STATUSES = new Set(Object.keys(PROCESS_STATUS));

const presentInstance = (r: InstanceRow, full = false) => ({
  id: r.id,
  code: r.code,
  workflow: { id: r.workflow_id, code: r.workflow_code, name: r.workflow_name },
  workflowVersion: { id: r.workflow_version_id, versionNumber: r.version_number },
  entityCode: r.entity_code,
  status: r.status,
  processStatus: PROCESS_STATUS[r.status] ?? r.status,
  error: r.error ?? null,
  timerDueAt: r.timer_due_at,
  ...audit(r),
  ...(full ? { variables: r.variables, history: r.history } : {}),
});

const INSTANCE_FROM = `FROM workflow_instances i
  JOIN workflows w ON w.id = i.workflow_id
  JOIN workflow_versions v ON v.id = i.workflow_version_id`;

/** One instance as its page shows it: with its variables, history and the version's diagram. */
const INSTANCE_SELECT = `SELECT i.*, w.code AS workflow_code, w.name AS workflow_name,
       v.version_number, v.definition
  ${INSTANCE_FROM}`;

/**
 * The monitor's rows: what a row shows, without the engine's saved state, the variables, the
 * history and the diagram, which a 30-row page would otherwise read and drop (kilobytes each).
 */
const INSTANCE_ROW_SELECT = `SELECT i.id, i.code, i.tenant_id, i.workflow_id, i.workflow_version_id,
       i.entity_code, i.status, i.error, i.timer_due_at,
       i.created_at, i.created_by, i.updated_at, i.updated_by,
       w.code AS workflow_code, w.name AS workflow_name, v.version_number
  ${INSTANCE_FROM}`;

/**
 * A bound of the createdAt range (spec: >= start, <= end): an ISO timestamp, or an ISO date (UTC)
 * whose whole day an end includes; else 400. The end holds at the millisecond the answers show
 * while the column keeps microseconds, so an instance's own createdAt sent back as the end finds
 * it.
 */
const createdBound = (end: boolean): Filter => ({
  where: (p) =>
    end
      ? `i.created_at < ${p}::timestamptz + interval '1 millisecond'`
      : `i.created_at >= ${p}::timestamptz`,
  value: (text) => {
    if (!text) return undefined;
    const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
    const time = Date.parse(day ? `${text}T00:00:00Z` : text);
    if ((!day && !/^\d{4}-\d{2}-\d{2}T/.test(text)) || Number.isNaN(time))
      throw invalidQuery('createdAt bounds must be ISO dates or timestamps');
    return new Date(time + (day && end ? 86_399_999 : 0)).toISOString();
  },
});

const INSTANCE_LIST: ListSource = {
  filters: {
    workflowVersionId: numeric('i.workflow_version_id', 'workflowVersionId must be a number'),
    workflowId: numeric('i.workflow_id', 'workflowId must be a number'),
    entityCode: equals('i.entity_code'),
    status: {
      ...anyOf('i.status', /^[a-z_]+$/, 'status must be a comma list of instance statuses'),
      value: (text) => {
        const values = text.split(',').map((s) => {
          const status = Object.entries(PROCESS_STATUS).find(([, p]) => p === s)?.[0] ?? s;
          if (!STATUSES.has(status))
            throw invalidQuery('status must be a comma list of instance statuses');
          return status;
        });
        return values;
      },
    },
    createdAtFrom: createdBound(false),
    createdAtTo: createdBound(true),
  },
  search: ['i.code', 'i.entity_code', 'w.name'],
  orders: { id: 'i.id', createdAt: 'i.created_at', updatedAt: 'i.updated_at' },
  defaultOrder: ['createdAt', 'DESC'],
  unique: 'i.id',
  keyset: { id: 'int', createdAt: 'timestamptz', updatedAt: 'timestamptz' },
  // The filters and the search read instances and workflow names only: the version's join
  // (one row per instance, never narrowing) is left out of the first page's count.
  countFrom: `SELECT 1 FROM workflow_instances i JOIN workflows w ON w.id = i.workflow_id`,
};

const WORKFLOW_LIST: ListSource = {
  filters: { code: equals('w.code'), name: equals('w.name') },
  search: ['w.name', 'w.code'],
  orders: {
    id: 'w.id',
    name: 'lower(w.name)',
    createdAt: 'w.created_at',
    updatedAt: 'w.updated_at',
  },
  defaultOrder: ['id', 'DESC'],
  unique: 'w.id',
  keyset: { id: 'int', name: 'text', createdAt: 'timestamptz', updatedAt: 'timestamptz' },
};

const VERSION_LIST: ListSource = {
  filters: {
    workflowId: numeric('v.workflow_id', 'workflowId must be a number'),
    workflowCode: equals('w.code'),
    versionNumber: numeric('v.version_number', 'versionNumber must be a number'),
  },
  orders: { id: 'v.id', versionNumber: 'v.version_number', createdAt: 'v.created_at' },
  defaultOrder: ['id', 'DESC'],
  unique: 'v.id',
  keyset: { id: 'int', versionNumber: 'int', createdAt: 'timestamptz' },
};

const WorkflowFields = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  code: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9_-]{1,80}$/))),
});
const WorkflowPatch = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
});
/** The version an editor's save builds on: a form field, so a text of digits. */
const BaseVersion = v.object({
  baseVersionNumber: v.pipe(v.string(), v.regex(/^[1-9]\d{0,8}$/), v.transform(Number)),
});
const ServiceEventBody = v.object({
  eventType: v.picklist(DOMAIN_EVENT_TYPES),
  workflowId: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** A user task's completion: variables to add, by names a FEEL condition can read. */
const CompleteTaskBody = v.object({
  variables: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)), v.unknown()),
      v.check((vars) => Object.keys(vars).length <= 50, 'at most 50 variables'),
      v.check((vars) => JSON.stringify(vars).length <= 20_000, 'the variables are too large'),
    ),
  ),
});

export async function findWorkflow(db: Queryable, tenantId: number, key: string) {
  const [row] = await db.query<WorkflowRow>(
    `SELECT w.* FROM workflows w WHERE w.tenant_id = $1 AND ${byKey('w', key)}`,
    [tenantId, key],
  );
  if (!row) throw cantLoadWorkflow();
  return row;
}

export async function findInstance(db: Queryable, tenantId: number, key: string) {
  const [row] = await db.query<InstanceRow>(
    `${INSTANCE_SELECT} WHERE i.tenant_id = $1 AND ${byKey('i', key)}`,
    [tenantId, key],
  );
  if (!row) throw cantLoadInstance();
  return row;
}

/** The workflow named by a version list's filter, or the spec's 404 for the list. */
async function knownWorkflow(db: Queryable, tenantId: number, key: string) {
  await findWorkflow(db, tenantId, key).catch((err: unknown) => {
    throw err instanceof HttpError && err.status === 404 ? cantLoadVersions() : err;
  });
}

async function knownVersion(
  db: Queryable,
  tenantId: number,
  of: { id: number | null; code: string | null; number: number },
) {
  const [found] = await db.query(
    `SELECT 1 FROM workflow_versions v JOIN workflows w ON w.id = v.workflow_id
      WHERE v.tenant_id = $1 AND v.version_number = $2
        AND ($3::int IS NULL OR w.id = $3::int) AND ($4::text IS NULL OR w.code = $4)`,
    [tenantId, of.number, of.id, of.code],
  );
  if (!found) throw cantLoadVersionOf();
}

async function versionsOf(db: Queryable, workflowId: number) {
  return db.query<VersionRow>(
    'SELECT * FROM workflow_versions WHERE workflow_id = $1 ORDER BY version_number',
    [workflowId],
  );
}

/** A multipart form that is a JSON body too (PATCH with a new file or just a new name). */
async function fieldsAndFile(req: Request) {
  if ((req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
    const form = await readUploadForm(req);
    return { fields: Object.fromEntries(form.fields), file: form.text };
  }
  return { fields: (req.body ?? {}) as Record<string, unknown>, file: null };
}

export function workflowRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get(
    '/workflows',
    can('view'),
    listRoute<WorkflowRow>(
      db,
      WORKFLOW_LIST,
      'SELECT w.* FROM workflows w',
      'w.tenant_id',
      (rows) => rows.map(presentWorkflow),
    ),
  );

  router.post('/workflows', can('create'), rawMultipart, async (req, res) => {
    const auth = getAuth(res);
    const form = await readUploadForm(req);
    const fields = parseBody(WorkflowFields, Object.fromEntries(form.fields));
    let id: number;
    try {
      id = await createWorkflow(db, {
        tenantId: auth.tenantId,
        name: fields.name,
        code: fields.code,
        definition: form.text,
        by: auth.userCode,
      });
    } catch (err) {
      if (uniqueViolation(err))
        throw new HttpError(409, 'duplicate', "Can't create, workflow: the code is taken");
      throw err;
    }
    const workflow = await findWorkflow(db, auth.tenantId, String(id));
    const versions = await versionsOf(db, id);
    res.status(201).json({
      workflow: {
        ...presentWorkflow(workflow),
        versions: await Promise.all(versions.map((r) => presentVersion(r, false))),
      },
    });
  });

  router.get('/workflows/:id', can('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const workflow = await findWorkflow(db, tenantId, String(req.params.id));
    const versions = await versionsOf(db, workflow.id);
    res.json({
      workflow: {
        ...presentWorkflow(workflow),
        versions: await Promise.all(versions.map((r) => presentVersion(r, false))),
      },
    });
  });

  // A new name, and with a BPMN file a new version (the editor's save).
  router.patch('/workflows/:id', can('update'), rawMultipart, async (req, res) => {
    const auth = getAuth(res);
    const { fields, file } = await fieldsAndFile(req);
    const workflow = await findWorkflow(db, auth.tenantId, String(req.params.id)).catch(() => {
      throw new HttpError(404, 'not_found', "Can't patch, workFlowID");
    });
    const name = fields.name === undefined ? null : parseBody(WorkflowPatch, fields).name;
    if (name === null && file === null)
      throw new HttpError(400, 'validation_error', 'send a name or a BPMN file');
    if (file !== null) await parseBpmn(file);
    // The editor sends the version it loaded: another save since then makes this one stale, and
    // the editor asks before writing over it (a save without the field is always the next one).
    const base =
      fields.baseVersionNumber === undefined
        ? null
        : parseBody(BaseVersion, { baseVersionNumber: fields.baseVersionNumber }).baseVersionNumber;
    await db.transaction(async (tx) => {
      if (base !== null && file !== null) {
        const [latest] = await tx.query<{ n: number | null }>(
          'SELECT max(version_number) AS n FROM workflow_versions WHERE workflow_id = $1',
          [workflow.id],
        );
        const latestNumber = latest?.n ?? 0;
        if (latestNumber !== base) {
          throw new HttpError(
            409,
            'version_conflict',
            `version ${latestNumber} was saved since version ${base} was loaded`,
            { latestVersionNumber: latestNumber },
          );
        }
      }
      await tx.query(
        `UPDATE workflows SET name = coalesce($2, name), updated_at = now(), updated_by = $3
          WHERE id = $1`,
        [workflow.id, name, auth.userCode],
      );
      if (file !== null) await addVersion(tx, auth.tenantId, workflow.id, file, auth.userCode);
    });
    const saved = await findWorkflow(db, auth.tenantId, String(workflow.id));
    const versions = await versionsOf(db, workflow.id);
    res.json({
      workflow: {
        ...presentWorkflow(saved),
        versions: await Promise.all(versions.map((r) => presentVersion(r, false))),
      },
    });
  });

  const versionList = listRoute<VersionRow>(
    db,
    VERSION_LIST,
    'SELECT v.* FROM workflow_versions v JOIN workflows w ON w.id = v.workflow_id',
    'v.tenant_id',
    (rows) => Promise.all(rows.map((r) => presentVersion(r, false))),
  );
  // The versions of a workflow the tenant does not have are no empty list but the spec's
  // "Can't load workflowVersions" (section 8): a caller asking for them has the wrong workflow.
  router.get('/workflow_versions', can('view'), async (req, res, next) => {
    const { tenantId } = getAuth(res);
    const { filter } = readList(req.query, VERSION_LIST);
    const id = filter.get('workflowId');
    const code = filter.get('workflowCode');
    // A workflowId or versionNumber that is no number is the list's own 400.
    const number = (text: string | undefined) =>
      text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : null;
    if (number(id) !== null) await knownWorkflow(db, tenantId, id!);
    if (code !== undefined) await knownWorkflow(db, tenantId, code);
    // One version of a known workflow by its number (the editor's /{code}/{versionNumber}):
    // none is the spec's "Can't load, versionWorkFlowCode", not an empty list.
    const versionNumber = number(filter.get('versionNumber'));
    if (versionNumber !== null && (number(id) !== null || code !== undefined))
      await knownVersion(db, tenantId, {
        id: number(id),
        code: code ?? null,
        number: versionNumber,
      });
    await versionList(req, res, next);
  });

  // Fetched by code (or id); the BPMN parsed into tasks and sequences on each request.
  router.get('/workflow_versions/:code', can('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const key = String(req.params.code);
    const [row] = await db.query<VersionRow>(
      `SELECT v.* FROM workflow_versions v WHERE v.tenant_id = $1 AND ${byKey('v', key)}`,
      [tenantId, key],
    );
    if (!row) throw cantLoadVersion();
    res.json({ workflowVersion: await presentVersion(row, true) });
  });

  router.get(
    '/workflow-instances',
    can('view'),
    listRoute<InstanceRow>(db, INSTANCE_LIST, INSTANCE_ROW_SELECT, 'i.tenant_id', (rows) =>
      rows.map((r) => presentInstance(r)),
    ),
  );

  router.get('/workflow-instances/:id', can('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await findInstance(db, tenantId, String(req.params.id));
    res.json({
      workflowInstance: { ...presentInstance(row, true), definition: row.definition },
    });
  });

  router.get('/workflow-instances/:id/variables/:name', can('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const row = await findInstance(db, tenantId, String(req.params.id));
    const name = String(req.params.name);
    if (!Object.hasOwn(row.variables, name))
      throw new HttpError(404, 'not_found', `the instance has no variable ${name}`);
    res.json({ name, value: row.variables[name] });
  });

  router.post('/workflow-instances/:id/cancel', can('run'), async (req, res) => {
    const auth = getAuth(res);
    const row = await findInstance(db, auth.tenantId, String(req.params.id));
    if (row.status !== 'active' && row.status !== 'failed') throw cannotCancel(row.status);
    // Guarded by the status, so that of two cancels at once (or a cancel beside a retry or the
    // engine's last step) only one moves the instance; the other is told what it is now. In the
    // instance's turn in the engine: no task of it (a retry's neither) runs after this answers.
    const cancelled = await runtimeOf(db).cancel(row.code, async () => {
      const [moved] = await db.query<{ id: number }>(
        `UPDATE workflow_instances SET status = 'cancelled', timer_due_at = NULL,
                updated_at = $2, updated_by = $3
          WHERE id = $1 AND status IN ('active', 'failed') RETURNING id`,
        [row.id, new Date(ctx.clock.now()), auth.userCode],
      );
      return moved;
    });
    if (!cancelled) throw cannotCancel((await findInstance(db, auth.tenantId, row.code)).status);
    res.json({
      workflowInstance: presentInstance(await findInstance(db, auth.tenantId, row.code), true),
    });
  });

  router.post('/workflow-instances/:id/retry', can('run'), async (req, res) => {
    const auth = getAuth(res);
    const row = await findInstance(db, auth.tenantId, String(req.params.id));
    if (row.status !== 'failed') {
      throw new HttpError(
        409,
        'illegal_transition',
        `only a failed instance can be retried; this one is ${row.status}`,
      );
    }
    // Claimed first, so that two retries at once run the task once.
    const [claimed] = await db.query(
      `UPDATE workflow_instances SET status = 'active', error = NULL, updated_at = $2,
              updated_by = $3 WHERE id = $1 AND status = 'failed' RETURNING id`,
      [row.id, new Date(ctx.clock.now()), auth.userCode],
    );
    if (!claimed) throw new HttpError(409, 'illegal_transition', 'the instance is being retried');
    const runtime = runtimeOf(db);
    await runtime.retry({ ...row, status: 'active' });
    await runtime.settled();
    res.json({
      workflowInstance: presentInstance(await findInstance(db, auth.tenantId, row.code), true),
    });
  });

  // Not in the spec: a user task waits for a person, and this is how one says it is done
  // (docs/decisions/012-workflow-user-tasks.md).
  router.post(
    '/workflow-instances/:id/user-tasks/:taskKey/complete',
    can('run'),
    async (req, res) => {
      const auth = getAuth(res);
      const body = parseBody(CompleteTaskBody, req.body ?? {});
      const row = await findInstance(db, auth.tenantId, String(req.params.id));
      const taskKey = String(req.params.taskKey);
      const runtime = runtimeOf(db);
      if (
        row.status !== 'active' ||
        !runtime.completeUserTask(row.code, taskKey, body.variables ?? {})
      ) {
        throw new HttpError(
          409,
          'illegal_transition',
          `the instance is ${row.status} and does not wait in the user task ${taskKey}`,
          { taskKey },
        );
      }
      await runtime.settled();
      // Who completed it: the engine's own saves stamp only the time.
      await db.query('UPDATE workflow_instances SET updated_by = $2 WHERE id = $1', [
        row.id,
        auth.userCode,
      ]);
      res.json({
        workflowInstance: presentInstance(await findInstance(db, auth.tenantId, row.code), true),
      });
    },
  );

  router.post('/service-event/define', can('update'), async (req, res) => {
    const auth = getAuth(res);
    const body = parseBody(ServiceEventBody, req.body);
    const workflow = await findWorkflow(db, auth.tenantId, String(body.workflowId)).catch(() => {
      throw new HttpError(404, 'not_found', "Can't define service event");
    });
    const [row] = await db.query<{ id: number } & Audit>(
      `INSERT INTO service_events (tenant_id, event_type, workflow_id, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $4)
       ON CONFLICT (tenant_id, event_type, workflow_id)
       DO UPDATE SET updated_at = now(), updated_by = EXCLUDED.updated_by
       RETURNING *`,
      [auth.tenantId, body.eventType, workflow.id, auth.userCode],
    );
    res.status(201).json({
      serviceEvent: {
        id: row!.id,
        eventType: body.eventType,
        workflowId: workflow.id,
        ...audit(row!),
      },
    });
  });

  router.get('/service-event/types', can('view'), async (_req, res) => {
    const { tenantId } = getAuth(res);
    const defined = await db.query<{
      event_type: string;
      workflow_id: number;
      code: string;
      name: string;
    }>(
      `SELECT s.event_type, s.workflow_id, w.code, w.name FROM service_events s
         JOIN workflows w ON w.id = s.workflow_id WHERE s.tenant_id = $1 ORDER BY s.id`,
      [tenantId],
    );
    res.json({
      items: DOMAIN_EVENT_TYPES.map((type) => ({
        type,
        workflows: defined
          .filter((d) => d.event_type === type)
          .map((d) => ({ id: d.workflow_id, code: d.code, name: d.name })),
      })),
      // The editor's choice of service task types.
      taskTypes: TASK_TYPES,
    });
  });

  return router;
}
