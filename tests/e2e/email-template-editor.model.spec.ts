import type { APIRequestContext, Page } from '@playwright/test';
import { describePath } from '#machines/testing/model.ts';
import { pathEvents, templateEditorMachine } from '#machines/template-editor.machine.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel, type WalkStep } from './model-walk.ts';

/**
 * The e-mail template editor's generated paths (issue 19), walked against the real BFF and
 * sandbox, each on a policy letter template of its own (so that no path sees another's
 * versions). A refusal is the real thing: the HTML body gets an unclosed `{{ … }` before the
 * preview or save that the path wants refused, a valid body of its own otherwise.
 * `preview.close` is left out: it only hides the preview (the context, not a state), which
 * email-templates.spec.ts closes and checks. So is typing while a call runs (the buttons wait;
 * the machine's unit test keeps that draft). The test e-mail is walked from `editing` as one step
 * (send, then the answer on screen: its outcome is context too); its failure and a failing
 * delete (the confirm dialog keeps that one) are the unit test's.
 */
const NOTIFICATIONS = '/api/0/notificationservice/v1';

const CALM = ['editing', 'refused', 'saved'];
const { model, paths } = modelPaths(templateEditorMachine, {
  events: pathEvents,
  input: { template: null, changes: null },
  filterEvents: (state, event) => {
    const at = (state as unknown as { value: string }).value;
    if (event.type === 'edit') return CALM.includes(at);
    if (event.type === 'testMail.send') return at === 'editing';
    return ![
      'preview.close',
      'xstate.done.actor.testMail',
      'xstate.error.actor.testMail',
      'xstate.error.actor.delete',
    ].includes(event.type);
  },
});

let made = 0;
/** A policy letter of the path's own, through the API as the administrator. */
async function letterTemplate(api: APIRequestContext): Promise<string> {
  const body = {
    subject: 'Ihr Vertrag {{ policy.number }}',
    html: '<p>{{ policy.holder.name }}</p>',
    text: '{{ policy.holder.name }}',
  };
  const stamp = `${Date.now().toString(36)}-${++made}`;
  const created = await api.post(`${NOTIFICATIONS}/notification-templates`, {
    data: {
      slug: `model-letter-${stamp}`,
      name: `Model letter ${stamp}`,
      kind: 'policy',
      bodies: { de: body, en: body, pl: body },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { template: { code: string } }).template.code;
}

const html = (page: Page) => page.getByLabel('HTML body', { exact: true });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const versionInfo = (page: Page) => page.getByTestId('template-version');

let edits = 0;
/** The HTML body the next answer needs: broken when the path wants it refused. */
async function prepareSource(page: Page, step: WalkStep, errorType: string): Promise<void> {
  const refused = step.next()?.type === errorType;
  await html(page).fill(
    refused ? '<p>{{ policy.number }</p>' : `<p>{{ policy.number }} (${++edits})</p>`,
  );
}

const stateChecks: Record<string, (page: Page) => Promise<void>> = {
  editing: async (page) => {
    await expect(html(page)).toBeEditable();
    await expect(page.getByRole('button', { name: 'Preview', exact: true })).toBeEnabled();
  },
  previewing: async () => {},
  saving: async () => {},
  refused: async (page) => {
    await expect(page.getByRole('alert').filter({ hasText: 'Please correct' })).toBeVisible();
    await expect(html(page)).toHaveAttribute('aria-invalid', 'true');
  },
  saved: async (page) => {
    await expect(versionInfo(page)).not.toContainText('Unsaved changes');
    await expect(saveButton(page)).toBeDisabled();
    await expect(html(page)).not.toHaveAttribute('aria-invalid', 'true');
  },
  deleting: async (page) => {
    await expect(page.getByRole('dialog', { name: 'Delete this template?' })).toBeVisible();
  },
  // The list, without the template, and nothing asked about unsaved changes on the way.
  deleted: async (page) => {
    await expect(page).toHaveURL(/\/u\/0\/editor\/emails$/);
    await expect(page.getByRole('heading', { name: 'E-mail templates', level: 1 })).toBeVisible();
  },
};

test('every state of the e-mail template editor has a check in the browser walk', () => {
  expectCheckForEveryState(templateEditorMachine, stateChecks);
});

test.describe('e-mail template editor paths', () => {
  paths.forEach((path) => {
    test(`path: ${describePath(path)}`, async ({ page, baseURL }) => {
      test.setTimeout(90_000);
      const admin = await apiAs(baseURL!, 'admin@demo.test');
      try {
        const code = await letterTemplate(admin);
        await signIn(page, 'admin@demo.test');
        await page.goto(`/u/0/editor/emails/${code}`);
        await expect(versionInfo(page)).toContainText('Version 1');
        let version = 1;
        await walkModel(model, path, {
          states: stateChecks,
          args: [page],
          events: {
            edit: async () => {
              await page
                .getByLabel('Subject', { exact: true })
                .fill(`Ihr Vertrag {{ policy.number }} (${++edits})`);
            },
            preview: async (step) => {
              await prepareSource(page, step, 'xstate.error.actor.preview');
              await page.getByRole('button', { name: 'Preview', exact: true }).click();
            },
            save: async (step) => {
              await prepareSource(page, step, 'xstate.error.actor.save');
              await saveButton(page).click();
            },
            delete: async () => {
              await page.getByRole('button', { name: 'Delete template' }).click();
            },
            'xstate.done.actor.delete': async ({ event }) => {
              const dialog = page.getByRole('dialog', { name: 'Delete this template?' });
              if (event.output === true) {
                await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
                await expect(page.getByText(/was deleted\.$/)).toBeVisible();
              } else {
                await dialog.getByRole('button', { name: 'Cancel' }).click();
                await expect(dialog).toBeHidden();
              }
            },
            'testMail.send': async () => {
              await page.getByRole('button', { name: 'Send me a test e-mail' }).click();
              await expect(
                page.getByText('A test e-mail was sent to admin@demo.test.'),
              ).toBeVisible();
            },
            'xstate.done.actor.preview': async () => {
              await expect(page.getByTestId('preview-subject')).toContainText('POL-001995');
            },
            'xstate.error.actor.preview': async () => {
              await expect(page.getByText('The preview could not be made.')).toBeVisible();
            },
            'xstate.done.actor.save': async () => {
              version += 1;
              await expect(versionInfo(page)).toContainText(`Version ${version} `);
            },
            'xstate.error.actor.save': async () => {
              await expect(page.getByText('The template was not saved.')).toBeVisible();
              await expect(versionInfo(page)).toContainText(`Version ${version} `);
            },
          },
        });
      } finally {
        await admin.dispose();
      }
    });
  });
});
