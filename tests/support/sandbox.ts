import { afterAll, beforeAll } from 'vitest';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import { login, makeTempDir, startTestSandbox, type Session } from '#server/sandbox/testing.ts';

/**
 * One sandbox for a test file, on a fresh data directory, with the given users signed in: the
 * setup every sandbox test needs. Read `base` and `sessions` inside the tests (they are filled in
 * by beforeAll).
 */
export function withSandbox<const E extends string>(...emails: E[]) {
  let sandbox: RunningSandbox | undefined;
  const state = {
    base: '',
    sessions: {} as Record<E, Session>,
    /** The sandbox's database, for a test that ages a row or checks what was stored. */
    db: () => {
      if (!sandbox) throw new Error('the sandbox is not started yet');
      return sandbox.db;
    },
  };
  let removeDir: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const tmp = await makeTempDir();
    removeDir = tmp.remove;
    sandbox = await startTestSandbox(tmp.dir);
    state.base = sandbox.url;
    const signedIn = await Promise.all(emails.map((email) => login(sandbox!.url, email)));
    emails.forEach((email, i) => (state.sessions[email] = signedIn[i]!));
  });
  afterAll(async () => {
    await sandbox?.close();
    await removeDir?.();
  });
  return state;
}
