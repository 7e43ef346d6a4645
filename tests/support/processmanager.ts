import type { Queryable } from '#server/sandbox/platform/db.ts';
import { apiUpload, type ApiResponse, type Session } from '#server/sandbox/testing.ts';
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
