import { describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { detailScreens } from './detail-routes.ts';
import { screenPaths } from './route-table.ts';
import { detailScreensOnDemand } from './router.tsx';

type Patch = (routeId: string | null, children: RouteObject[]) => void;

/** Asks the router's hook as the router would, for `path`; the patched routes' paths. */
async function ask(
  hook: ReturnType<typeof detailScreensOnDemand>,
  path: string,
  signal = new AbortController().signal,
) {
  const patch = vi.fn<Patch>();
  await hook({ path, patch, signal, matches: [], fetcherKey: undefined });
  return patch.mock.calls.map(([id, children]) => ({ id, paths: children.map((c) => c.path) }));
}

describe('the detail screens, patched in on demand', () => {
  it('are not loaded for the menu’s screens, the account’s start or outside /u', async () => {
    const hook = detailScreensOnDemand();
    for (const path of ['/u/0', '/u/0/', '/u/3/customers', '/u/0/admin/users', '/login'])
      expect(await ask(hook, path), path).toEqual([]);
  });

  it('go under the shell once, on the first address no menu screen matches', async () => {
    const hook = detailScreensOnDemand();
    const [first, ...more] = await ask(hook, '/u/0/policies/P-1');
    expect(more).toEqual([]);
    expect(first!.id).toBe('shell');
    expect(first!.paths).toContain('policies/:policyCode');
    expect(first!.paths).toHaveLength(Object.keys(detailScreens).length);
    expect(await ask(hook, '/u/0/claims/C-1')).toEqual([]);
  });

  it('are patched by the next navigation when the first was aborted', async () => {
    const hook = detailScreensOnDemand();
    const aborted = new AbortController();
    aborted.abort();
    expect(await ask(hook, '/u/0/policies/P-1', aborted.signal)).toEqual([]);
    expect(await ask(hook, '/u/0/policies/P-1')).toHaveLength(1);
  });

  it('start as a menu screen does, so that /policies/P-1 outside /u is sent into /u/0', () => {
    for (const screen of Object.values(detailScreens))
      expect(screenPaths.has(screen.path.split('/')[0]!), screen.path).toBe(true);
  });
});
