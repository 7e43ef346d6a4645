import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import { api } from '#server/sandbox/testing.ts';
import {
  CLAIM_ROUTING_DMN,
  POLICY_TERMINATION_V2,
} from '#server/sandbox/services/processmanager/seed-workflows.ts';
import { runtimeOf } from '#server/sandbox/services/processmanager/store.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import {
  grantWorkflowView,
  instanceReader,
  newClaim,
  processmanagerApi,
} from '#tests/support/processmanager.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

// The process manager (issue 17): workflows, versions, instances run by bpmn-engine, service
// events, decision tables. One sandbox on a movable clock; restarted once on the same data.

const clock = new MovableClock();
const kit = withSandbox(
  {
    admin: 'admin@demo.test',
    care: 'care@demo.test',
    viewer: 'viewer@demo.test',
    nord: 'admin@nordlicht.test',
  },
  { clock },
);
const { admin, care, viewer, nord } = kit.sessions;
const { call, upload } = processmanagerApi(kit);

// Vera (show-only) may read workflows but not run them.
beforeAll(() => grantWorkflowView(kit.db()));

const { instance, settledAs } = instanceReader({ call }, admin);

describe('workflows', () => {
  it('lists the seeded workflows with keyset pages and creates one from a BPMN file', async () => {
    const list = await call(admin, '/workflows?pageSize=2');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.totalItems).toBe(3);
    const next = await call(admin, `/workflows?pageSize=2&pageToken=${list.body.nextPageToken}`);
    expect(next.body.items).toHaveLength(1);
    expect(next.body.nextPageToken).toBeNull();

    const created = await upload(
      admin,
      'POST',
      '/workflows',
      { name: 'Letters' },
      POLICY_TERMINATION_V2,
    );
    expect(created.status).toBe(201);
    expect(created.body.workflow).toMatchObject({ name: 'Letters', createdBy: expect.any(String) });
    expect(created.body.workflow.versions).toHaveLength(1);
    const versionCode = created.body.workflow.versions[0].code;
    const version = await call(admin, `/workflow_versions/${versionCode}`);
    expect(version.body.workflowVersion.tasks).toContainEqual({
      key: 'letter',
      name: 'Send termination letter',
      type: 'serviceTask',
    });
    expect(version.body.workflowVersion.sequences).toContainEqual({
      key: 'f2',
      source: 'letter',
      target: 'end',
    });
  });
});

const count = async (sql: string) => Number((await kit.db().query<{ n: string }>(sql))[0]!.n);

describe('bad input', () => {
  it('refuses a BPMN that is not XML, an unknown task type and a DMN that does not parse, saving nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM workflows');
    const notXml = await upload(admin, 'POST', '/workflows', { name: 'Broken' }, 'not xml at all');
    expect(notXml.status).toBe(400);
    expect(notXml.body.error).toBe('invalid_bpmn');
    const unknown = await upload(
      admin,
      'POST',
      '/workflows',
      { name: 'Unknown task' },
      POLICY_TERMINATION_V2.replace('notification.sendEmail', 'fax.send'),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('unknown_task_type');
    expect(unknown.body.message).toContain('fax.send');
    const noFile = await upload(admin, 'POST', '/workflows', { name: 'No file' }, null);
    expect(noFile.status).toBe(400);
    expect(await count('SELECT count(*) AS n FROM workflows')).toBe(before);

    const badDmn = await upload(
      admin,
      'POST',
      '/decision-tables',
      { name: 'X', code: 'x' },
      '<definitions',
      'x.dmn',
    );
    expect(badDmn.status).toBe(400);
    expect(badDmn.body.error).toBe('invalid_dmn');
    expect(await count("SELECT count(*) AS n FROM decision_tables WHERE code = 'x'")).toBe(0);
  });

  it('answers the spec messages for what does not exist, 501 for delete', async () => {
    expect((await call(admin, '/workflows/99999')).body.message).toBe("Can't load workFlowCode");
    expect((await call(admin, '/workflow_versions/nope')).body.message).toBe(
      "Can't load, workFlowVersionCode",
    );
    expect((await call(admin, '/workflow-instances/nope')).body.message).toBe(
      "Can't load instanceCode",
    );
    expect((await call(admin, '/decision-tables/claim-routing', { method: 'DELETE' })).status).toBe(
      501,
    );
    expect((await call(admin, '/workflow-instances?filter=status=bogus')).status).toBe(400);
  });
});

describe('permissions and workspaces', () => {
  it('lets a reader read but not write or run, and a clerk without the right nothing', async () => {
    expect((await call(viewer, '/workflows')).status).toBe(200);
    expect(
      (await upload(viewer, 'POST', '/workflows', { name: 'V' }, POLICY_TERMINATION_V2)).status,
    ).toBe(403);
    const failed = (await call(viewer, '/workflow-instances?filter=status=failed')).body.items[0];
    expect(
      (await call(viewer, `/workflow-instances/${failed.code}/retry`, { method: 'POST' })).status,
    ).toBe(403);
    expect((await call(care, '/workflows')).status).toBe(403);
  });

  it('keeps each workspace to its own workflows, instances and tables', async () => {
    const list = await call(nord, '/workflows');
    expect(list.status).toBe(200);
    expect(list.body.totalItems).toBe(0);
    expect((await call(nord, '/workflows/claim-intake')).status).toBe(404);
    expect((await call(nord, '/decision-tables/claim-routing')).status).toBe(404);
    const demo = (await call(admin, '/workflow-instances?pageSize=1')).body.items[0];
    expect((await call(nord, `/workflow-instances/${demo.code}`)).status).toBe(404);
    expect(
      (await call(nord, `/workflow-instances/${demo.code}/cancel`, { method: 'POST' })).status,
    ).toBe(404);
  });
});

describe('instances', () => {
  it('seeds instances in every status and filters them', async () => {
    for (const status of ['active', 'completed', 'failed', 'cancelled']) {
      const res = await call(admin, `/workflow-instances?filter=status=${status}`);
      expect(res.body.items.length, status).toBeGreaterThan(0);
      expect(res.body.items.every((i: { status: string }) => i.status === status)).toBe(true);
    }
    const both = await call(
      admin,
      '/workflow-instances?filter=' + encodeURIComponent('status=failed,cancelled'),
    );
    expect(new Set(both.body.items.map((i: { status: string }) => i.status))).toEqual(
      new Set(['failed', 'cancelled']),
    );
    const future = new Date(clock.now() + 86_400_000).toISOString();
    const none = await call(
      admin,
      '/workflow-instances?filter=' + encodeURIComponent(`createdAtFrom=${future}`),
    );
    expect(none.body.items).toEqual([]);
    const wf = (await call(admin, '/workflows/claim-intake')).body.workflow;
    const byWf = await call(admin, `/workflow-instances?filter=workflowId=${wf.id}`);
    expect(
      byWf.body.items.every(
        (i: { workflow: { code: string } }) => i.workflow.code === 'claim-intake',
      ),
    ).toBe(true);
  });

  it('retries a failed instance from the failed task; a completed one cannot be retried', async () => {
    const failed = (await call(admin, '/workflow-instances?filter=status=failed')).body.items[0];
    expect(failed.error.message).toContain('not reachable');
    expect(failed.error.taskKey).toBe('letter');
    const retried = await call(admin, `/workflow-instances/${failed.code}/retry`, {
      method: 'POST',
    });
    expect(retried.status).toBe(200);
    await settledAs(failed.code, 'completed');
    // The letter names the policy by its number, in the workspace's language (German).
    const mails = await count(
      `SELECT count(*) AS n FROM outbox_emails o JOIN policies p ON p.code = '${failed.entityCode}'
        WHERE o.subject = 'Kündigung des Vertrags ' || p.policy_number`,
    );
    const done = await instance(failed.code);
    expect(mails, JSON.stringify(done.history)).toBe(1);
    const again = await call(admin, `/workflow-instances/${failed.code}/retry`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(
      (await call(admin, `/workflow-instances/${failed.code}/cancel`, { method: 'POST' })).status,
    ).toBe(409);
  });

  it('cancels a running instance once', async () => {
    const active = (await call(admin, '/workflow-instances?filter=status=active')).body.items[0];
    const cancelled = await call(admin, `/workflow-instances/${active.code}/cancel`, {
      method: 'POST',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.workflowInstance).toMatchObject({
      status: 'cancelled',
      processStatus: 'cancelled',
    });
    expect(
      (await call(admin, `/workflow-instances/${active.code}/cancel`, { method: 'POST' })).status,
    ).toBe(409);
  });

  it('starts claim intake when a claim is created, and the decision table fast-tracks a small one', async () => {
    const claimCode = (await newClaim(kit, admin)).code;
    let started: { code: string; status: string } | undefined;
    await vi.waitFor(async () => {
      started = (await call(admin, `/workflow-instances?filter=entityCode=${claimCode}`)).body
        .items[0];
      expect(started).toBeDefined();
    });
    expect(started!.status).toBe('active');
    expect(
      (await call(admin, `/workflow-instances/${started!.code}/variables/route`)).body.value,
    ).toBe('manual');

    // The same workflow with an estimate of 500 EUR: the table says fast-track, the claim is approved.
    const version = (await call(admin, '/workflows/claim-intake')).body.workflow.versions.at(-1);
    const runtime = runtimeOf(kit.db() as Db);
    const code = await runtime.start({
      tenantId: (
        await kit
          .db()
          .query<{ tenant_id: number }>('SELECT tenant_id FROM workflows WHERE code = $1', [
            'claim-intake',
          ])
      )[0]!.tenant_id,
      workflowVersionId: version.id,
      entityCode: claimCode,
      variables: { amount: 50_000 },
      by: 'test',
    });
    await settledAs(code, 'completed');
    const claim = await api(kit.base, `/claimservice/v1/claims/${claimCode}`, {
      token: admin.accessToken,
    });
    expect(claim.body.claim.status).toBe('approved');
    const table = await call(admin, '/decision-tables/claim-routing/evaluate', {
      body: { variables: { amount: 500_000 } },
    });
    expect(table.body.result).toEqual({ route: 'manual' });
  });
});

describe('decision tables', () => {
  it('creates, versions, renames and reads a table', async () => {
    const created = await upload(
      admin,
      'POST',
      '/decision-tables',
      { name: 'Routing copy', code: 'routing-copy' },
      CLAIM_ROUTING_DMN,
      'r.dmn',
    );
    expect(created.status).toBe(201);
    expect(created.body.decisionTable.version.versionNumber).toBe(1);
    const put = await upload(
      admin,
      'PUT',
      '/decision-tables/routing-copy',
      {},
      CLAIM_ROUTING_DMN.replace('100000', '200000'),
      'r.dmn',
    );
    expect(put.body.decisionTable.version.versionNumber).toBe(2);
    const patched = await call(admin, '/decision-tables/routing-copy', {
      method: 'PATCH',
      body: { name: 'Routing 2' },
    });
    expect(patched.body.decisionTable.name).toBe('Routing 2');
    expect((await call(admin, '/decision-tables/routing-copy/versions')).body.items).toHaveLength(
      2,
    );
    expect(
      (await call(admin, '/decision-tables/routing-copy/versions/1')).body.decisionTableVersion
        .table.rules,
    ).toHaveLength(3);
    expect((await call(admin, '/decision-tables/routing-copy/versions/9')).status).toBe(404);
    expect((await call(admin, '/decision-tables?search=routing')).body.items.length).toBe(2);
  });
});

describe('service events', () => {
  it('defines an event for a workflow and lists the types', async () => {
    const wf = (await call(admin, '/workflows/policy-termination')).body.workflow;
    const defined = await call(admin, '/service-event/define', {
      body: { eventType: 'claim.created', workflowId: wf.id },
    });
    expect(defined.status).toBe(201);
    const types = (await call(admin, '/service-event/types')).body.items;
    expect(
      types
        .find((t: { type: string }) => t.type === 'claim.created')
        .workflows.map((w: { code: string }) => w.code),
    ).toEqual(['claim-intake', 'policy-termination']);
    expect(
      (
        await call(admin, '/service-event/define', {
          body: { eventType: 'nope', workflowId: wf.id },
        })
      ).status,
    ).toBe(400);
  });
});

describe('restart and timers', () => {
  it('resumes a running instance after a restart, and moving the clock fires its timer', async () => {
    const waiting = (
      await call(admin, '/workflow-instances?filter=status=active&pageSize=50')
    ).body.items.filter(
      (i: { workflow: { code: string } }) => i.workflow.code === 'lead-follow-up',
    );
    expect(waiting.length).toBeGreaterThan(0);
    const target = waiting[0];

    await kit.restart();
    const resumed = await instance(target.code);
    expect(resumed.status, JSON.stringify(resumed.error)).toBe('active');

    clock.advance(25 * 3_600_000);
    // A day later the morning's access tokens have expired: sign in again.
    await kit.signIn();
    await settledAs(target.code, 'completed');
    const done = await instance(target.code);
    expect(
      done.history.map((s: { key: string; event: string }) => `${s.key}:${s.event}`),
    ).toContain('wait:end');
    expect(
      await count(
        `SELECT count(*) AS n FROM lead_follow_ups WHERE instance_code = '${target.code}'`,
      ),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*) AS n FROM outbox_emails o JOIN leads l ON l.code = '${target.entityCode}'
          WHERE o.subject = 'Lead ' || l.lead_number || ' nachfassen'`,
      ),
    ).toBeGreaterThan(0);
  });
});
