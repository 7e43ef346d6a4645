import { afterAll, beforeAll } from 'vitest';
import type { RunningSandbox } from '#server/sandbox/sandbox.ts';
import { login, makeTempDir, startTestSandbox, type Session } from '#server/sandbox/testing.ts';

/**
 * One sandbox per test file with the sessions the product tests act as: an administrator, a
 * product manager, a viewer, customer care and the other tenant's administrator.
 */
export interface ProductSandbox {
  sandbox: RunningSandbox;
  base: string;
  admin: Session;
  manager: Session;
  viewer: Session;
  care: Session;
  nord: Session;
}

export function productSandbox(): ProductSandbox {
  const kit = {} as ProductSandbox;
  let removeDir: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const tmp = await makeTempDir();
    removeDir = tmp.remove;
    kit.sandbox = await startTestSandbox(tmp.dir);
    kit.base = kit.sandbox.url;
    const sessions = await Promise.all(
      [
        'admin@demo.test',
        'manager@demo.test',
        'viewer@demo.test',
        'care@demo.test',
        'admin@nordlicht.test',
      ].map((email) => login(kit.base, email)),
    );
    [kit.admin, kit.manager, kit.viewer, kit.care, kit.nord] = sessions as [
      Session,
      Session,
      Session,
      Session,
      Session,
    ];
  });
  afterAll(async () => {
    await kit.sandbox?.close();
    await removeDir?.();
  });
  return kit;
}
