import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSeededSandbox } from '#tests/support/sandbox-template.ts';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import {
  api,
  login,
  makeTempDir,
  type ApiResponse,
  type Session,
} from '#server/sandbox/testing.ts';
import { POLICY_TERMINATION_V2 } from '#server/sandbox/services/processmanager/seed-workflows.ts';

// The process manager's refusals beyond sandbox-workflows.test.ts (issue 17): the spec's error
// messages of section 8 where they apply, bad input on the writes that answer a clear 400 and
// save nothing, two cancels at once, and the monitor's version and createdAt filters.

const P = '/processmanager/v1';
let sandbox: RunningSandbox;
let dir: { dir: string; remove(): Promise<void> };
let admin: Session;
let nord: Session;

const call = (s: Session, route: string, opts: Parameters<typeof api>[2] = {}) =>
  api(sandbox.url, P + route, { token: s.accessToken, ...opts });
const list = (s: Session, route: string, filter: string) =>
  call(s, `${route}?pageSize=100&filter=${encodeURIComponent(filter)}`);

/** A multipart write as the editor sends it: fields and a BPMN file. */
async function send(method: 'POST' | 'PATCH', route: string, fields: object, file: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, String(value));
  form.set('file', new Blob([file], { type: 'application/xml' }), 'diagram.bpmn');
  const res = await fetch(sandbox.url + P + route, {
    method,
    headers: { authorization: `Bearer ${admin.accessToken}` },
    body: form,
  });
  return { status: res.status, body: await res.json() } as Pick<ApiResponse, 'status' | 'body'>;
}

/** The error answer every refusal gives: `{ error, message, issues? }`. */
const refusal = (res: Pick<ApiResponse, 'status' | 'body'>, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ error, message: expect.any(String) });
};

const workflow = async (key: string) => (await call(admin, `/workflows/${key}`)).body.workflow;

beforeAll(async () => {
  dir = await makeTempDir();
  sandbox = await startSeededSandbox(dir.dir);
  admin = await login(sandbox.url, 'admin@demo.test');
  nord = await login(sandbox.url, 'admin@nordlicht.test');
});
afterAll(async () => {
  await sandbox?.close();
  await dir?.remove();
});

describe("the spec's messages", () => {
  it("answers Can't load workflowVersions for the versions of a workflow the workspace lacks", async () => {
    const intake = await workflow('claim-intake');
    const byId = await list(admin, '/workflow_versions', `workflowId=${intake.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.items.map((v: { versionNumber: number }) => v.versionNumber).sort()).toEqual([
      1, 2,
    ]);
    expect((await list(admin, '/workflow_versions', 'workflowCode=claim-intake')).status).toBe(200);
    for (const [s, filter] of [
      [admin, 'workflowId=99999'],
      [admin, 'workflowCode=nope'],
      // Another workspace's workflow is one it does not have.
      [nord, 'workflowCode=claim-intake'],
      [nord, `workflowId=${intake.id}`],
    ] as const) {
      const res = await list(s, '/workflow_versions', filter);
      refusal(res, 404, 'not_found');
      expect(res.body.message, filter).toBe("Can't load workflowVersions");
    }
    // A workflowId that is no number stays the list's own 400.
    refusal(await list(admin, '/workflow_versions', 'workflowId=x'), 400, 'invalid_query');
  });

  it("answers Can't load, versionWorkFlowCode for a version number the workflow does not have", async () => {
    const intake = await workflow('claim-intake');
    for (const filter of [
      'workflowCode=claim-intake&versionNumber=2',
      `workflowId=${intake.id}&versionNumber=1`,
    ]) {
      const found = await list(admin, '/workflow_versions', filter);
      expect(found.status, filter).toBe(200);
      expect(found.body.items.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([
        Number(filter.split('versionNumber=')[1]),
      ]);
    }
    for (const [s, filter, message] of [
      [admin, 'workflowCode=claim-intake&versionNumber=9', "Can't load, versionWorkFlowCode"],
      [admin, `workflowId=${intake.id}&versionNumber=3`, "Can't load, versionWorkFlowCode"],
      // Both named: the number must be the named workflow's, by id and by code alike.
      [
        admin,
        `workflowId=${intake.id}&workflowCode=policy-termination&versionNumber=1`,
        "Can't load, versionWorkFlowCode",
      ],
      // The workflow itself missing stays the list's message.
      [admin, 'workflowCode=nope&versionNumber=1', "Can't load workflowVersions"],
      [nord, 'workflowCode=claim-intake&versionNumber=1', "Can't load workflowVersions"],
    ] as const) {
      const res = await list(s, '/workflow_versions', filter);
      refusal(res, 404, 'not_found');
      expect(res.body.message, filter).toBe(message);
    }
    refusal(
      await list(admin, '/workflow_versions', 'workflowCode=claim-intake&versionNumber=x'),
      400,
      'invalid_query',
    );
  });

  it("answers Can't patch, workFlowID, Can't define service event, Can't create, workflow and the delete's 501", async () => {
    const patch = await call(admin, '/workflows/99999', { method: 'PATCH', body: { name: 'X' } });
    refusal(patch, 404, 'not_found');
    expect(patch.body.message).toBe("Can't patch, workFlowID");

    const define = await call(admin, '/service-event/define', {
      body: { eventType: 'claim.created', workflowId: 99999 },
    });
    refusal(define, 404, 'not_found');
    expect(define.body.message).toBe("Can't define service event");

    const taken = await send(
      'POST',
      '/workflows',
      { name: 'Another intake', code: 'claim-intake' },
      POLICY_TERMINATION_V2,
    );
    refusal(taken, 409, 'duplicate');
    expect(taken.body.message).toMatch(/^Can't create, workflow/);
    expect((await workflow('claim-intake')).name).not.toBe('Another intake');

    const remove = await call(admin, '/decision-tables/claim-routing', { method: 'DELETE' });
    refusal(remove, 501, 'not_implemented');
    expect(remove.body.message).toBe('Method deleteDecisionTable not implemented');
    expect((await call(admin, '/decision-tables/claim-routing')).status).toBe(200);
  });
});

describe('bad input: a clear 400, nothing saved', () => {
  it('refuses a new version that is not XML or names an unknown task type, keeping name and versions', async () => {
    const before = await workflow('policy-termination');
    const notXml = await send(
      'PATCH',
      `/workflows/${before.id}`,
      { name: 'Renamed' },
      'not xml at all',
    );
    refusal(notXml, 400, 'invalid_bpmn');
    const unknown = await send(
      'PATCH',
      '/workflows/policy-termination',
      { name: 'Renamed' },
      POLICY_TERMINATION_V2.replace('notification.sendEmail', 'fax.send'),
    );
    refusal(unknown, 400, 'unknown_task_type');
    expect(unknown.body.message).toContain('fax.send');
    const after = await workflow('policy-termination');
    expect(after.name).toBe(before.name);
    expect(after.versions).toHaveLength(before.versions.length);
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  it('refuses createdAt bounds that are no ISO dates, naming the filter', async () => {
    for (const filter of [
      'createdAtFrom=yesterday',
      'createdAtTo=2026-13-45',
      'createdAtFrom=1',
      'createdAtTo=26.11.2026',
    ]) {
      const res = await list(admin, '/workflow-instances', filter);
      refusal(res, 400, 'invalid_query');
      expect(res.body.issues, filter).toEqual([
        { path: `filter.${filter.split('=')[0]}`, code: 'invalid' },
      ]);
    }
  });

  it('refuses to evaluate a decision table on a body that is not an object of variables', async () => {
    const evaluate = (opts: Parameters<typeof api>[2]) =>
      call(admin, '/decision-tables/claim-routing/evaluate', { method: 'POST', ...opts });
    for (const body of [{}, { variables: 'x' }, { variables: [1, 2] }, { variables: null }]) {
      refusal(await evaluate({ body }), 400, 'validation_error');
    }
    refusal(await evaluate({ rawBody: '{"variables": ' }), 400, 'invalid_json');
    expect((await evaluate({ body: { variables: { amount: 5 } } })).body.result).toEqual({
      route: 'fast-track',
    });
  });

  it("refuses a decision table's empty name, keeping the one it has", async () => {
    for (const name of ['', '   ']) {
      const res = await call(admin, '/decision-tables/claim-routing', {
        method: 'PATCH',
        body: { name },
      });
      refusal(res, 400, 'validation_error');
      expect(res.body.issues?.[0]?.path, JSON.stringify(name)).toBe('name');
    }
    expect((await call(admin, '/decision-tables/claim-routing')).body.decisionTable.name).toBe(
      'Claim routing',
    );
  });
});

describe('cancel', () => {
  it('lets one of several cancels at once through and answers the others 409', async () => {
    for (const status of ['active', 'failed']) {
      const target = (await list(admin, '/workflow-instances', `status=${status}`)).body.items[0];
      // Several, so that some read the instance before the first one's update.
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          call(admin, `/workflow-instances/${target.code}/cancel`, { method: 'POST' }),
        ),
      );
      expect(answers.map((a) => a.status).sort(), status).toEqual([200, ...Array(7).fill(409)]);
      const lost = answers.find((a) => a.status === 409)!;
      refusal(lost, 409, 'illegal_transition');
      expect(lost.body.message).toBe('an instance that is cancelled cannot be cancelled');
      const now = (await call(admin, `/workflow-instances/${target.code}`)).body.workflowInstance;
      expect(now.status).toBe('cancelled');
    }
  });
});

describe('cancel, the race made certain', () => {
  it('answers 409 when another cancel moved the instance between the check and the update', async () => {
    const target = (await list(admin, '/workflow-instances', 'status=active')).body.items[0];
    // The other cancel wins just before this one's update: run at the database, in between.
    const db = sandbox.db as { query: (sql: string, params?: unknown[]) => Promise<unknown[]> };
    const query = db.query.bind(db);
    db.query = async (sql, params) => {
      if (sql.includes("SET status = 'cancelled'")) {
        db.query = query;
        await query(
          `UPDATE workflow_instances SET status = 'cancelled', updated_by = 'other' WHERE code = $1`,
          [target.code],
        );
      }
      return query(sql, params);
    };
    try {
      const lost = await call(admin, `/workflow-instances/${target.code}/cancel`, {
        method: 'POST',
      });
      refusal(lost, 409, 'illegal_transition');
      expect(lost.body.message).toBe('an instance that is cancelled cannot be cancelled');
    } finally {
      db.query = query;
    }
    // The winner's cancel stands: nobody wrote over it.
    const [row] = await sandbox.db.query<{ updated_by: string }>(
      'SELECT updated_by FROM workflow_instances WHERE code = $1',
      [target.code],
    );
    expect(row!.updated_by).toBe('other');
  });
});

describe('cancel beside a retry', () => {
  it('wins: a cancel that lands as a retry starts leaves the retry no task to run', async () => {
    const termination = await workflow('policy-termination');
    const failed = (
      await list(admin, '/workflow-instances', `workflowId=${termination.id}&status=failed`)
    ).body.items;
    // The oldest: the other cancels take the newest.
    const target = failed.at(-1);
    expect(target.error.taskKey).toBe('letter');
    const letters = async () =>
      Number(
        (
          await sandbox.db.query<{ n: string }>(
            `SELECT count(*) AS n FROM outbox_emails o JOIN policies p ON p.code = $1
              WHERE o.subject = 'Kündigung des Vertrags ' || p.policy_number`,
            [target.entityCode],
          )
        )[0]!.n,
      );
    const before = await letters();
    // The cancel runs, and answers, right after the retry took the instance back to active and
    // before the retry's engine resumes it: the letter, the retry's task, must not be sent.
    const db = sandbox.db as { query: (sql: string, params?: unknown[]) => Promise<unknown[]> };
    const query = db.query.bind(db);
    let cancel: Pick<ApiResponse, 'status' | 'body'> | null = null;
    db.query = async (sql, params) => {
      const result = await query(sql, params);
      if (sql.includes("SET status = 'active', error = NULL")) {
        db.query = query;
        cancel = await call(admin, `/workflow-instances/${target.code}/cancel`, {
          method: 'POST',
        });
      }
      return result;
    };
    let retry: Pick<ApiResponse, 'status' | 'body'>;
    try {
      retry = await call(admin, `/workflow-instances/${target.code}/retry`, { method: 'POST' });
    } finally {
      db.query = query;
    }
    expect(cancel!.status, JSON.stringify(cancel!.body)).toBe(200);
    expect(cancel!.body.workflowInstance.status).toBe('cancelled');
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.workflowInstance.status).toBe('cancelled');
    const now = (await call(admin, `/workflow-instances/${target.code}`)).body.workflowInstance;
    expect(now.status).toBe('cancelled');
    expect(
      now.history.some(
        (s: { key: string; event: string }) => s.key === 'letter' && s.event === 'end',
      ),
    ).toBe(false);
    expect(await letters()).toBe(before);
  });
});

describe('monitor filters', () => {
  it('narrows to one version with workflowVersionId', async () => {
    const intake = await workflow('claim-intake');
    const all = await list(admin, '/workflow-instances', `workflowId=${intake.id}`);
    let seen = 0;
    for (const version of intake.versions) {
      const res = await list(admin, '/workflow-instances', `workflowVersionId=${version.id}`);
      expect(res.status).toBe(200);
      for (const i of res.body.items) {
        expect(i.workflowVersion).toEqual({ id: version.id, versionNumber: version.versionNumber });
      }
      seen += res.body.totalItems;
    }
    expect(seen).toBe(all.body.totalItems);
    expect(seen).toBeGreaterThan(0);
    // With another workflow's id the two filters leave nothing.
    const other = await workflow('policy-termination');
    const none = await list(
      admin,
      '/workflow-instances',
      `workflowVersionId=${intake.versions[0].id}&workflowId=${other.id}`,
    );
    expect(none.body.items).toEqual([]);
    refusal(await list(admin, '/workflow-instances', 'workflowVersionId=x'), 400, 'invalid_query');
  });

  it('holds createdAtTo inclusive, at the millisecond shown though the column keeps microseconds', async () => {
    const target = (await list(admin, '/workflow-instances', 'status=completed')).body.items[0];
    await sandbox.db.query(
      `UPDATE workflow_instances SET created_at = '2026-01-15T10:00:00.123456Z' WHERE code = $1`,
      [target.code],
    );
    const shown = (await call(admin, `/workflow-instances/${target.code}`)).body.workflowInstance
      .createdAt;
    expect(shown).toBe('2026-01-15T10:00:00.123Z');
    const codes = async (filter: string) => {
      const res = await list(admin, '/workflow-instances', filter);
      expect(res.status, filter).toBe(200);
      return res.body.items.map((i: { code: string }) => i.code);
    };
    expect(await codes(`createdAtFrom=${shown}&createdAtTo=${shown}`)).toContain(target.code);
    expect(await codes('createdAtTo=2026-01-15T10:00:00.122Z')).not.toContain(target.code);
    expect(await codes('createdAtFrom=2026-01-15T10:00:00.124Z')).not.toContain(target.code);
    // A day as the end is the whole day; the day before is not.
    expect(await codes('createdAtFrom=2026-01-15&createdAtTo=2026-01-15')).toContain(target.code);
    expect(await codes('createdAtTo=2026-01-14')).not.toContain(target.code);
  });
});
