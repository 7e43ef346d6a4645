import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import { api, type Session } from '#server/sandbox/testing.ts';
import { POLICY_TERMINATION_V1 } from '#server/sandbox/services/processmanager/seed-workflows.ts';
import { runtimeOf } from '#server/sandbox/services/processmanager/store.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import { ensureSystemUser } from '#server/sandbox/services/tenant/system-user.ts';
import { growWorkflowInstances } from '#server/sandbox/services/processmanager/seed-instances.ts';
import { instanceReader, newClaim, processmanagerApi } from '#tests/support/processmanager.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

// Issue 17's sandbox leftovers: domain events start the workflows bound to them through the
// real claim, lead and policy APIs (claim intake routes on the claim's estimate), never another
// workspace's; the http.call task calls another service as the workspace's system user.

const clock = new MovableClock();
const kit = withSandbox({ admin: 'admin@demo.test', nord: 'admin@nordlicht.test' }, { clock });
const { admin, nord } = kit.sessions;
const { call, upload } = processmanagerApi(kit);
let demoTenant = 0;
let nordWorkflowId = 0;

/** A BPMN attribute's value: the task's query string, `&` escaped for XML. */
const impl = (type: string, params: Record<string, string>) =>
  `${type}?${new URLSearchParams(params).toString()}`.replaceAll('&', '&amp;');

/** start -> the service tasks, one after the other -> end. */
function serviceChain(id: string, tasks: { id: string; implementation: string }[]): string {
  const nodes = ['start', ...tasks.map((t) => t.id), 'end'];
  const flows = nodes
    .slice(1)
    .map((to, i) => `<sequenceFlow id="f${i}" sourceRef="${nodes[i]}" targetRef="${to}"/>`)
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" id="${id}-defs" targetNamespace="https://demo.test/bpmn">
  <process id="${id}" isExecutable="true">
    <startEvent id="start"/>
    ${tasks.map((t) => `<serviceTask id="${t.id}" name="${t.id}" implementation="${t.implementation}"/>`).join('\n    ')}
    <endEvent id="end"/>
    ${flows}
  </process>
</definitions>`;
}

beforeAll(async () => {
  demoTenant = (
    await kit.db().query<{ id: number }>("SELECT id FROM tenants WHERE slug = 'demo'")
  )[0]!.id;
  // Nordlicht binds a workflow of its own to every event: none of demo's events may start it.
  const created = await upload(
    nord,
    'POST',
    '/workflows',
    { name: 'Nord listens', code: 'nord-listens' },
    POLICY_TERMINATION_V1,
  );
  expect(created.status).toBe(201);
  nordWorkflowId = created.body.workflow.id;
  for (const eventType of ['claim.created', 'lead.status_changed', 'policy.terminated']) {
    const defined = await call(nord, '/service-event/define', {
      body: { eventType, workflowId: nordWorkflowId },
    });
    expect(defined.status).toBe(201);
  }
});

const { instance, settledAs } = instanceReader({ call }, admin);

/** The instances started for a record, once the event has been handled. */
const startedFor = async (s: Session, entityCode: string, count = 1) => {
  let items: { code: string; status: string; workflow: { code: string } }[] = [];
  await vi.waitFor(
    async () => {
      items = (
        await call(
          s,
          `/workflow-instances?filter=${encodeURIComponent(`entityCode=${entityCode}`)}`,
        )
      ).body.items;
      expect(items.length).toBe(count);
    },
    { timeout: 10_000, interval: 50 },
  );
  return items;
};

const claimOf = async (code: string) =>
  (await api(kit.base, `/claimservice/v1/claims/${code}`, { token: admin.accessToken })).body.claim;

/** No instance of Nordlicht's workflow ran for a demo record. */
async function nordStartedNothingFor(entityCode: string) {
  const theirs = await call(
    nord,
    `/workflow-instances?filter=${encodeURIComponent(`workflowId=${nordWorkflowId}`)}&pageSize=100`,
  );
  expect(theirs.status).toBe(200);
  expect(
    theirs.body.items.filter((i: { entityCode: string }) => i.entityCode === entityCode),
  ).toEqual([]);
  const count = await kit
    .db()
    .query<{ n: number }>(
      'SELECT count(*)::int AS n FROM workflow_instances WHERE entity_code = $1 AND tenant_id <> $2',
      [entityCode, demoTenant],
    );
  expect(count[0]!.n).toBe(0);
}

describe('claim created: the estimate reaches the claim-intake decision table', () => {
  it('fast-tracks a small claim to approved through the real workflow', async () => {
    const claim = await newClaim(kit, admin, 500);
    const [started] = await startedFor(admin, claim.code);
    expect(started!.workflow.code).toBe('claim-intake');
    await settledAs(started!.code, 'completed');
    const done = await instance(started!.code);
    // 500 EUR in cents, as the table reads money.
    expect(done.variables).toMatchObject({ amount: 50_000, route: 'fast-track' });
    expect(done.history.map((s: { key: string; event: string }) => `${s.key}:${s.event}`)).toEqual(
      expect.arrayContaining(['route:end', 'review:end', 'approve:end']),
    );
    expect((await claimOf(claim.code)).status).toBe('approved');
    await nordStartedNothingFor(claim.code);
  });

  it('leaves a large claim to a person: the instance waits on the assessment', async () => {
    const claim = await newClaim(kit, admin, 5000);
    const [started] = await startedFor(admin, claim.code);
    await vi.waitFor(
      async () => {
        expect((await instance(started!.code)).variables.route).toBe('manual');
      },
      { timeout: 10_000, interval: 50 },
    );
    const waiting = await instance(started!.code);
    expect(waiting.status).toBe('active');
    expect(waiting.variables.amount).toBe(500_000);
    expect(
      waiting.history.map((s: { key: string; event: string }) => `${s.key}:${s.event}`),
    ).toEqual(expect.arrayContaining(['assess:wait']));
    expect((await claimOf(claim.code)).status).toBe(claim.status);
  });
});

describe('lead status changed and policy terminated', () => {
  it('starts lead follow-up for the moved lead, with its code as entityCode', async () => {
    const lead = (
      await api(kit.base, '/insuranceservice/v1/leads?filter=status=new&pageSize=1', {
        token: admin.accessToken,
      })
    ).body.items[0];
    const moved = await api(kit.base, `/insuranceservice/v1/leads/${lead.code}`, {
      token: admin.accessToken,
      method: 'PATCH',
      body: { version: lead.version, status: 'contacted' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const [started] = await startedFor(admin, lead.code);
    expect(started!.workflow.code).toBe('lead-follow-up');
    const running = await instance(started!.code);
    expect(running.entityCode).toBe(lead.code);
    expect(running.variables).toMatchObject({
      entityCode: lead.code,
      eventType: 'lead.status_changed',
      fromStatus: 'new',
      status: 'contacted',
    });
    await nordStartedNothingFor(lead.code);
  });

  it('starts policy termination for the terminated policy and sends its letter', async () => {
    const policy = (
      await api(kit.base, '/insuranceservice/v1/policies?filter=status=ACTIVE&pageSize=1', {
        token: admin.accessToken,
      })
    ).body.items[0];
    const terminationDate = new Date(Date.parse(policy.policyStartDate) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    const ended = await api(kit.base, `/insuranceservice/v1/policies/${policy.code}/terminate`, {
      token: admin.accessToken,
      body: {
        basedOnVersionId: policy.currentVersionId,
        terminationDate,
      },
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    const [started] = await startedFor(admin, policy.code);
    expect(started!.workflow.code).toBe('policy-termination');
    await settledAs(started!.code, 'completed');
    // The letter is in the workspace's language (the demo's is German) and names the policy by
    // its number, never its internal code (issue 16, point 11).
    const mails = await kit
      .db()
      .query<{ subject: string; text: string }>(
        'SELECT subject, text FROM outbox_emails WHERE text LIKE $1',
        [`%${policy.policyNumber}%`],
      );
    expect(mails).toEqual([
      {
        subject: `Kündigung des Vertrags ${policy.policyNumber}`,
        text: `Wir bestätigen die Kündigung des Vertrags ${policy.policyNumber} zum ${terminationDate.split('-').reverse().join('.')}.\n\n-- \nDemo Versicherung AG`,
      },
    ]);
    expect(
      (
        await kit
          .db()
          .query('SELECT 1 FROM outbox_emails WHERE subject LIKE $1 OR text LIKE $1', [
            `%${policy.code}%`,
          ])
      ).length,
    ).toBe(0);
    await nordStartedNothingFor(policy.code);
  });

  it("starts a workspace's own workflow for its own events", async () => {
    const theirs = (
      await api(kit.base, '/insuranceservice/v1/leads?filter=status=new&pageSize=1', {
        token: nord.accessToken,
      })
    ).body.items[0];
    const moved = await api(kit.base, `/insuranceservice/v1/leads/${theirs.code}`, {
      token: nord.accessToken,
      method: 'PATCH',
      body: { version: theirs.version, status: 'quoted' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const [started] = await startedFor(nord, theirs.code);
    expect(started!.workflow.code).toBe('nord-listens');
    // Demo's lead follow-up did not hear Nordlicht's lead.
    expect(
      (
        await call(
          admin,
          `/workflow-instances?filter=${encodeURIComponent(`entityCode=${theirs.code}`)}`,
        )
      ).body.items,
    ).toEqual([]);
  });
});

describe('http.call', () => {
  const claimPath = '/claimservice/v1/claims/{entityCode}';
  const readClaim = impl('http.call', { path: claimPath, resultVariable: 'claimAnswer' });
  const renameClaim = impl('http.call', {
    method: 'PATCH',
    path: claimPath,
    body: JSON.stringify({ version: '{claimAnswer.claim.version}', title: 'Checked {entityCode}' }),
    resultVariable: 'patched',
  });

  async function deploy(code: string, xml: string) {
    const created = await upload(admin, 'POST', '/workflows', { name: code, code }, xml);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.workflow.versions[0].id as number;
  }

  const startOn = (workflowVersionId: number, entityCode: string) =>
    runtimeOf(kit.db() as Db).start({
      tenantId: demoTenant,
      workflowVersionId,
      entityCode,
      variables: {},
      by: 'test',
    });

  it('reads and changes a claim through the claim API as the workspace system user', async () => {
    const claim = await newClaim(kit, admin);
    const version = await deploy(
      'http-claim',
      serviceChain('http_claim', [
        { id: 'read', implementation: readClaim },
        { id: 'rename', implementation: renameClaim },
      ]),
    );
    const code = await startOn(version, claim.code);
    await settledAs(code, 'completed');
    const done = await instance(code);
    expect(done.variables.claimAnswer.claim.code).toBe(claim.code);
    expect(done.variables.patched.claim.title).toBe(`Checked ${claim.code}`);
    const changed = await claimOf(claim.code);
    expect(changed.title).toBe(`Checked ${claim.code}`);
    // Stamped with the system user, a user of this workspace with the workflow role only.
    const [system] = await kit.db().query<{ code: string; tenant_id: number; roles: string[] }>(
      `SELECT u.code, u.tenant_id, array_agg(r.code) AS roles FROM users u
         JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
        WHERE u.email = 'workflows@demo.system.invalid' GROUP BY u.code, u.tenant_id`,
    );
    expect(system).toMatchObject({ tenant_id: demoTenant, roles: ['workflow-system'] });
    expect(changed.updatedBy).toBe(system!.code);
  });

  it('refuses an http.call out of the sandbox when a version is saved, saving nothing', async () => {
    const before = await kit
      .db()
      .query<{ n: number }>('SELECT count(*)::int AS n FROM workflow_versions');
    for (const path of [
      'https://example.com/claims',
      '//example.com/claimservice/v1/claims',
      '/claimservice/v1/../../processmanager/v1/workflows',
      '/processmanager/v1/workflows',
    ]) {
      const refused = await upload(
        admin,
        'POST',
        '/workflows',
        { name: 'Outside' },
        serviceChain('outside', [{ id: 'out', implementation: impl('http.call', { path }) }]),
      );
      expect(refused.status, path).toBe(400);
      expect(refused.body.error).toBe('invalid_bpmn');
      expect(refused.body.message).toContain('service task out: http.call');
    }
    // A new version of an existing workflow is checked the same way.
    const patched = await upload(
      admin,
      'PATCH',
      '/workflows/claim-intake',
      {},
      serviceChain('outside', [
        { id: 'out', implementation: impl('http.call', { path: 'http://127.0.0.1:1/x' }) },
      ]),
    );
    expect(patched.status).toBe(400);
    expect(patched.body.error).toBe('invalid_bpmn');
    const after = await kit
      .db()
      .query<{ n: number }>('SELECT count(*)::int AS n FROM workflow_versions');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('refuses a variable that would climb out of the service, failing the task', async () => {
    const version = await deploy(
      'http-climb',
      serviceChain('http_climb', [{ id: 'read', implementation: readClaim }]),
    );
    const code = await startOn(version, '..');
    await settledAs(code, 'failed');
    expect((await instance(code)).error).toMatchObject({
      taskKey: 'read',
      message: expect.stringContaining('must not climb out'),
    });
  });

  it('fails the instance with the status and message of a refused call; a retry runs it again', async () => {
    const claim = await newClaim(kit, admin);
    const version = await deploy(
      'http-retry',
      serviceChain('http_retry', [{ id: 'read', implementation: readClaim }]),
    );
    // An administrator took the claims right from the workflow role: the call is refused.
    const revoke = () =>
      kit.db().query(
        `DELETE FROM role_permissions WHERE tenant_id = $1 AND permission = 'claim-management.claims.*'
            AND role_id = (SELECT id FROM roles WHERE tenant_id = $1 AND code = 'workflow-system')`,
        [demoTenant],
      );
    await ensureSystemUser(kit.db() as Db, demoTenant);
    await revoke();
    const code = await startOn(version, claim.code);
    await settledAs(code, 'failed');
    const failed = await instance(code);
    expect(failed.error.taskKey).toBe('read');
    expect(failed.error.message).toContain(
      `GET /claimservice/v1/claims/${claim.code} answered 403`,
    );
    expect(failed.error.message).toContain('missing permission claim-management.claims.view');

    // Given back, the retry calls again and the instance completes.
    await kit.db().query(
      `INSERT INTO role_permissions (tenant_id, role_id, permission)
       SELECT $1, id, 'claim-management.claims.*' FROM roles WHERE tenant_id = $1 AND code = 'workflow-system'`,
      [demoTenant],
    );
    const retried = await call(admin, `/workflow-instances/${code}/retry`, { method: 'POST' });
    expect(retried.status).toBe(200);
    await settledAs(code, 'completed');
    expect((await instance(code)).variables.claimAnswer.claim.code).toBe(claim.code);
  });
});

// Last: the copies carry the seeded instances' entity codes, which the tests above look up.
describe('the seed option for the monitor bench', () => {
  it('grows the instances in bulk with finished copies only, and adds none when there are enough', async () => {
    const db = kit.db() as Db;
    const before = (await call(admin, '/workflow-instances?pageSize=1')).body.totalItems as number;
    expect(await growWorkflowInstances(db, 'demo', before + 45)).toEqual({
      before,
      after: before + 45,
    });
    const first = await call(admin, '/workflow-instances?pageSize=30');
    expect(first.body.totalItems).toBe(before + 45);
    const second = await call(
      admin,
      `/workflow-instances?pageSize=30&pageToken=${first.body.nextPageToken}`,
    );
    expect(second.status).toBe(200);
    const seen = [...first.body.items, ...second.body.items].map((i: { code: string }) => i.code);
    expect(new Set(seen).size).toBe(seen.length);
    const grown = await db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM workflow_instances
        WHERE code LIKE 'wfi\\_g%' GROUP BY status`,
    );
    expect(grown.reduce((sum, r) => sum + r.n, 0)).toBe(45);
    // Never active: those would all resume when the sandbox starts.
    expect(grown.map((r) => r.status)).not.toContain('active');
    expect(await growWorkflowInstances(db, 'demo', 10)).toEqual({
      before: before + 45,
      after: before + 45,
    });
    await expect(growWorkflowInstances(db, 'nowhere', 5)).rejects.toThrow(/no workspace/);
  });
});
