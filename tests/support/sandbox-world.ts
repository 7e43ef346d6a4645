import { afterAll, beforeAll } from 'vitest';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import {
  api,
  login,
  makeTempDir,
  startTestSandbox,
  type ApiOptions,
  type ApiResponse,
  type Session,
} from '#server/sandbox/testing.ts';

/** The seeded users the insurance tests sign in as: writer, reader, bare, other tenant. */
export const INSURANCE_USERS = {
  care: 'care@demo.test',
  viewer: 'viewer@demo.test',
  noui: 'noui@demo.test',
  nord: 'admin@nordlicht.test',
} as const;

export interface SandboxWorld<U extends string> {
  sandbox: RunningSandbox;
  /** Signed-in sessions by the names the test gave them. */
  as: Record<U, Session>;
  /** A call under one service prefix with the session's bearer. */
  call(session: Session, route: string, opts?: ApiOptions): Promise<ApiResponse>;
  post(session: Session, route: string, body: unknown): Promise<ApiResponse>;
  patch(session: Session, route: string, body: unknown): Promise<ApiResponse>;
  put(session: Session, route: string, body: unknown): Promise<ApiResponse>;
}

/**
 * A real sandbox on a fresh data directory for one test file, with the given demo users signed
 * in; started before the file's tests and removed after them. The world is filled in by then.
 */
export function sandboxWorld<U extends string>(
  prefix: string,
  users: Record<U, string>,
): SandboxWorld<U> {
  const world = { as: {} } as SandboxWorld<U>;
  let removeDir: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const tmp = await makeTempDir();
    removeDir = tmp.remove;
    world.sandbox = await startTestSandbox(tmp.dir);
    const entries = Object.entries(users) as [U, string][];
    const sessions = await Promise.all(entries.map(([, email]) => login(world.sandbox.url, email)));
    entries.forEach(([name], i) => (world.as[name] = sessions[i]!));
  });
  afterAll(async () => {
    await world.sandbox?.close();
    await removeDir?.();
  });
  world.call = (session, route, opts = {}) =>
    api(world.sandbox.url, prefix + route, { token: session.accessToken, ...opts });
  world.post = (session, route, body) => world.call(session, route, { body });
  world.patch = (session, route, body) => world.call(session, route, { method: 'PATCH', body });
  world.put = (session, route, body) => world.call(session, route, { method: 'PUT', body });
  return world;
}

/** Gives a seeded user's roles exactly these permissions (the token is resolved per request). */
export async function setPermissions(
  sandbox: RunningSandbox,
  email: string,
  ...permissions: string[]
): Promise<void> {
  const roles = `SELECT ur.role_id FROM user_roles ur JOIN users u ON u.id = ur.user_id
                  WHERE u.email = $1`;
  await sandbox.db.query(`DELETE FROM role_permissions WHERE role_id IN (${roles})`, [email]);
  await sandbox.db.query(
    `INSERT INTO role_permissions (tenant_id, role_id, permission)
     SELECT ur.tenant_id, ur.role_id, p FROM user_roles ur JOIN users u ON u.id = ur.user_id,
            unnest($2::text[]) AS p
      WHERE u.email = $1`,
    [email, permissions],
  );
}
