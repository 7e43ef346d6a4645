import type { Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import { fileImportMachine, pathEvents } from '#machines/file-import.machine.ts';
import { describePath } from '#machines/testing/model.ts';
import { expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';

/**
 * The file-import machine's generated paths, walked on the factor table upload of a product
 * version of its own (a product manager no model spec else uses) against the real BFF and
 * sandbox. Left out, with the reason:
 * - a check or save failing without an answer (5xx, network), and so `form.failed`: not
 *   something a user can do;
 * - a refused save: the file was checked just before, and a table of the same name is replaced,
 *   not refused.
 */
function walkable(_state: Snapshot<unknown>, event: AnyEventObject): boolean {
  if (event.type === 'xstate.error.actor.checkFile') return event.error?.kind === 'invalid';
  if (event.type === 'xstate.error.actor.saveFile') return false;
  return true;
}

const { model, paths } = modelPaths(fileImportMachine, {
  events: pathEvents,
  filterEvents: walkable,
});

const csv = (text: string) => ({
  name: 'zone.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(text),
});
const GOOD = csv('zipCode,value\n10115,1.2\n*,1\n');
const BAD = csv('zipCode,value\n10115,1.2\n20095,abc\n');

const upload = (page: Page) => page.getByRole('dialog', { name: 'Upload factor table' });

const stateChecks: Record<string, (page: Page) => Promise<void>> = {
  form: async () => {},
  'form.choosing': async (page) => {
    await expect(upload(page).getByRole('button', { name: 'Check file' })).toBeEnabled();
  },
  'form.valid': async (page) => {
    await expect(upload(page).getByText('The file is valid: 2 rows, keys zipCode.')).toBeVisible();
    await expect(upload(page).getByRole('button', { name: 'Save' })).toBeEnabled();
  },
  'form.invalid': async (page) => {
    // The service's problem, translated, at its line; no save.
    await expect(
      upload(page).getByRole('list', { name: 'Problems in the file' }).getByRole('listitem'),
    ).toHaveText(['Line 3: the value "abc" is not a number like 1.15.']);
    await expect(upload(page).getByRole('button', { name: 'Save' })).toHaveCount(0);
  },
  // Not reached by the walk (see above).
  'form.failed': async () => {},
  checking: async () => {},
  saving: async () => {},
  saved: async (page) => {
    await expect(upload(page)).toBeHidden();
    // The page read the product's tables again: the new one is there.
    const factors = page.getByRole('table', { name: 'Factor tables' });
    await expect(factors.getByRole('row').filter({ hasText: 'zone' })).toHaveCount(1);
  },
};

test('every state of the file-import machine has a check in the browser walk', () => {
  expectCheckForEveryState(fileImportMachine, stateChecks);
});

test.describe('file-import paths', () => {
  for (const path of paths) {
    test(`path: ${describePath(path)}`, async ({ page }) => {
      test.setTimeout(60_000);
      const name = `Model Import ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
      await signIn(page, 'klara.bauer10@demo.test');
      await page
        .getByRole('navigation', { name: 'Main menu' })
        .getByRole('link', { name: 'Product list' })
        .click();
      await page.getByRole('button', { name: 'New product' }).click();
      const product = page.getByRole('dialog', { name: 'New product' });
      await product.getByRole('textbox', { name: 'Product name' }).fill(name);
      await product.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Car' });
      await product.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('button', { name: 'New version' }).click();
      await page
        .getByRole('dialog', { name: 'New version' })
        .getByRole('button', { name: 'Create' })
        .click();
      await expect(
        page.getByRole('heading', { level: 1, name: `${name}, version 1` }),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Upload factor table' }).click();
      const nameBox = upload(page).getByRole('textbox', { name: 'Table name' });

      let renames = 0;
      await walkModel(model, path, {
        states: stateChecks,
        args: [page],
        events: {
          'name.change': async () => {
            // Another name each time: the same text typed again is no change.
            renames += 1;
            await nameBox.fill(`zone${renames}`);
          },
          'file.choose': async (step) => {
            // The file the next check of the path needs: one with a problem, or a good one.
            const check = step.rest().find((event) => event.type.includes('actor.checkFile'));
            const bad = check?.type === 'xstate.error.actor.checkFile';
            await upload(page)
              .getByLabel('CSV file')
              .setInputFiles(bad ? BAD : GOOD);
          },
          'import.check': async () => {
            // The model leaves the name to the form's own check: a path may check before naming.
            if ((await nameBox.inputValue()) === '') await nameBox.fill('zone');
            await upload(page).getByRole('button', { name: 'Check file' }).click();
          },
          'import.save': async () => {
            await upload(page).getByRole('button', { name: 'Save' }).click();
          },
          'xstate.done.actor.checkFile': async () => {},
          'xstate.error.actor.checkFile': async () => {},
          'xstate.done.actor.saveFile': async () => {},
        },
      });
    });
  }
});
