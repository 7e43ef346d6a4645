import type { APIRequestContext, Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import {
  decisionTableEditorMachine,
  pathEvents,
  pathsInput,
} from '#machines/decision-table-editor.machine.ts';
import { describePath } from '#machines/testing/model.ts';
import { CLAIM_ROUTING_DMN } from '#server/sandbox/services/processmanager/seed-workflows.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';

/**
 * The decision table editor's generated paths, walked on a table of each path's own (a copy of
 * the seeded claim routing with two versions, created through the API) against the real BFF and
 * sandbox. Left out, with the reason:
 * - `load.retry`: a missing table (the failed load the walk produces) offers no retry; the
 *   retry of a load that failed otherwise (no answer) is not something a user can cause;
 * - a refusal or a conflict after "save anyway": that save skips the check for a newer version,
 *   and the walk's refused save is made by the user's own invalid entry, which a conflict's
 *   read-only grid does not take;
 * - an older version or a missing table after a conflict's reload: it reads the latest.
 */
function walkable(state: Snapshot<unknown>, event: AnyEventObject): boolean {
  // A rename changes the name only (a root event the model would loop in every state); the
  // heading's rename is no part of the version flow.
  if (event.type === 'load.retry' || event.type === 'table.renamed') return false;
  const { force, loaded, saveRefusal } = (
    state as unknown as { context: { force: boolean; loaded: unknown; saveRefusal: unknown } }
  ).context;
  // The alert's dismiss button is there only with a refusal to dismiss.
  if (event.type === 'failure.dismiss') return saveRefusal !== null;
  if (event.type === 'xstate.error.actor.saveVersion') return !force;
  // The load after a conflict reads the latest version, which exists.
  if (loaded !== null && event.type === 'xstate.error.actor.loadVersion') return false;
  if (loaded !== null && event.type === 'xstate.done.actor.loadVersion')
    return event.output.versionNumber === event.output.latestVersionNumber;
  return true;
}

// A path takes 10 to 20 s on a quiet machine; the shared CI box runs several at once.
test.describe.configure({ timeout: 120_000 });

const { model, paths } = modelPaths(decisionTableEditorMachine, {
  input: pathsInput,
  events: pathEvents,
  filterEvents: walkable,
});

const ADMIN = 'admin@demo.test';
const TABLES = '/api/0/processmanager/v1/decision-tables';
const AMOUNT = 'Estimated amount (cents)';
const MINE = '<= 12345';
const THEIRS = '<= 777';
const INVALID = '<= (1';

const tablePage = (code: string) => `/u/0/management/decision-tables/${code}`;
const threshold = (page: Page) => page.getByRole('textbox', { name: `Rule 2, ${AMOUNT}` });
const unsaved = (page: Page) => page.getByText('Unsaved changes', { exact: true });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save as new version' });
const conflictAlert = (page: Page) =>
  page.getByRole('alert').filter({ hasText: 'Someone saved a newer version' });

const dmnFile = (xml: string) => ({
  name: 'table.dmn',
  mimeType: 'application/xml',
  buffer: Buffer.from(xml),
});

/** A copy of the claim routing with a second version (so that version 1 is an older one). */
async function createTable(api: APIRequestContext, code: string) {
  const created = await api.post(TABLES, {
    multipart: { code, name: `Model ${code}`, file: dmnFile(CLAIM_ROUTING_DMN) },
  });
  expect(created.status(), await created.text()).toBe(201);
  await saveMeanwhile(api, code, '<= 100000');
}

/** A colleague's version through the API, on top of the latest. */
async function saveMeanwhile(api: APIRequestContext, code: string, test: string) {
  const xml = CLAIM_ROUTING_DMN.replace('&lt;= 100000', test.replace('<', '&lt;'));
  const saved = await api.put(`${TABLES}/${code}`, { multipart: { file: dmnFile(xml) } });
  expect(saved.ok(), await saved.text()).toBe(true);
}

const stateChecks: Record<
  string,
  (page: Page, api: APIRequestContext, code: string) => Promise<void>
> = {
  // Before the walk's first step; what follows shows what the load answered.
  loading: async () => {},
  failed: async (page) => {
    await expect(
      page.getByText("This decision table does not exist (Can't create or load decision table)."),
    ).toBeVisible();
  },
  viewing: async (page) => {
    await expect(page.getByText('You are viewing version 1, an older version.')).toBeVisible();
    await expect(threshold(page)).toHaveAttribute('readonly', '');
    await expect(saveButton(page)).toHaveCount(0);
  },
  editing: async (page) => {
    await expect(saveButton(page)).toBeDisabled();
    await expect(unsaved(page)).toBeHidden();
    await expect(conflictAlert(page)).toHaveCount(0);
  },
  dirty: async (page) => {
    await expect(unsaved(page)).toBeVisible();
    await expect(saveButton(page)).toBeEnabled();
    await expect(conflictAlert(page)).toHaveCount(0);
  },
  // Lasts a moment; the next state's check sees the outcome.
  saving: async () => {},
  conflict: async (page) => {
    await expect(conflictAlert(page)).toBeVisible();
    await expect(threshold(page)).toHaveAttribute('readonly', '');
  },
};

test('every state of the decision table editor has a check in the browser walk', () => {
  expectCheckForEveryState(decisionTableEditorMachine, stateChecks);
});

for (const path of paths) {
  test(`path: ${describePath(path)}`, async ({ page, baseURL }) => {
    const api = await apiAs(baseURL!, ADMIN);
    try {
      const code = `model-${Date.now().toString(36)}${test.info().testId.slice(0, 6)}`;
      await createTable(api, code);
      await signIn(page, ADMIN);

      await walkModel(model, path, {
        states: stateChecks,
        args: [page, api, code],
        events: {
          // The load answers what the address asks: the latest, an older version, or a table
          // that does not exist. After a conflict the page reloads by itself.
          'xstate.done.actor.loadVersion': async (step) => {
            const from = step.from as { context?: { loaded: unknown } } | undefined;
            if (from?.context?.loaded) return;
            const output = step.event.output as {
              versionNumber: number;
              latestVersionNumber: number;
            };
            const older = output.versionNumber < output.latestVersionNumber;
            await page.goto(older ? `${tablePage(code)}/1` : tablePage(code));
            await expect(
              page.getByRole('heading', { level: 1, name: `Model ${code}` }),
            ).toBeVisible();
          },
          'xstate.error.actor.loadVersion': async () => {
            await page.goto(tablePage(`${code}-missing`));
          },
          'table.edit': async () => {
            await threshold(page).fill(MINE);
          },
          'table.save': async (step) => {
            const answer = step.next();
            if (answer?.type === 'xstate.error.actor.saveVersion') {
              if (answer.error?.kind === 'conflict') await saveMeanwhile(api, code, THEIRS);
              // The service refuses FEEL that does not parse; the user typed some.
              else await threshold(page).fill(INVALID);
            }
            // A save the service takes: an entry refused before is corrected first.
            if (
              answer?.error?.kind !== 'refused' &&
              (await threshold(page).inputValue()) === INVALID
            )
              await threshold(page).fill(MINE);
            await saveButton(page).click();
          },
          'xstate.done.actor.saveVersion': async () => {
            await expect(page.getByText(/^Version \d+ saved\.$/).first()).toBeVisible();
          },
          'xstate.error.actor.saveVersion': async (step) => {
            if (step.event.error?.kind !== 'refused') return;
            await expect(
              page.getByRole('alert').filter({ hasText: 'The decision table was not accepted' }),
            ).toContainText('The decision table was not accepted: rule 2, input 1');
            // Every change stays: the entry the service refused is still there to correct.
            await expect(threshold(page)).toHaveValue(INVALID);
          },
          'table.discard': async () => {
            await page.getByRole('button', { name: 'Discard changes' }).click();
          },
          'failure.dismiss': async () => {
            await page
              .getByRole('alert')
              .filter({ hasText: 'The decision table was not accepted' })
              .getByRole('button', { name: 'Dismiss' })
              .click();
          },
          'conflict.reload': async () => {
            await page
              .getByRole('button', { name: 'Load the newer version and drop my changes' })
              .click();
            await expect(threshold(page)).toHaveValue(THEIRS);
          },
          'conflict.saveAnyway': async () => {
            await page
              .getByRole('button', { name: 'Save my changes as the next version anyway' })
              .click();
          },
          'conflict.dismiss': async () => {
            await page.getByRole('button', { name: 'Keep editing' }).click();
          },
        },
      });
    } finally {
      await api.dispose();
    }
  });
}
