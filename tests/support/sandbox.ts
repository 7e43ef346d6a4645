import { afterAll, beforeAll } from 'vitest';
import type { Clock } from '#common/clock.ts';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import {
  api,
  login,
  makeTempDir,
  startTestSandbox,
  type ApiOptions,
  type ApiResponse,
  type Session,
} from '#server/sandbox/testing.ts';
import { startSeededSandbox } from './sandbox-template.ts';

/** The seeded users the insurance tests sign in as: writer, reader, bare, other tenant. */
export const INSURANCE_USERS = {
  care: 'care@demo.test',
  viewer: 'viewer@demo.test',
  noui: 'noui@demo.test',
  nord: 'admin@nordlicht.test',
} as const;

/** The seeded users the product tests sign in as: the insurance ones bar noui, plus the makers. */
export const PRODUCT_USERS = {
  admin: 'admin@demo.test',
  manager: 'manager@demo.test',
  viewer: 'viewer@demo.test',
  care: 'care@demo.test',
  nord: 'admin@nordlicht.test',
} as const;

/** What a test file reads of its sandbox; filled in by beforeAll, so read it inside the tests. */
export interface SandboxKit<N extends string> {
  /** The sandbox's address, the first argument of `api`. */
  readonly base: string;
  /**
   * The signed-in users: by e-mail when given as a list, by the test's names when given a map.
   * Each reads the session beforeAll signed in, so it can be taken apart at the top of the file
   * (`const { care } = kit.sessions`) and used in the tests.
   */
  readonly sessions: Readonly<Record<N, Session>>;
  /** The sandbox's database, for a test that ages a row or checks what was stored. */
  db(): Queryable;
  /** Signs every user in again, as after the clock moved past the access tokens' lifetime. */
  signIn(): Promise<void>;
  /**
   * Closes the sandbox and starts it again on the same data directory, without seeding, as a
   * restarted server would; the users are signed in again.
   */
  restart(): Promise<void>;
}

export interface SandboxKitOptions {
  /** The sandbox's clock, for a test that moves time (token lifetimes, timers, sweeps). */
  clock?: Clock;
}

/**
 * One sandbox for a test file, on a fresh data directory, with the given users signed in: the
 * setup every sandbox test needs. Name the users by e-mail (`withSandbox('care@demo.test')`, then
 * `sessions['care@demo.test']`) or give them names (`withSandbox({ care: 'care@demo.test' })`,
 * then `sessions.care`).
 */
export function withSandbox<const E extends string>(...emails: E[]): SandboxKit<E>;
export function withSandbox<const N extends string>(
  users: Record<N, string>,
  options?: SandboxKitOptions,
): SandboxKit<N>;
export function withSandbox(
  ...args: [Record<string, string>, SandboxKitOptions?] | string[]
): SandboxKit<string> {
  const users: [string, string][] =
    typeof args[0] === 'object'
      ? Object.entries(args[0])
      : (args as string[]).map((email) => [email, email]);
  const options = (typeof args[0] === 'object' ? args[1] : undefined) as
    SandboxKitOptions | undefined;
  const clock = options?.clock ? { clock: options.clock } : {};
  let sandbox: RunningSandbox | undefined;
  const signedIn = new Map<string, Session>();
  const session = (name: string): Session => {
    const found = signedIn.get(name);
    if (!found) throw new Error(`${name} is not signed in yet: read sessions inside the tests`);
    return found;
  };
  const state = {
    base: '',
    sessions: Object.fromEntries(
      users.map(([name]): [string, Session] => [
        name,
        {
          get accessToken() {
            return session(name).accessToken;
          },
          get permissions() {
            return session(name).permissions;
          },
          get cookie() {
            return session(name).cookie;
          },
        },
      ]),
    ),
    db: () => {
      if (!sandbox) throw new Error('the sandbox is not started yet');
      return sandbox.db;
    },
    signIn: async () => {
      const sessions = await Promise.all(users.map(([, email]) => login(state.base, email)));
      users.forEach(([name], i) => signedIn.set(name, sessions[i]!));
    },
    restart: async () => {
      await sandbox?.close();
      sandbox = await startTestSandbox(dataDir, { ...clock, seed: false });
      state.base = sandbox.url;
      await state.signIn();
    },
  };
  let dataDir = '';
  let removeDir: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const tmp = await makeTempDir();
    dataDir = tmp.dir;
    removeDir = tmp.remove;
    sandbox = await startSeededSandbox(tmp.dir, clock);
    state.base = sandbox.url;
    await state.signIn();
  });
  afterAll(async () => {
    await sandbox?.close();
    await removeDir?.();
  });
  return state;
}

/** Calls as a signed-in user under one service prefix (`/claimservice/v1`, …) of a kit's sandbox. */
export interface ServiceCalls {
  /** A GET, or whatever `opts` says, with the session's bearer. */
  call(session: Session, route: string, opts?: ApiOptions): Promise<ApiResponse>;
  /** A write: the method and, when given, a JSON body. */
  send(session: Session, method: string, route: string, body?: unknown): Promise<ApiResponse>;
}

export function serviceCalls(kit: { readonly base: string }, prefix: string): ServiceCalls {
  const call: ServiceCalls['call'] = (session, route, opts = {}) =>
    api(kit.base, prefix + route, { token: session.accessToken, ...opts });
  return { call, send: (session, method, route, body) => call(session, route, { method, body }) };
}
