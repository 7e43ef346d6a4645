import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSeededSandbox } from '#tests/support/sandbox-template.ts';
import type { Router } from 'express';
import type { RunningSandbox, SandboxContext } from '#server/sandbox/sandbox.ts';
import {
  api,
  login,
  makeTempDir,
  userWithPermissions,
  type Session,
} from '#server/sandbox/testing.ts';
import {
  CLAIM_ROUTING_DMN,
  POLICY_TERMINATION_V2,
} from '#server/sandbox/services/processmanager/seed-workflows.ts';
import { workflowRouter } from '#server/sandbox/services/processmanager/workflow-routes.ts';
import { decisionTableRouter } from '#server/sandbox/services/processmanager/decision-table-routes.ts';
import { processmanagerApi } from '#tests/support/processmanager.ts';

// Permissions and workspaces for every processmanager endpoint (issue 17), beside what
// sandbox-workflows.test.ts checks already (a reader's POST /workflows and retry, a clerk's list,
// Nordlicht's GET of a workflow, an instance, a table and its cancel). The endpoints are read from
// the routers themselves, so that one added later is checked without a line here.

const P = '/processmanager/v1';
let sandbox: RunningSandbox;
let dir: { dir: string; remove(): Promise<void> };
let base = '';
const { upload } = processmanagerApi({
  get base() {
    return base;
  },
});
let admin: Session;
let care: Session;
let reader: Session;
let runner: Session;
let nord: Session;

/** Demo's keys, so that a 403 is never a 404 in disguise. */
const keys = { workflow: 'claim-intake', workflowId: 0, version: '', instance: '', failed: '' };

const call = (s: Session, method: string, route: string, body?: unknown) =>
  api(base, P + route, {
    token: s.accessToken,
    method,
    ...(body === undefined ? {} : { body }),
  });

/** Every method and path the two processmanager routers serve. */
function endpoints(): { method: string; path: string }[] {
  // Building a router only closes over the context; nothing of it runs until a request comes.
  const ctx = {} as SandboxContext;
  const out: { method: string; path: string }[] = [];
  for (const router of [workflowRouter(ctx), decisionTableRouter(ctx)] as Router[]) {
    for (const layer of router.stack) {
      const route = layer.route as unknown as
        { path: string; methods: Record<string, boolean> } | undefined;
      if (!route) continue;
      for (const method of Object.keys(route.methods)) {
        out.push({ method: method.toUpperCase(), path: route.path });
      }
    }
  }
  return out;
}

/** A path with demo's records in its parameters. */
function concrete(path: string): string {
  const own: Record<string, string> = path.startsWith('/workflows/')
    ? { id: keys.workflow }
    : path.startsWith('/workflow_versions/')
      ? { code: keys.version }
      : path.startsWith('/workflow-instances/')
        ? { id: keys.instance, name: 'entityCode' }
        : path.startsWith('/decision-tables/')
          ? { code: 'claim-routing', version: '1' }
          : {};
  return path.replace(/:(\w+)/g, (_, name: string) => own[name] ?? 'x');
}

beforeAll(async () => {
  dir = await makeTempDir();
  sandbox = await startSeededSandbox(dir.dir);
  base = sandbox.url;
  admin = await login(base, 'admin@demo.test');
  care = await login(base, 'care@demo.test');
  nord = await login(base, 'admin@nordlicht.test');
  reader = await userWithPermissions(base, admin, 'manager@demo.test', 'wf-reader', [
    'process-management.workflows.view',
  ]);
  runner = await userWithPermissions(base, admin, 'noui@demo.test', 'wf-runner', [
    'process-management.workflows.view',
    'process-management.workflows.run',
  ]);
  const workflow = (await call(admin, 'GET', `/workflows/${keys.workflow}`)).body.workflow;
  keys.workflowId = workflow.id;
  keys.version = workflow.versions[0].code;
  keys.instance = (
    await call(admin, 'GET', '/workflow-instances?filter=status=active')
  ).body.items[0].code;
  keys.failed = (
    await call(admin, 'GET', '/workflow-instances?filter=status=failed')
  ).body.items[0].code;
});
afterAll(async () => {
  await sandbox?.close();
  await dir?.remove();
});

describe('permissions', () => {
  it('reads the endpoints from the routers', () => {
    const list = endpoints().map((e) => `${e.method} ${e.path}`);
    // The spec's calls are there: the check below covers them all.
    expect(list).toEqual(
      expect.arrayContaining([
        'GET /workflows',
        'POST /workflows',
        'PATCH /workflows/:id',
        'GET /workflow_versions/:code',
        'GET /workflow-instances/:id/variables/:name',
        'POST /workflow-instances/:id/cancel',
        'POST /service-event/define',
        'GET /service-event/types',
        'PUT /decision-tables/:code',
        'POST /decision-tables/:code/evaluate',
        'DELETE /decision-tables/:code',
      ]),
    );
  });

  it('answers 403 on every endpoint to a user without process-management.workflows.*', async () => {
    for (const { method, path } of endpoints()) {
      const res = await call(care, method, concrete(path), method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error, `${method} ${path}`).toBe('forbidden');
    }
  });

  it('lets a reader read everything and change nothing', async () => {
    for (const { method, path } of endpoints()) {
      const route = concrete(path);
      const res = await call(reader, method, route, method === 'GET' ? undefined : {});
      const reads = method === 'GET' || path === '/decision-tables/:code/evaluate';
      if (reads) expect(res.status, `${method} ${path}`).not.toBe(403);
      else expect(res.status, `${method} ${path}`).toBe(403);
    }
    const evaluated = await call(reader, 'POST', '/decision-tables/claim-routing/evaluate', {
      variables: { amount: 500 },
    });
    expect(evaluated.status).toBe(200);
    expect(evaluated.body.result).toEqual({ route: 'fast-track' });
  });

  it('lets a runner cancel and retry, but not change a workflow or a table', async () => {
    const notYours = [
      ['PATCH', `/workflows/${keys.workflow}`, { name: 'Renamed' }],
      ['POST', '/service-event/define', { eventType: 'claim.created', workflowId: 1 }],
      ['PATCH', '/decision-tables/claim-routing', { name: 'Renamed' }],
    ] as const;
    for (const [method, route, body] of notYours) {
      expect((await call(runner, method, route, body)).status, `${method} ${route}`).toBe(403);
    }
    expect(
      (
        await upload(
          runner,
          'POST',
          '/decision-tables',
          { name: 'R', code: 'r' },
          CLAIM_ROUTING_DMN,
          'r.dmn',
        )
      ).status,
    ).toBe(403);
    const retried = await call(runner, 'POST', `/workflow-instances/${keys.failed}/retry`);
    expect(retried.status).toBe(200);
    const cancelled = await call(runner, 'POST', `/workflow-instances/${keys.instance}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.workflowInstance.updatedBy).not.toBe('system');
  });
});

describe('workspaces', () => {
  it("keeps demo's workflows, versions and instances out of Nordlicht's lists", async () => {
    const lists = [
      '/workflows?pageSize=100',
      '/workflow_versions?pageSize=100',
      '/workflow-instances?pageSize=100',
      `/workflow-instances?filter=workflowId=${keys.workflowId}`,
      '/decision-tables?pageSize=100',
    ];
    for (const route of lists) {
      const res = await call(nord, 'GET', route);
      expect(res.status, route).toBe(200);
      expect(res.body.items, route).toEqual([]);
    }
    // The versions of a workflow Nordlicht lacks: the spec's message, as for one nobody has.
    const versions = await call(
      nord,
      'GET',
      `/workflow_versions?filter=workflowCode=${keys.workflow}`,
    );
    expect(versions.status).toBe(404);
    expect(versions.body.message).toBe("Can't load workflowVersions");
    const types = (await call(nord, 'GET', '/service-event/types')).body.items;
    expect(types.flatMap((t: { workflows: unknown[] }) => t.workflows)).toEqual([]);
  });

  it("answers 404 for demo's records by code and by id, and changes none of them", async () => {
    const before = await sandbox.db.query(
      `SELECT (SELECT count(*) FROM workflow_versions)::int AS versions,
              (SELECT count(*) FROM decision_table_versions)::int AS tables,
              (SELECT count(*) FROM service_events)::int AS events,
              (SELECT name FROM workflows WHERE code = 'claim-intake') AS name`,
    );
    const missing: [string, string, unknown?][] = [
      ['GET', `/workflows/${keys.workflowId}`],
      ['PATCH', `/workflows/${keys.workflow}`, { name: 'Taken over' }],
      ['PATCH', `/workflows/${keys.workflowId}`, { name: 'Taken over' }],
      ['GET', `/workflow_versions/${keys.version}`],
      ['GET', `/workflow-instances/${keys.failed}/variables/entityCode`],
      ['POST', `/workflow-instances/${keys.failed}/retry`],
      [
        'POST',
        '/service-event/define',
        { eventType: 'claim.created', workflowId: keys.workflowId },
      ],
      ['PATCH', '/decision-tables/claim-routing', { name: 'Taken over' }],
      ['GET', '/decision-tables/claim-routing/versions'],
      ['GET', '/decision-tables/claim-routing/versions/1'],
      ['POST', '/decision-tables/claim-routing/evaluate', { variables: { amount: 1 } }],
    ];
    for (const [method, route, body] of missing) {
      expect((await call(nord, method, route, body)).status, `${method} ${route}`).toBe(404);
    }
    const newVersion = await upload(
      nord,
      'PATCH',
      `/workflows/${keys.workflow}`,
      {},
      POLICY_TERMINATION_V2,
      'x.bpmn',
    );
    expect(newVersion.status).toBe(404);
    const newTable = await upload(
      nord,
      'PUT',
      '/decision-tables/claim-routing',
      {},
      CLAIM_ROUTING_DMN,
      'x.dmn',
    );
    expect(newTable.status).toBe(404);
    const after = await sandbox.db.query(
      `SELECT (SELECT count(*) FROM workflow_versions)::int AS versions,
              (SELECT count(*) FROM decision_table_versions)::int AS tables,
              (SELECT count(*) FROM service_events)::int AS events,
              (SELECT name FROM workflows WHERE code = 'claim-intake') AS name`,
    );
    expect(after).toEqual(before);
  });

  it('lets Nordlicht use the codes demo uses, for its own records', async () => {
    const table = await upload(
      nord,
      'POST',
      '/decision-tables',
      { name: 'Nord routing', code: 'claim-routing' },
      CLAIM_ROUTING_DMN,
      'r.dmn',
    );
    expect(table.status).toBe(201);
    expect((await call(nord, 'GET', '/decision-tables')).body.items).toHaveLength(1);
    // Demo's table of the same code is untouched and still demo's alone.
    const demo = await call(admin, 'GET', '/decision-tables/claim-routing/versions');
    expect(demo.body.items).toHaveLength(1);
    expect((await call(admin, 'GET', '/decision-tables')).body.items).toHaveLength(1);
  });
});
