import { expect, vi } from 'vitest';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { api, apiUpload, type ApiResponse, type Session } from '#server/sandbox/testing.ts';
import { serviceCalls, type ServiceCalls } from './sandbox.ts';

/** The process manager's prefix in the sandbox (issue 17). */
export const PROCESSMANAGER = '/processmanager/v1';

/**
 * The process manager's calls as its integration tests make them, against a kit whose address
 * is known once its `beforeAll` ran: JSON calls under the service's prefix, and the multipart
 * upload of a BPMN or DMN file (`file` null: the form without one, which the service refuses).
 */
export function processmanagerApi(kit: { readonly base: string }): ServiceCalls & {
  upload(
    s: Session,
    method: string,
    route: string,
    fields: Record<string, string>,
    file: string | null,
    filename?: string,
  ): Promise<ApiResponse>;
} {
  return {
    ...serviceCalls(kit, PROCESSMANAGER),
    upload: (s, method, route, fields, file, filename = 'diagram.bpmn') =>
      apiUpload(kit.base, PROCESSMANAGER + route, {
        method,
        token: s.accessToken,
        fields,
        ...(file === null ? {} : { file: { name: filename, text: file, type: 'application/xml' } }),
      }),
  };
}

/** Lets Vera (show-only) read workflows and decision tables, not run or change them. */
export async function grantWorkflowView(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO role_permissions (tenant_id, role_id, permission)
     SELECT r.tenant_id, r.id, 'process-management.workflows.view' FROM roles r
      WHERE r.code = 'show-only'`,
  );
}

/**
 * A workflow instance as `session` reads it, and a wait until the engine has settled it in a
 * status (the instance's error named when it settles in another).
 */
export function instanceReader(calls: Pick<ServiceCalls, 'call'>, session: Session) {
  const instance = async (code: string) =>
    (await calls.call(session, `/workflow-instances/${code}`)).body.workflowInstance;
  const settledAs = (code: string, status: string) =>
    vi.waitFor(
      async () => {
        const found = await instance(code);
        expect(found.status, JSON.stringify(found.error)).toBe(status);
      },
      { timeout: 10_000, interval: 50 },
    );
  return { instance, settledAs };
}

/**
 * A damage claim on the workspace's oldest policy, the day after it started, created through the
 * claim API as `session`: its `claim.created` event starts the workflows bound to it (claim
 * intake). With an estimate, the decision table routes on it.
 */
export async function newClaim(
  kit: { readonly base: string },
  session: Session,
  estimatedDamage?: number,
): Promise<{ code: string; status: string }> {
  const policy = (
    await api(kit.base, '/insuranceservice/v1/policies?pageSize=1&order=id:ASC', {
      token: session.accessToken,
    })
  ).body.items[0];
  const created = await api(kit.base, '/claimservice/v1/claims', {
    token: session.accessToken,
    body: {
      policyCode: policy.code,
      title: 'Broken window',
      description: 'A ball.',
      damageDate: new Date(Date.parse(policy.policyStartDate) + 86_400_000)
        .toISOString()
        .slice(0, 10),
      claimType: 'damage',
      customFields: {
        damageLocation: 'Berlin',
        ...(estimatedDamage === undefined ? {} : { estimatedDamage }),
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.claim;
}
