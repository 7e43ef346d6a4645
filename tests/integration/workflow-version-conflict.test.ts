import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSeededSandbox } from '#tests/support/sandbox-template.ts';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import { api, login, makeTempDir, type Session } from '#server/sandbox/testing.ts';
import {
  POLICY_TERMINATION_V1,
  POLICY_TERMINATION_V2,
} from '#server/sandbox/services/processmanager/seed-workflows.ts';

// The workflow editor's save on top of the version it loaded (PATCH /workflows/:id with
// `baseVersionNumber`): a save since then makes it stale, 409 `version_conflict`, nothing saved.

const P = '/processmanager/v1';

interface Answer {
  error?: string;
  latestVersionNumber?: number;
  workflow: { versions: { versionNumber: number }[] };
}
let sandbox: RunningSandbox;
let dir: { dir: string; remove(): Promise<void> };
let admin: Session;

async function patch(id: number | string, fields: Record<string, string>, file: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([file], { type: 'application/xml' }), 'diagram.bpmn');
  const res = await fetch(`${sandbox.url}${P}/workflows/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${admin.accessToken}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

const versionCount = async (id: number) =>
  (
    (await api(sandbox.url, `${P}/workflows/${id}`, { token: admin.accessToken })).body as {
      workflow: { versions: unknown[] };
    }
  ).workflow.versions.length;

beforeAll(async () => {
  dir = await makeTempDir();
  sandbox = await startSeededSandbox(dir.dir);
  admin = await login(sandbox.url, 'admin@demo.test');
});
afterAll(async () => {
  await sandbox?.close();
  await dir?.remove();
});

describe('saving a workflow version on top of the one loaded', () => {
  it('saves on the latest version and refuses a stale base with 409 version_conflict', async () => {
    const workflow = (
      await api(sandbox.url, `${P}/workflows/policy-termination`, { token: admin.accessToken })
    ).body.workflow as { id: number; versions: { versionNumber: number }[] };
    expect(workflow.versions.map((v) => v.versionNumber)).toEqual([1, 2]);

    // On the latest (2): saved as 3.
    const saved = await patch(workflow.id, { baseVersionNumber: '2' }, POLICY_TERMINATION_V1);
    expect(saved.status).toBe(200);
    expect(saved.body.workflow.versions.at(-1)?.versionNumber).toBe(3);

    // Still on 2 (someone saved 3 meanwhile): refused, the latest named, nothing saved.
    const stale = await patch(workflow.id, { baseVersionNumber: '2' }, POLICY_TERMINATION_V2);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'version_conflict', latestVersionNumber: 3 });
    expect(await versionCount(workflow.id)).toBe(3);

    // "Save anyway": without a base the save is the next version.
    const anyway = await patch(workflow.id, {}, POLICY_TERMINATION_V2);
    expect(anyway.status).toBe(200);
    expect(anyway.body.workflow.versions.at(-1)?.versionNumber).toBe(4);
  });

  it('refuses a base that is not a version number with 400', async () => {
    const bad = await patch(
      'policy-termination',
      { baseVersionNumber: 'two' },
      POLICY_TERMINATION_V2,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_error');
  });
});
