import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import type { Session } from '#server/sandbox/testing.ts';
import { grantWorkflowView, processmanagerApi } from '#tests/support/processmanager.ts';
import { withSandbox } from '#tests/support/sandbox.ts';

// Completing a workflow's user tasks (docs/decisions/012-workflow-user-tasks.md): the seeded
// claim intakes wait in "Assess claim"; completing it runs the instance to its end.

const clock = new MovableClock();
const kit = withSandbox(
  { admin: 'admin@demo.test', viewer: 'viewer@demo.test', nord: 'admin@nordlicht.test' },
  { clock },
);
const { admin, viewer, nord } = kit.sessions;
const { call } = processmanagerApi(kit);

const complete = (s: Session, code: string, task: string, body: unknown = {}) =>
  call(s, `/workflow-instances/${code}/user-tasks/${task}/complete`, { body });

interface Instance {
  code: string;
  status: string;
  variables: Record<string, unknown>;
  history: { key: string; event: string }[];
  updatedBy?: string;
}

/** The seeded claim intakes that wait for a person, oldest first. */
async function waitingIntakes(): Promise<Instance[]> {
  const wf = (await call(admin, '/workflows/claim-intake')).body.workflow;
  const res = await call(
    admin,
    `/workflow-instances?pageSize=30&order=id:ASC&filter=${encodeURIComponent(`workflowId=${wf.id}&status=active`)}`,
  );
  expect(res.status).toBe(200);
  return res.body.items;
}

// Vera (show-only) may read workflows but not run them.
beforeAll(() => grantWorkflowView(kit.db()));

describe('user tasks', () => {
  it('completes the task an instance waits in, with variables; the instance runs to its end', async () => {
    const [waiting] = await waitingIntakes();
    expect(waiting).toBeDefined();
    const before = (await call(admin, `/workflow-instances/${waiting!.code}`)).body
      .workflowInstance as Instance;
    // Entered and waiting (a resume at the sandbox's start records its wait again), not left.
    const assessSteps = before.history.filter((s) => s.key === 'assess').map((s) => s.event);
    expect(assessSteps[0]).toBe('start');
    expect(assessSteps).toContain('wait');
    expect(assessSteps).not.toContain('end');

    const done = await complete(admin, waiting!.code, 'assess', {
      variables: { assessment: 'covered', payout: 120_000 },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const after = done.body.workflowInstance as Instance;
    expect(after.status).toBe('completed');
    expect(after.variables).toMatchObject({ assessment: 'covered', payout: 120_000 });
    expect(after.history.filter((s) => s.key === 'assess').map((s) => s.event)).toContain('end');
    expect(after.history.at(-1)?.key).toBe('end');
    const [row] = await kit
      .db()
      .query<{ updated_by: string }>('SELECT updated_by FROM workflow_instances WHERE code = $1', [
        waiting!.code,
      ]);
    expect(row!.updated_by).not.toBe('workflow');

    // Done once: a second completion is refused, and nothing changes.
    const again = await complete(admin, waiting!.code, 'assess');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('illegal_transition');
  });

  it('refuses a task the instance does not wait in, and an instance that is not running', async () => {
    const [waiting] = await waitingIntakes();
    const wrongTask = await complete(admin, waiting!.code, 'route');
    expect(wrongTask.status).toBe(409);
    const unknown = await complete(admin, waiting!.code, 'no-such-task');
    expect(unknown.status).toBe(409);
    const failed = (await call(admin, '/workflow-instances?filter=status=failed')).body.items[0];
    expect((await complete(admin, failed.code, 'letter')).status).toBe(409);
    // Still waiting, untouched.
    const still = (await call(admin, `/workflow-instances/${waiting!.code}`)).body
      .workflowInstance as Instance;
    expect(still.status).toBe('active');
  });

  it('refuses bad variables with a clear 400 and completes nothing', async () => {
    const [waiting] = await waitingIntakes();
    const badName = await complete(admin, waiting!.code, 'assess', {
      variables: { 'not a name': 1 },
    });
    expect(badName.status).toBe(400);
    expect(badName.body.error).toBe('validation_error');
    const notObject = await complete(admin, waiting!.code, 'assess', { variables: [1, 2] });
    expect(notObject.status).toBe(400);
    const tooBig = await complete(admin, waiting!.code, 'assess', {
      variables: { note: 'x'.repeat(25_000) },
    });
    expect(tooBig.status).toBe(400);
    const still = (await call(admin, `/workflow-instances/${waiting!.code}`)).body
      .workflowInstance as Instance;
    expect(still.status).toBe('active');
    expect(still.variables).not.toHaveProperty('note');
  });

  it('needs the run permission, and keeps each workspace to its own instances', async () => {
    const [waiting] = await waitingIntakes();
    expect((await complete(viewer, waiting!.code, 'assess')).status).toBe(403);
    expect((await complete(nord, waiting!.code, 'assess')).status).toBe(404);
    const still = (await call(admin, `/workflow-instances/${waiting!.code}`)).body
      .workflowInstance as Instance;
    expect(still.status).toBe('active');
  });

  it('completes a task of an instance resumed after a restart', async () => {
    const [waiting] = await waitingIntakes();
    await kit.restart();
    const done = await complete(admin, waiting!.code, 'assess');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    await vi.waitFor(
      async () => {
        const now = (await call(admin, `/workflow-instances/${waiting!.code}`)).body
          .workflowInstance as Instance;
        expect(now.status).toBe('completed');
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});
