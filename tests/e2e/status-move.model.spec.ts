import type { APIRequestContext, Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import { pathEvents, pathsInput, statusMoveMachine } from '#machines/status-move.machine.ts';
import { describePath } from '#machines/testing/model.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';

/**
 * The status-move machine's generated paths, walked on a lead's page against the real BFF and
 * sandbox, each on a seeded lead in status New of its own. The tenant's rules allow Contacted and
 * Declined from New; the model's sample move stands for "Move to Contacted". Left out, with the
 * reason:
 * - a choice the rules do not allow: the page offers only the allowed moves as buttons;
 * - `rules.loaded` / `record.changed`: the page's own reads, not a user's action (a refusal's
 *   reload is checked in the `refused` state);
 * - a move failing without an answer (5xx, network), and so the `failed` state: not something a
 *   user can do.
 */
function walkable(state: Snapshot<unknown>, event: AnyEventObject): boolean {
  if (event.type === 'move.choose') {
    // After the move the lead is Contacted: "Move to Contacted" is no longer offered.
    const value = (state as unknown as { value: unknown }).value;
    return event.to === 'in_progress' && JSON.stringify(value) === '{"ready":"idle"}';
  }
  if (event.type === 'rules.loaded' || event.type === 'record.changed') return false;
  if (event.type === 'xstate.error.actor.moveStatus') return event.error?.status === 409;
  return true;
}

const { model, paths } = modelPaths(statusMoveMachine, {
  input: pathsInput,
  events: pathEvents,
  filterEvents: walkable,
});

const LEADS = '/api/0/insuranceservice/v1/leads';

interface Lead {
  code: string;
  status: string;
  version: number;
}

async function readLead(api: APIRequestContext, code: string): Promise<Lead> {
  const response = await api.get(`${LEADS}/${code}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { lead: Lead }).lead;
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Move to Contacted?' });

const stateChecks: Record<
  string,
  (page: Page, api: APIRequestContext, code: string) => Promise<void>
> = {
  ready: async () => {},
  'ready.idle': async (page) => {
    await expect(dialog(page)).toBeHidden();
    await expect(page.getByTestId('lead-moves')).toBeVisible();
  },
  'ready.moved': async (page, api, code) => {
    await expect(dialog(page)).toBeHidden();
    await expect(page.getByTestId('lead-status')).toHaveText('Contacted');
    // The service has the move too.
    expect((await readLead(api, code)).status).toBe('contacted');
  },
  confirming: async (page) => {
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole('alert')).toHaveCount(0);
  },
  moving: async () => {},
  refused: async (page, api, code) => {
    // The reason in the user's words, from the error code; no retry of a refused move.
    await expect(dialog(page).getByRole('alert')).toHaveText(/^Not moved: /);
    await expect(dialog(page).getByRole('button', { name: 'Move to Contacted' })).toBeDisabled();
    // The service kept the colleague's move.
    expect((await readLead(api, code)).status).toBe('declined');
  },
  // Not reached by the walk (see above).
  failed: async () => {},
};

test('every state of the status-move machine has a check in the browser walk', () => {
  expectCheckForEveryState(statusMoveMachine, stateChecks);
});

test.describe('status-move paths', () => {
  let leads: string[] = [];
  test.beforeAll(async ({ baseURL }) => {
    const api = await apiAs(baseURL!, 'care@demo.test');
    const response = await api.get(`${LEADS}?pageSize=100&filter=status%3Dnew`);
    expect(response.ok()).toBe(true);
    leads = ((await response.json()) as { items: Lead[] }).items.map((lead) => lead.code);
    await api.dispose();
  });

  paths.forEach((path, index) => {
    test(`path: ${describePath(path)}`, async ({ page, baseURL }) => {
      // From the end of the list: other specs take seeded leads from its start.
      const code = leads[leads.length - 1 - index];
      expect(code, 'a seeded lead in status New for this path').toBeDefined();
      const api = await apiAs(baseURL!, 'care@demo.test');
      try {
        await signIn(page, 'care@demo.test');
        await page.goto(`/u/0/leads/${code}`);
        await expect(page.getByTestId('lead-status')).toHaveText('New');
        await walkModel(model, path, {
          states: stateChecks,
          args: [page, api, code!],
          events: {
            'move.choose': async () => {
              await page
                .getByTestId('lead-moves')
                .getByRole('button', { name: 'Move to Contacted' })
                .click();
            },
            'move.confirm': async (step) => {
              if (step.next()?.type === 'xstate.error.actor.moveStatus') {
                // A colleague declines the lead meanwhile: the page's move is refused.
                const lead = await readLead(api, code!);
                const declined = await api.patch(`${LEADS}/${code}`, {
                  data: { version: lead.version, status: 'declined' },
                });
                expect(declined.ok()).toBe(true);
              }
              await dialog(page).getByRole('button', { name: 'Move to Contacted' }).click();
            },
            'move.cancel': async () => {
              await dialog(page).getByRole('button', { name: 'Cancel' }).click();
            },
            'move.dismiss': async () => {
              await dialog(page).getByRole('button', { name: 'Cancel' }).click();
              // The refusal brought the page up to date.
              await expect(page.getByTestId('lead-status')).toHaveText('Declined');
            },
            'xstate.done.actor.moveStatus': async () => {},
            'xstate.error.actor.moveStatus': async () => {},
          },
        });
      } finally {
        await api.dispose();
      }
    });
  });
});
