import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { colleague, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// Customer-care users of the seed that no other spec signs in with: views are per user.
const OWNER = 'nils.peters35@demo.test';
const COLLEAGUE = 'rosa.ullrich39@demo.test';
// Customer-care users no other spec signs in with, for the leads and the policies list.
const LEADS_USER = 'greta.meyer28@demo.test';
const POLICIES_USER = 'klara.roth32@demo.test';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** The rows of a downloaded English CSV file, as cells (quoted cells may hold commas). */
async function csvRows(download: Download): Promise<string[][]> {
  const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  return text
    .trim()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^",]*)(,|$)/g)]
        .filter((m) => m.index < line.length || m[0] !== '')
        .map((m) => (m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!)),
    );
}

async function exportCsv(page: Page, list: string): Promise<string[][]> {
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${list}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  return csvRows(file);
}

async function saveView(page: Page, name: string) {
  await page.getByRole('button', { name: 'Save view…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the current filters as a view' });
  await dialog.getByRole('textbox', { name: 'Name of the view' }).fill(name);
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Saved views' })).toHaveValue(/^lvw_/);
}

async function deleteView(page: Page, name: string) {
  await page.getByRole('button', { name: `Delete view “${name}”` }).click();
  await page
    .getByRole('dialog', { name: 'Delete this view?' })
    .getByRole('button', { name: 'Delete view' })
    .click();
  await expect(page.getByText(`View “${name}” deleted.`)).toBeVisible();
  await expect(
    page.getByRole('combobox', { name: 'Saved views' }).getByRole('option', { name }),
  ).toHaveCount(0);
}

async function openList(page: Page, name: 'Customers' | 'Leads' | 'Policies') {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name }).click();
}

test.describe('saved views and CSV export of a list', () => {
  test('a user saves the filters as a shared view, a colleague applies it, the owner deletes it', async ({
    page,
    browser,
  }) => {
    const name = `Companies in Köln ${stamp()}`;
    await signIn(page, OWNER);
    await openList(page, 'Customers');
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
    const [header, ...rows] = await exportCsv(page, 'customers');
    expect(header!.slice(0, 3)).toEqual(['Customer number', 'Code', 'Type']);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((r) => r[2] === 'org')).toBe(true);
    const firstShown = await table.getByRole('row').nth(1).getByRole('cell').nth(1).textContent();
    expect(rows[0]![0]).toBe(firstShown?.trim());

    // A colleague finds the shared view and applies it.
    const { page: other, close } = await colleague(browser, COLLEAGUE);
    await openList(other, 'Customers');
    const views = other.getByRole('combobox', { name: 'Saved views' });
    const option = views.getByRole('option', { name: new RegExp(`^${name} \\(by `) });
    await expect(option).toBeAttached();
    await views.selectOption({ label: (await option.textContent())!.trim() });
    await expect(other).toHaveURL(/type=org/);
    await expect(other.getByRole('combobox', { name: 'Kind' })).toHaveValue('org');
    // Not theirs: no delete button.
    await expect(other.getByRole('button', { name: `Delete view “${name}”` })).toHaveCount(0);
    await close();

    // The owner deletes it behind the confirm dialog.
    await deleteView(page, name);
  });

  test('the leads list keeps its filters and sort in a view and exports exactly what it shows', async ({
    page,
  }) => {
    const name = `Approved leads ${stamp()}`;
    await signIn(page, LEADS_USER);
    await openList(page, 'Leads');
    const table = page.getByRole('table', { name: 'Leads' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();

    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Approved' });
    await page.getByRole('button', { name: 'Lead no. not sorted' }).click();
    await expect(page).toHaveURL(/status=approved/);
    await expect(page).toHaveURL(/sort=number%3Aasc/);
    await saveView(page, name);

    // The file holds the filtered leads in the order of the list, named as the list names them.
    const [header, ...rows] = await exportCsv(page, 'leads');
    expect(header!.slice(0, 5)).toEqual([
      'Lead number',
      'Code',
      'Status',
      'Customer code',
      'Applicant',
    ]);
    expect(rows.length).toBeGreaterThan(5);
    // The status as the list shows it: the tenant's label in the file's language (issue 15).
    expect(rows.every((r) => r[2] === 'Approved')).toBe(true);
    const numbers = rows.map((r) => r[0]!);
    expect(numbers).toEqual([...numbers].sort());
    const first = table.getByRole('row').nth(1);
    await expect(first.getByRole('cell').nth(0)).toHaveText(rows[0]![0]!);
    await expect(first.getByRole('cell').nth(1)).toHaveText(rows[0]![4]!);

    // Another filter, then back to the view: the status and the sort return.
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'All' });
    await expect(page).not.toHaveURL(/status=/);
    await page.getByRole('button', { name: `Back to “${name}”` }).click();
    await expect(page).toHaveURL(/status=approved/);
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('approved');
    await expect(table.getByRole('row').nth(1).getByRole('cell').nth(0)).toHaveText(rows[0]![0]!);
    await expectNoSeriousA11yViolations(page);
    await deleteView(page, name);
  });

  test('the policies list keeps its filters in a view and exports exactly what it shows', async ({
    page,
  }) => {
    const name = `Terminated, oldest first ${stamp()}`;
    await signIn(page, POLICIES_USER);
    await openList(page, 'Policies');
    const table = page.getByRole('table', { name: 'Policies' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();

    await page.getByRole('checkbox', { name: 'Terminated' }).check();
    await page.getByRole('combobox', { name: 'Order' }).selectOption({ label: 'Oldest first' });
    await expect(page).toHaveURL(/status=TERMINATED&order=oldest$/);
    await saveView(page, name);

    const [header, ...rows] = await exportCsv(page, 'policies');
    const column = (label: string) => header!.indexOf(label);
    expect(rows.length).toBeGreaterThan(5);
    // The status as the list shows it, in the file's language (issue 15).
    expect(rows.every((r) => r[column('Status')] === 'Terminated')).toBe(true);
    const first = table.getByRole('row').nth(1);
    await expect(first.getByRole('cell').nth(0)).toHaveText(rows[0]![column('Policy number')]!);
    await expect(first.getByRole('cell').nth(2)).toHaveText(rows[0]![column('Policy holder')]!);

    // The menu's link shows the whole list, search box included; choosing the view brings its
    // filters back.
    const search = page.getByRole('searchbox', { name: 'Search policies' });
    await search.fill('POL-00');
    await expect(page).toHaveURL(/&q=POL-00$/);
    await openList(page, 'Policies');
    await expect(page).toHaveURL(/\/u\/0\/policies$/);
    await expect(search).toHaveValue('');
    await expect(page.getByRole('checkbox', { name: 'Terminated' })).not.toBeChecked();
    const views = page.getByRole('combobox', { name: 'Saved views' });
    await views.selectOption({ label: name });
    await expect(page).toHaveURL(/status=TERMINATED&order=oldest$/);
    await expect(page.getByRole('checkbox', { name: 'Terminated' })).toBeChecked();
    await expect(table.getByRole('row').nth(1).getByRole('cell').nth(0)).toHaveText(
      rows[0]![column('Policy number')]!,
    );
    await deleteView(page, name);
  });
});
