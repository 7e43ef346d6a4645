import type { APIRequestContext, Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import { batchActionMachine, pathEvents, pathsInput } from '#machines/batch-action.machine.ts';
import { describePath } from '#machines/testing/model.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';

/**
 * The batch-action machine's generated paths, walked on the users list against the real BFF and
 * sandbox: the admin disables a user, or that user and themselves (a real partial failure: the
 * service refuses to disable oneself). The user is enabled again after each path. Left out, with
 * the reason:
 * - a call failing as a whole (5xx, network), and so the `failed` state: not something a user can
 *   do;
 * - a retry that succeeds: the failed row is the admin themselves, refused every time.
 */
function walkable(state: Snapshot<unknown>, event: AnyEventObject): boolean {
  if (event.type === 'xstate.error.actor.runChunk') return false;
  if (event.type === 'xstate.done.actor.runChunk') {
    const rows = (state as unknown as { context: { rows: { state: string }[] } }).context.rows;
    const retry = rows.some((row) => row.state === 'done');
    const allOk = (event.output as { ok: boolean }[]).every((result) => result.ok);
    return !(retry && allOk);
  }
  return true;
}

const { model, paths } = modelPaths(batchActionMachine, {
  input: pathsInput,
  events: pathEvents,
  filterEvents: walkable,
});

const ADMIN = 'admin@demo.test';
// First after the admin by e-mail; enabled again after each path.
const OTHER = 'anna.albrecht0@demo.test';
const USERS = '/api/0/tenantservice/v1/users';

async function statusOf(
  api: APIRequestContext,
  email: string,
): Promise<{ id: number; status: string }> {
  const response = await api.get(`${USERS}?pageSize=5&search=${encodeURIComponent(email)}`);
  expect(response.ok()).toBe(true);
  const items = (
    (await response.json()) as { items: { id: number; email: string; status: string }[] }
  ).items;
  const user = items.find((item) => item.email === email);
  expect(user, email).toBeDefined();
  return user!;
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Disable users' });

const stateChecks: Record<string, (page: Page, api: APIRequestContext) => Promise<void>> = {
  idle: async (page) => {
    await expect(dialog(page)).toBeHidden();
  },
  confirming: async (page) => {
    // Several users are counted; one is named.
    await expect(dialog(page)).toContainText(/Selected users: \d\.|Disable .+ \(.+@.+\)\?/);
  },
  // In-flight: the next state's check sees the outcome.
  running: async () => {},
  'running.chunk': async () => {},
  'running.next': async () => {},
  done: async (page, api) => {
    await expect(page.getByText('1 done, 0 failed')).toBeVisible();
    await expect(dialog(page)).toBeHidden();
    expect((await statusOf(api, OTHER)).status).toBe('disabled');
  },
  partial: async (page, api) => {
    await expect(
      dialog(page).getByText(`1 done, 1 failed · ${ADMIN}: you cannot disable yourself`),
    ).toBeVisible();
    const rows = dialog(page).getByRole('list', { name: 'Users of this action' });
    await expect(rows.getByRole('listitem').filter({ hasText: ADMIN })).toContainText('failed');
    await expect(rows.getByRole('listitem').filter({ hasText: OTHER })).toContainText('done');
    expect((await statusOf(api, OTHER)).status).toBe('disabled');
    expect((await statusOf(api, ADMIN)).status).toBe('active');
  },
  // Not reached by the walk (see above).
  failed: async () => {},
};

test('every state of the batch-action machine has a check in the browser walk', () => {
  expectCheckForEveryState(batchActionMachine, stateChecks);
});

test.describe('batch-action paths', () => {
  // One path at a time: they all change the same user.
  test.describe.configure({ mode: 'serial' });

  for (const path of paths) {
    test(`path: ${describePath(path)}`, async ({ page, baseURL }) => {
      const api = await apiAs(baseURL!, ADMIN);
      try {
        await signIn(page, ADMIN);
        await page.goto('/u/0/admin/users');
        const table = page.getByRole('table', { name: 'Users' });
        await page.getByRole('button', { name: /^E-mail/ }).click();
        await expect(table.getByRole('row').nth(1)).toContainText(ADMIN);
        // Whether the first run of the path answers a refusal: then the admin is in the batch.
        const firstRun = path.steps.find((s) => s.event.type === 'xstate.done.actor.runChunk');
        const withSelf = (firstRun?.event.output as { ok: boolean }[] | undefined)?.some(
          (result) => !result.ok,
        );
        await walkModel(model, path, {
          states: stateChecks,
          args: [page, api],
          events: {
            'batch.start': async () => {
              if (withSelf) await table.getByRole('checkbox', { name: `Select ${ADMIN}` }).check();
              await table.getByRole('checkbox', { name: `Select ${OTHER}` }).check();
              await page.getByRole('button', { name: 'Disable selected' }).click();
            },
            'batch.confirm': async () => {
              await dialog(page).getByRole('button', { name: 'Disable' }).click();
            },
            'batch.cancel': async () => {
              await dialog(page).getByRole('button', { name: 'Cancel' }).click();
            },
            'batch.retry': async () => {
              await dialog(page).getByRole('button', { name: 'Retry the failed rows' }).click();
            },
            'batch.close': async () => {
              // A batch that was all done closes by itself.
              if (await dialog(page).isVisible()) {
                await dialog(page).getByRole('button', { name: 'Close' }).click();
              }
            },
            'xstate.done.actor.runChunk': async () => {},
          },
        });
      } finally {
        const other = await statusOf(api, OTHER);
        if (other.status === 'disabled') {
          const enabled = await api.post(`${USERS}/enable-batch`, { data: { ids: [other.id] } });
          expect(enabled.ok()).toBe(true);
        }
        await api.dispose();
      }
    });
  }
});
