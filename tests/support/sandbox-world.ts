import type { Queryable } from '#server/sandbox/platform/db.ts';
import type { Session, ApiResponse } from '#server/sandbox/testing.ts';
import { serviceCalls, withSandbox, type SandboxKit, type ServiceCalls } from './sandbox.ts';

export interface SandboxWorld<U extends string> extends SandboxKit<U>, ServiceCalls {
  post(session: Session, route: string, body: unknown): Promise<ApiResponse>;
  patch(session: Session, route: string, body: unknown): Promise<ApiResponse>;
  put(session: Session, route: string, body: unknown): Promise<ApiResponse>;
}

/**
 * The sandbox of `withSandbox`, with the given users signed in under the test's names, and calls
 * under one service prefix, one per method, for the files that write a lot.
 */
export function sandboxWorld<const U extends string>(
  prefix: string,
  users: Record<U, string>,
): SandboxWorld<U> {
  const kit = withSandbox(users);
  const { call, send } = serviceCalls(kit, prefix);
  // Assigned onto the kit itself: its base and sessions are filled in later, by beforeAll.
  return Object.assign(kit, {
    call,
    send,
    post: (session: Session, route: string, body: unknown) => call(session, route, { body }),
    patch: (session: Session, route: string, body: unknown) =>
      call(session, route, { method: 'PATCH', body }),
    put: (session: Session, route: string, body: unknown) =>
      call(session, route, { method: 'PUT', body }),
  });
}

/** Gives a seeded user's roles exactly these permissions (the token is resolved per request). */
export async function setPermissions(
  db: Queryable,
  email: string,
  ...permissions: string[]
): Promise<void> {
  const roles = `SELECT ur.role_id FROM user_roles ur JOIN users u ON u.id = ur.user_id
                  WHERE u.email = $1`;
  await db.query(`DELETE FROM role_permissions WHERE role_id IN (${roles})`, [email]);
  await db.query(
    `INSERT INTO role_permissions (tenant_id, role_id, permission)
     SELECT ur.tenant_id, ur.role_id, p FROM user_roles ur JOIN users u ON u.id = ur.user_id,
            unnest($2::text[]) AS p
      WHERE u.email = $1`,
    [email, permissions],
  );
}
