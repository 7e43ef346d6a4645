import type { APIRequestContext, Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import {
  pathEvents,
  pathsInput,
  workflowEditorMachine,
} from '#machines/workflow-editor.machine.ts';
import { describePath } from '#machines/testing/model.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';

/**
 * The workflow editor machine's generated paths, walked on the editor against the real BFF and
 * sandbox; each path edits a workflow of its own (two versions, made through the API). Left out,
 * with the reason:
 * - a failed read (`xstate.error.actor.loadWorkflow`, `load.retry`): the walk opens a workflow
 *   that exists; the not-found page is a plain alert;
 * - an older version read after the first read, and `version.open` from anywhere but the
 *   read-only view: the address names another version only through a link or the back button,
 *   which the read-only view's link stands for;
 * - a save that succeeds on a base the service already called stale (see `walkable`);
 * - a failing check (`xstate.error.actor.validate`: the check answers problems instead) and a
 *   save of an unchanged version (its button is disabled).
 */
function walkable(state: Snapshot<unknown>, event: AnyEventObject): boolean {
  if (event.type === 'xstate.error.actor.loadWorkflow' || event.type === 'load.retry') return false;
  const snapshot = state as unknown as {
    value: unknown;
    context: { loaded: unknown; knownLatest: number | null; force: boolean };
  };
  // Back at a drawing whose base is stale (a conflict, then "back to my drawing"), a save meets
  // the conflict again: the service does not save it as the next version.
  if (event.type === 'xstate.done.actor.saveVersion' && snapshot.value === 'savingVersion')
    return snapshot.context.knownLatest === null || snapshot.context.force;
  if (event.type === 'xstate.done.actor.loadWorkflow' && event.output?.versionNumber === 1)
    return snapshot.context.loaded === null;
  if (event.type === 'version.open') return snapshot.value === 'readOnly';
  // The editor's check answers problems, it does not fail; an unchanged version's Save is
  // disabled (the machine ignores it too).
  if (event.type === 'xstate.error.actor.validate') return false;
  if (event.type === 'save' && snapshot.value === 'clean') return false;
  return true;
}

const { model, paths } = modelPaths(workflowEditorMachine, {
  input: pathsInput,
  events: pathEvents,
  filterEvents: walkable,
});

const P = '/api/0/processmanager/v1';
const BPMN = (subject: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="https://demo.test/bpmn">
  <process id="model_walk" isExecutable="true">
    <startEvent id="start" name="Start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="notify"/>
    <serviceTask id="notify" name="Notify" implementation="notification.sendEmail?to=care%40demo.test&amp;subject=${subject}"/>
    <sequenceFlow id="f2" sourceRef="notify" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

async function upload(
  api: APIRequestContext,
  method: 'POST' | 'PATCH',
  path: string,
  fields: Record<string, string>,
  xml: string,
) {
  const response = await api.fetch(`${P}${path}`, {
    method,
    multipart: {
      ...fields,
      file: { name: 'walk.bpmn', mimeType: 'application/xml', buffer: Buffer.from(xml) },
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { workflow: { id: number; code: string } }).workflow;
}

const nameField = (page: Page) => page.getByLabel('Name of the workflow');
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save as new version' });
const conflictAlert = (page: Page) =>
  page.getByRole('alert').filter({ hasText: /saved version \d+ since you opened/ });

test('every state of the workflow editor machine has a check in the browser walk', () => {
  expectCheckForEveryState(workflowEditorMachine, stateChecks);
});

const stateChecks: Record<string, (page: Page, snapshot: Snapshot<unknown>) => Promise<void>> = {
  // Before the walk's first step: the page opened (see the test).
  opening: async () => {},
  loading: async () => {},
  // Not reached by the walk (see above).
  loadFailed: async () => {},
  readOnly: async (page) => {
    await expect(page.getByText(/You are looking at version 1;/)).toBeVisible();
    await expect(saveButton(page)).toHaveCount(0);
  },
  clean: async (page, snapshot) => {
    await expect(saveButton(page)).toBeDisabled();
    await expect(page.getByText('Unsaved changes')).toHaveCount(0);
    await expect(conflictAlert(page)).toHaveCount(0);
    const saved = (snapshot as unknown as { context: { savedVersion: number | null } }).context
      .savedVersion;
    if (saved !== null) await expect(page.getByText(/^Version \d+ saved\.$/)).toBeVisible();
  },
  dirty: async (page) => {
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await expect(saveButton(page)).toBeEnabled();
    await expect(conflictAlert(page)).toHaveCount(0);
  },
  // In-flight states last milliseconds; the next state's check sees their outcome.
  validating: async () => {},
  savingVersion: async () => {},
  failed: async (page) => {
    await expect(
      page.getByRole('alert').filter({ hasText: /Please fix these|refused the name/ }),
    ).toBeVisible();
    await expect(page.getByText('Unsaved changes')).toBeVisible();
  },
  conflict: async (page) => {
    await expect(conflictAlert(page)).toBeVisible();
  },
};

const VALID = 'Model walk';
let typed = 0;

for (const path of paths) {
  test(`path: ${describePath(path)}`, async ({ page, baseURL }) => {
    const api = await apiAs(baseURL!, 'admin@demo.test');
    try {
      const stamp = `${Date.now().toString(36)}${test.info().testId.slice(0, 6)}`.toLowerCase();
      const workflow = await upload(
        api,
        'POST',
        '/workflows',
        { name: `${VALID} ${stamp}`, code: `walk-${stamp}` },
        BPMN('v1'),
      );
      await upload(api, 'PATCH', `/workflows/${workflow.id}`, {}, BPMN('v2'));
      // The first read says which version the address names (the walk allows version 1 there).
      const firstRead = path.steps
        .map((step) => step.event as AnyEventObject)
        .find((event) => event.type === 'xstate.done.actor.loadWorkflow');
      const older = firstRead?.output?.versionNumber === 1;
      await signIn(page, 'admin@demo.test');
      await page.goto(`/u/0/management/workflow-editor/${workflow.code}${older ? '/1' : ''}`);
      await expect(page.getByTestId('wf-version')).toContainText(`Version ${older ? 1 : 2} of`);

      /** A colleague saves the next version through the API: this editor's base is stale. */
      const saveMeanwhile = () => upload(api, 'PATCH', `/workflows/${workflow.id}`, {}, BPMN('x'));

      await walkModel(model, path, {
        states: stateChecks,
        args: [page],
        events: {
          edit: async () => {
            typed++;
            await nameField(page).fill(`${VALID} ${stamp} ${typed}`);
          },
          save: async (step) => {
            const checked = step.next();
            const answer = step.next(2);
            const name = await nameField(page).inputValue();
            if (checked?.output?.ok === false) {
              // The editor's own check: a workflow needs a name.
              await nameField(page).fill('');
            } else if (answer?.error?.kind === 'refused') {
              // The service's check: a name of more than 200 characters (the editor's is blank).
              await nameField(page).fill('x'.repeat(201));
            } else if (!name.trim() || name.length > 200) {
              await nameField(page).fill(`${VALID} ${stamp} ok`);
            }
            if (answer?.error?.kind === 'conflict') await saveMeanwhile();
            await saveButton(page).click();
          },
          'failure.dismiss': async () => {
            await page.getByRole('button', { name: 'Close the message' }).click();
          },
          'conflict.loadLatest': async () => {
            await page.getByRole('button', { name: /^Load version \d+/ }).click();
          },
          'conflict.saveAnyway': async () => {
            await page
              .getByRole('button', { name: 'Save mine as the next version anyway' })
              .click();
          },
          'conflict.cancel': async () => {
            await page.getByRole('button', { name: 'Back to my drawing' }).click();
          },
          'version.open': async () => {
            await page.getByRole('link', { name: /^Open the latest version/ }).click();
          },
          // The service's and the check's answers: nothing for the user to do.
          'xstate.done.actor.loadWorkflow': async () => {},
          'xstate.done.actor.validate': async () => {},
          'xstate.done.actor.saveVersion': async () => {},
          'xstate.error.actor.saveVersion': async () => {},
        },
      });
    } finally {
      await api.dispose();
    }
  });
}
