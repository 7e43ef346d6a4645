import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';

// Issue 16: the administration lists keep their filters in the address, have saved views and
// export CSV like the insurance lists. In German, the demo tenant's language: the headers and
// the status in the file follow the user's language, the separator is a German spreadsheet's.
const ADMIN = 'admin@demo.test';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** Signs in (the fixtures read English) and switches the user's language to German. */
async function signInGerman(page: Page) {
  await signIn(page, ADMIN);
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
}

/** The rows of a downloaded German CSV file (`;` between cells; quoted cells may hold one). */
async function exportGermanCsv(page: Page, list: string): Promise<string[][]> {
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Als CSV exportieren' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${list}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const text = (await readFile((await file.path())!, 'utf8')).replace(/^\uFEFF/, '');
  return text
    .trim()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^";]*)(;|$)/g)]
        .filter((m) => m.index < line.length || m[0] !== '')
        .map((m) => (m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!)),
    );
}

test.describe('saved views and CSV export of the administration lists', () => {
  test('users: filter, reload, save a view, clear, apply it, export exactly the list', async ({
    page,
  }) => {
    const name = `Deaktivierte ${stamp()}`;
    await signInGerman(page);
    await page.goto('/u/0/admin/users');
    const table = page.getByRole('table', { name: 'Benutzer' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();

    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Deaktiviert' });
    await page.getByLabel('Benutzer suchen').fill('demo.test');
    await expect(page).toHaveURL(/status=disabled/);
    await expect(page).toHaveURL(/search=demo\.test/);

    // A reload (and so a shared link) opens the same list.
    await page.reload();
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('disabled');
    await expect(page.getByLabel('Benutzer suchen')).toHaveValue('demo.test');
    await expect(table.getByRole('row').nth(1)).toContainText('Deaktiviert');
    const shown = await table.getByRole('row').count();
    expect(shown).toBeGreaterThan(2);
    const shownRows = await table.getByRole('row').allTextContents();
    expect(shownRows.slice(1).every((row) => row.includes('Deaktiviert'))).toBe(true);

    await page.getByRole('button', { name: 'Ansicht speichern…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Aktuelle Filter als Ansicht speichern' });
    await dialog.getByRole('textbox', { name: 'Name der Ansicht' }).fill(name);
    await dialog.getByRole('button', { name: 'Ansicht speichern' }).click();
    await expect(dialog).toBeHidden();
    const views = page.getByRole('combobox', { name: 'Gespeicherte Ansichten' });
    await expect(views).toHaveValue(/^lvw_/);

    // Cleared, the list shows everybody again, and no view is chosen.
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Alle' });
    await page.getByLabel('Benutzer suchen').fill('');
    await expect(page).not.toHaveURL(/status=/);
    await expect(page).not.toHaveURL(/search=/);
    // The view stays chosen, changed: it offers to go back to its filters.
    await expect(page.getByRole('button', { name: `Zurück zu „${name}“` })).toBeVisible();
    // Opened afresh, the cleared list matches no view.
    await page.reload();
    await expect(views).toHaveValue('');
    await expect(table.getByRole('cell', { name: 'Aktiv', exact: true }).first()).toBeVisible();

    // The view brings the filters back, into the controls and the address.
    await views.selectOption({ label: name });
    await expect(page).toHaveURL(/status=disabled/);
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('disabled');
    await expect(page.getByLabel('Benutzer suchen')).toHaveValue('demo.test');
    await expect(table.getByRole('row')).toHaveCount(shown);

    // The export is exactly the filtered list, with German headers and the status as a word.
    const [header, ...rows] = await exportGermanCsv(page, 'users');
    expect(header).toEqual([
      'Code',
      'E-Mail',
      'Vorname',
      'Nachname',
      'Organisation',
      'Rollen',
      'Status',
      'Angelegt',
    ]);
    expect(rows).toHaveLength(shown - 1);
    expect(rows.every((r) => r[6] === 'Deaktiviert')).toBe(true);
    for (const row of rows) {
      await expect(table.getByRole('row').filter({ hasText: row[1]! })).toHaveCount(1);
      // Dates as the tenant shows them (DD.MM.YYYY).
      expect(row[7]).toMatch(/^\d{2}\.\d{2}\.\d{4} /);
    }

    await page.getByRole('button', { name: `Ansicht „${name}“ löschen` }).click();
    await page
      .getByRole('dialog', { name: 'Diese Ansicht löschen?' })
      .getByRole('button', { name: 'Ansicht löschen' })
      .click();
    await expect(views.getByRole('option', { name })).toHaveCount(0);
  });

  test('roles and organisation invitations keep their filter in the address, the tab in the hash', async ({
    page,
  }) => {
    await signInGerman(page);
    await page.goto('/u/0/admin/roles');
    await page.getByLabel('Modul').selectOption({ label: 'Schadenverwaltung' });
    await expect(page).toHaveURL(/module=claim-management/);
    await page.reload();
    await expect(page.getByLabel('Modul')).toHaveValue('claim-management');
    const [roleHeader, ...roleRows] = await exportGermanCsv(page, 'roles');
    expect(roleHeader!.slice(0, 2)).toEqual(['Code', 'Rolle']);
    const roles = page.getByRole('table', { name: 'Rollen' });
    await expect(roles.getByRole('row')).toHaveCount(roleRows.length + 1);

    // The invitations tab: its filter goes to the address and the tab stays in the hash.
    await page.goto('/u/0/admin/organizations#tab=invitations');
    const invitations = page.getByRole('table', { name: 'Organisationseinladungen' });
    await expect(invitations).toBeVisible();
    // Its sort is kept under its own name (the organisations tab keeps `sort`), across a reload.
    const expires = invitations.getByRole('columnheader', { name: /Läuft ab/ });
    await expires.getByRole('button').click();
    await expect(expires).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/[?&]invitationSort=expires%3Aasc(&|#)/);
    await expect(page).not.toHaveURL(/[?&]sort=/);
    await page.reload();
    await expect(expires).toHaveAttribute('aria-sort', 'ascending');
    await page.getByRole('searchbox', { name: 'Name filtern' }).fill('nichts-dergleichen');
    await expect(page).toHaveURL(/invitationSearch=nichts-dergleichen#tab=invitations$/);
    await page.reload();
    await expect(expires).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByRole('searchbox', { name: 'Name filtern' })).toHaveValue(
      'nichts-dergleichen',
    );
    await expect(invitations.getByText('Keine offenen Organisationseinladungen.')).toBeVisible();
    const [header, ...rows] = await exportGermanCsv(page, 'organization-invitations');
    expect(header).toEqual(['Organisation', 'Kontakt-E-Mail', 'Rollen', 'Läuft ab', 'Zustand']);
    expect(rows).toEqual([]);
  });
});

test('at 400 px every administration list keeps its views and export on screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await signIn(page, ADMIN);
  for (const [path, table] of [
    // No two neighbours differ in their hash only: each is a page load of its own.
    ['/u/0/admin/users', 'Users'],
    ['/u/0/admin/organizations#tab=invitations', 'Organisation invitations'],
    ['/u/0/admin/roles', 'Roles'],
    ['/u/0/admin/users#tab=invitations', 'Pending invitations'],
    ['/u/0/admin/organizations', 'Organisations'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('table', { name: table })).toBeVisible();
    for (const control of [
      page.getByRole('combobox', { name: 'Saved views' }),
      page.getByRole('button', { name: 'Save view…' }),
      page.getByRole('link', { name: 'Export CSV' }),
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.x, path).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, path).toBeLessThanOrEqual(400);
    }
    // Nothing pushes the page sideways.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      path,
    ).toBeLessThanOrEqual(400);
  }
});

test('a view of one tab keeps only its own filters; applying it leaves the other tab alone', async ({
  page,
}) => {
  const name = `Invitations by name ${stamp()}`;
  await signIn(page, ADMIN);
  // The organisations tab is filtered; the invitations tab beside it shares the address.
  await page.goto('/u/0/admin/organizations?search=Schadenservice');
  await page.getByRole('tab', { name: 'Invitations' }).click();
  const invitations = page.getByRole('table', { name: 'Organisation invitations' });
  await expect(invitations.getByRole('row').nth(1)).toBeVisible();
  await invitations.getByRole('button', { name: /^Name/ }).click();
  await expect(page).toHaveURL(/invitationSort=name%3Aasc/);

  await page.getByRole('button', { name: 'Save view…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the current filters as a view' });
  await dialog.getByRole('textbox', { name: 'Name of the view' }).fill(name);
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog).toBeHidden();

  // Elsewhere, the organisations tab filtered otherwise: the view brings its sort and nothing
  // of the organisations tab.
  await page.goto('/u/0/admin/organizations?search=Ost#tab=invitations');
  await page.getByRole('tab', { name: 'Invitations' }).click();
  await page.getByRole('combobox', { name: 'Saved views' }).selectOption({ label: name });
  await expect(page).toHaveURL(/invitationSort=name%3Aasc/);
  await expect(page).toHaveURL(/[?&]search=Ost(&|#|$)/);
  await expect(page).not.toHaveURL(/Schadenservice/);
});
