import type { APIRequestContext, Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import { pathEvents, pathsInput, statusMoveMachine } from '#machines/status-move.machine.ts';
import { describePath } from '#machines/testing/model.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';
import { createHomePolicy, isoDay } from './policy-setup.ts';

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

/** A record as the service holds it now: `{ [key]: record }` at `url`. */
async function readRecord<T>(api: APIRequestContext, url: string, key: string): Promise<T> {
  const response = await api.get(url);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Record<string, T>)[key]!;
}

const readLead = (api: APIRequestContext, code: string) =>
  readRecord<Lead>(api, `${LEADS}/${code}`, 'lead');

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

/**
 * The same paths on a claim's page: a new claim of its own per path (status Open), whose rules
 * allow In review and Rejected; the model's sample move stands for "In review", chosen in the
 * status select and confirmed. A colleague's rejection makes the refusal: Rejected may not move
 * to In review. Left out as on the lead.
 */
const CARE = 'felix.wagner@demo.test';
const CLAIMS = '/api/0/claimservice/v1/claims';
const CSRF = { 'X-CSRF': '1' };

interface Claim {
  code: string;
  status: string;
  version: number;
}

const readClaim = (api: APIRequestContext, code: string) =>
  readRecord<Claim>(api, `${CLAIMS}/${code}`, 'claim');

/** A claim of the path's own on a new policy, through the signed-in page's session. */
async function createClaim(page: Page): Promise<string> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const policy = await createHomePolicy(page, { firstName: 'Moritz', lastName: `Zug ${stamp}` });
  const created = await page.request.post(CLAIMS, {
    headers: CSRF,
    data: {
      policyCode: policy.code,
      title: `Pipe burst ${stamp}`,
      claimType: 'damage',
      damageDate: isoDay(-2),
      customFields: { damageLocation: 'Keller' },
    },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { claim: Claim }).claim.code;
}

const claimDialog = (page: Page) => page.getByRole('dialog', { name: 'Move to In review?' });
const statusSelect = (page: Page) => page.getByRole('combobox', { name: 'Move to status' });

const claimChecks: typeof stateChecks = {
  ready: async () => {},
  'ready.idle': async (page) => {
    await expect(claimDialog(page)).toBeHidden();
    await expect(statusSelect(page)).toBeVisible();
  },
  'ready.moved': async (page, api, code) => {
    await expect(claimDialog(page)).toBeHidden();
    await expect(page.getByTestId('claim-status')).toHaveText('In review');
    // The choice is reset; the service has the move too.
    await expect(statusSelect(page)).toHaveValue('');
    expect((await readClaim(api, code)).status).toBe('in-review');
  },
  confirming: async (page) => {
    await expect(claimDialog(page)).toBeVisible();
    await expect(claimDialog(page).getByRole('alert')).toHaveCount(0);
  },
  moving: async () => {},
  refused: async (page, api, code) => {
    await expect(claimDialog(page).getByRole('alert')).toHaveText(
      'Not moved: a claim in “Rejected” cannot move to “In review”. The page shows the saved claim.',
    );
    await expect(
      claimDialog(page).getByRole('button', { name: 'Move to In review' }),
    ).toBeDisabled();
    // The page shows the claim the refusal carried, behind the dialog.
    await expect(page.getByTestId('claim-status')).toHaveText('Rejected');
    expect((await readClaim(api, code)).status).toBe('rejected');
  },
  failed: async () => {},
};

test('the claim walk checks every state of the status-move machine', () => {
  expectCheckForEveryState(statusMoveMachine, claimChecks);
});

test.describe('status-move paths on a claim', () => {
  paths.forEach((path) => {
    test(`claim path: ${describePath(path)}`, async ({ page, baseURL }) => {
      const api = await apiAs(baseURL!, CARE);
      try {
        await signIn(page, CARE);
        const code = await createClaim(page);
        await page.goto(`/u/0/claims/${code}`);
        await expect(page.getByTestId('claim-status')).toHaveText('Open');
        await walkModel(model, path, {
          states: claimChecks,
          args: [page, api, code],
          events: {
            'move.choose': async () => {
              await statusSelect(page).selectOption({ label: 'In review' });
              await page.getByRole('button', { name: 'Change status' }).click();
            },
            'move.confirm': async (step) => {
              if (step.next()?.type === 'xstate.error.actor.moveStatus') {
                // A colleague rejects the claim meanwhile: the page's move is refused.
                const claim = await readClaim(api, code);
                const rejected = await api.patch(`${CLAIMS}/${code}`, {
                  data: { version: claim.version, status: 'rejected' },
                });
                expect(rejected.ok()).toBe(true);
              }
              await claimDialog(page).getByRole('button', { name: 'Move to In review' }).click();
            },
            'move.cancel': async () => {
              await claimDialog(page).getByRole('button', { name: 'Cancel' }).click();
              // Nothing moved; the choice stays for another try.
              await expect(statusSelect(page)).toHaveValue('in-review');
            },
            'move.dismiss': async () => {
              await claimDialog(page).getByRole('button', { name: 'Cancel' }).click();
              // The moves are those from Rejected now.
              await expect(statusSelect(page).getByRole('option')).toHaveText([
                'Choose a status',
                'Closed',
                'Open',
              ]);
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
