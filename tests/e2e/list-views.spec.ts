import { readFile } from 'node:fs/promises';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// Customer-care users of the seed that no other spec signs in with: views are per user.
const OWNER = 'nils.peters35@demo.test';
const COLLEAGUE = 'rosa.ullrich39@demo.test';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

test.describe('saved views and CSV export of a list', () => {
  test('a user saves the filters as a shared view, a colleague applies it, the owner deletes it', async ({
    page,
    browser,
  }) => {
    const name = `Companies in Köln ${stamp()}`;
    await signIn(page, OWNER);
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Customers' })
      .click();
    const table = page.getByRole('table', { name: 'Customers' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();

    // Filters go to the address, so the view is the address's query.
    await page.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Organisation' });
    await page.getByRole('button', { name: 'City not sorted' }).click();
    await expect(page).toHaveURL(/type=org/);
    await expect(page).toHaveURL(/sort=city%3Aasc/);

    await page.getByRole('button', { name: 'Save view…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the current filters as a view' });
    await expect(dialog.getByRole('textbox', { name: 'Name of the view' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await expect(dialog.getByText('Give the view a name.')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Name of the view' }).fill(name);
    await dialog.getByRole('checkbox', { name: 'Share with everyone in this workspace' }).check();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('combobox', { name: 'Saved views' })).toHaveValue(/^lvw_/);

    // The export is exactly the filtered list: organisations only, in city order.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await file.path())!, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('Customer number,Code,Type');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((r) => r[2] === 'org')).toBe(true);
    const firstShown = await table.getByRole('row').nth(1).getByRole('cell').nth(1).textContent();
    expect(rows[0]![0]).toBe(firstShown?.trim());

    // A colleague finds the shared view and applies it.
    const context = await browser.newContext();
    await context.addInitScript(() => localStorage.setItem('bo.language', 'en'));
    const other = await context.newPage();
    await signIn(other, COLLEAGUE);
    await other
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Customers' })
      .click();
    const views = other.getByRole('combobox', { name: 'Saved views' });
    const option = views.getByRole('option', { name: new RegExp(`^${name} \\(by `) });
    await expect(option).toBeAttached();
    await views.selectOption({ label: (await option.textContent())!.trim() });
    await expect(other).toHaveURL(/type=org/);
    await expect(other.getByRole('combobox', { name: 'Kind' })).toHaveValue('org');
    // Not theirs: no delete button.
    await expect(other.getByRole('button', { name: `Delete view “${name}”` })).toHaveCount(0);
    await context.close();

    // The owner deletes it behind the confirm dialog.
    await page.getByRole('button', { name: `Delete view “${name}”` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this view?' });
    await confirm.getByRole('button', { name: 'Delete view' }).click();
    await expect(page.getByText(`View “${name}” deleted.`)).toBeVisible();
    await expect(
      page.getByRole('combobox', { name: 'Saved views' }).getByRole('option', { name }),
    ).toHaveCount(0);
  });
});
