import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import { login, makeTempDir, startTestSandbox, type Session } from '#server/sandbox/testing.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import { runtimeOf } from '#server/sandbox/services/processmanager/store.ts';
import { processmanagerApi } from '#tests/support/processmanager.ts';

// Timers run on the sandbox's clock, not the system's (docs/decisions/011-workflow-engine.md):
// a duration timer resumed after a restart is due when it was due before the restart, and a date
// timer at its date. Both are measured against a clock moved far from the system's, where the
// system clock's arithmetic would be hours off.

const HOUR = 3_600_000;
const clock = new MovableClock();
let sandbox: RunningSandbox;
let dir: { dir: string; remove(): Promise<void> };
let base = '';
let admin: Session;
let demoTenant = 0;
const { call, upload } = processmanagerApi({
  get base() {
    return base;
  },
});

/** Start -> one timer -> end. */
const timerFlow = (id: string, timer: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="${id}-defs" targetNamespace="https://demo.test/bpmn">
  <process id="${id}" isExecutable="true">
    <startEvent id="start"/>
    <intermediateCatchEvent id="wait"><timerEventDefinition>${timer}</timerEventDefinition></intermediateCatchEvent>
    <endEvent id="end"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="wait"/>
    <sequenceFlow id="f2" sourceRef="wait" targetRef="end"/>
  </process>
</definitions>`;

async function deploy(code: string, xml: string): Promise<number> {
  // A token from before the clock moved has expired on the sandbox clock: sign in afresh.
  admin = await login(base, 'admin@demo.test');
  const created = await upload(admin, 'POST', '/workflows', { name: code, code }, xml);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.workflow.versions[0].id as number;
}

const start = (workflowVersionId: number) =>
  runtimeOf(sandbox.db as Db).start({
    tenantId: demoTenant,
    workflowVersionId,
    entityCode: null,
    variables: {},
    by: 'test',
  });

/** The instance's status, read as a fresh sign-in (the clock moves past tokens' lifetimes). */
const statusOf = async (code: string): Promise<string> => {
  const answer = await call(await login(base, 'admin@demo.test'), `/workflow-instances/${code}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.workflowInstance.status;
};

/** The timer is armed once the instance's saved state names its due time. */
const dueAtOf = async (code: string): Promise<number | null> => {
  const [row] = await sandbox.db.query<{ timer_due_at: Date | null }>(
    'SELECT timer_due_at FROM workflow_instances WHERE code = $1',
    [code],
  );
  return row?.timer_due_at ? new Date(row.timer_due_at).getTime() : null;
};

beforeAll(async () => {
  dir = await makeTempDir();
  sandbox = await startTestSandbox(dir.dir, { clock });
  base = sandbox.url;
  admin = await login(base, 'admin@demo.test');
  demoTenant = (
    await sandbox.db.query<{ id: number }>("SELECT id FROM tenants WHERE slug = 'demo'")
  )[0]!.id;
});
afterAll(async () => {
  await sandbox?.close();
  await dir?.remove();
});

describe('timers on the sandbox clock', () => {
  it('fires a date timer at its date on the sandbox clock, however far that is from the system clock', async () => {
    // Ten hours ahead of the system clock: its arithmetic would wait twelve hours from here.
    clock.advance(10 * HOUR);
    const at = new Date(clock.now() + 2 * HOUR).toISOString();
    const version = await deploy(
      'timer-date',
      timerFlow('timer_date', `<timeDate xsi:type="tFormalExpression">${at}</timeDate>`),
    );
    const code = await start(version);
    await vi.waitFor(async () => expect(await dueAtOf(code)).toBe(Date.parse(at)));

    clock.advance(HOUR);
    expect(await statusOf(code)).toBe('active');
    clock.advance(HOUR + 60_000);
    await vi.waitFor(async () => expect(await statusOf(code)).toBe('completed'), {
      timeout: 10_000,
      interval: 50,
    });
  });

  it('resumes a duration timer after a restart when it was due, not a full duration later', async () => {
    const version = await deploy(
      'timer-resume',
      timerFlow('timer_resume', '<timeDuration xsi:type="tFormalExpression">P1D</timeDuration>'),
    );
    // The movable clock runs on with real time too: the due time is a day after arming, give
    // or take the moments arming takes.
    const armedAt = clock.now();
    const code = await start(version);
    await vi.waitFor(async () => expect(await dueAtOf(code)).not.toBeNull());
    const due = (await dueAtOf(code))!;
    expect(due - armedAt).toBeGreaterThanOrEqual(24 * HOUR);
    expect(due - armedAt).toBeLessThan(24 * HOUR + 5_000);

    // Twenty hours pass on the sandbox clock (seconds on the system's), then a restart.
    clock.advance(20 * HOUR);
    await sandbox.close();
    sandbox = await startTestSandbox(dir.dir, { clock, seed: false });
    base = sandbox.url;
    expect(await statusOf(code)).toBe('active');
    expect(await dueAtOf(code)).toBe(due);

    // Five hours more: a day since it was armed. The system clock's "what is left" would still
    // wait almost a day from the restart.
    clock.advance(5 * HOUR);
    await vi.waitFor(async () => expect(await statusOf(code)).toBe('completed'), {
      timeout: 10_000,
      interval: 50,
    });
  });
});
