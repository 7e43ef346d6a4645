import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

// The demo page of the shared kit (/forms): a 100 000-row table over a fake loader, a form
// built from a custom schema, hash tabs, the time filter, the confirm dialog and toasts.

const table = (page: Page) => page.getByRole('table', { name: 'Policies' });
const status = (page: Page) => page.getByTestId('table-status');
const firstCell = (page: Page, column: number) =>
  table(page)
    .locator('[role=rowgroup][data-testid=table-body] [role=row]')
    .first()
    .getByRole('cell')
    .nth(column);

async function loadedRows(page: Page): Promise<number> {
  const text = (await status(page).textContent()) ?? '';
  return Number(/Rows loaded: (\d+)/.exec(text)?.[1] ?? 0);
}

/** Scrolls the table to its bottom until at least `count` rows are loaded. */
async function scrollUntilLoaded(page: Page, count: number, timeout = 60_000) {
  await page.waitForFunction(
    (wanted) => {
      const element = document.querySelector<HTMLElement>('[role=table][aria-label="Policies"]');
      if (!element) return false;
      element.scrollTop = element.scrollHeight;
      const text = document.querySelector('[data-testid=table-status]')?.textContent ?? '';
      return Number(/Rows loaded: (\d+)/.exec(text)?.[1] ?? 0) >= wanted;
    },
    count,
    { polling: 20, timeout },
  );
}

test('the page has the demo title', async ({ page }) => {
  await page.goto('/forms');
  await expect(page.getByRole('heading', { level: 1, name: 'Component kit' })).toBeVisible();
  await expect(page).toHaveTitle('Component kit | Insurance Back Office');
});

test('the 100 000-row table stays small in the DOM while scrolling 10 000 rows', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/forms?delay=1');
  await expect(status(page)).toHaveText(/Rows loaded: 30\b/);
  // Header row, 100 000 rows and the footer row that repeats the headers.
  await expect(table(page)).toHaveAttribute('aria-rowcount', '100002');
  await scrollUntilLoaded(page, 10_000);
  expect(await table(page).getByRole('row').count()).toBeLessThan(200);
  const lastIndex = await table(page)
    .locator('[data-testid=table-body] [role=row]')
    .evaluateAll((rows) =>
      Math.max(...rows.map((row) => Number(row.getAttribute('aria-rowindex')))),
    );
  expect(lastIndex).toBeGreaterThan(10_000);
  // Rows keep loading further down.
  const before = await loadedRows(page);
  await scrollUntilLoaded(page, before + 60);
  expect(await table(page).getByRole('row').count()).toBeLessThan(200);
});

test('sorting cycles ascending, descending and none on one column', async ({ page }) => {
  await page.goto('/forms');
  await expect(status(page)).toHaveText(/Rows loaded: 30\b/);
  const header = table(page).getByRole('columnheader').filter({ hasText: 'Policy holder' }).first();
  const sortButton = header.getByRole('button', { name: /^Policy holder/ });
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await sortButton.click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(firstCell(page, 2)).toHaveText('Anna Fischer');
  await sortButton.click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(firstCell(page, 2)).toHaveText('Zofia Wójcik');
  await sortButton.click();
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await expect(firstCell(page, 1)).toHaveText('P-000001');
  // Another column takes over: only one column is sorted at a time.
  await sortButton.click();
  const city = table(page).getByRole('columnheader').filter({ hasText: 'City' }).first();
  await city.getByRole('button', { name: /^City/ }).click();
  await expect(city).toHaveAttribute('aria-sort', 'ascending');
  await expect(header).toHaveAttribute('aria-sort', 'none');
});

test('a column filter narrows the rows and its reset restores them', async ({ page }) => {
  await page.goto('/forms');
  await expect(status(page)).toHaveText(/Rows loaded: 30\b/);
  await page.getByRole('searchbox', { name: 'Filter City' }).fill('Kraków');
  await expect(table(page)).toHaveAttribute('aria-rowcount', '12502');
  const cities = table(page).locator(
    '[data-testid=table-body] [role=row] [role=cell]:nth-child(4)',
  );
  await expect(cities.first()).toHaveText('Kraków');
  expect(new Set(await cities.allTextContents())).toEqual(new Set(['Kraków']));
  await page.getByRole('button', { name: 'Reset filter City' }).click();
  await expect(page.getByRole('searchbox', { name: 'Filter City' })).toHaveValue('');
  await expect(table(page)).toHaveAttribute('aria-rowcount', '100002');
});

test('a filter without matches shows the no-data picture', async ({ page }) => {
  await page.goto('/forms');
  await page.getByRole('searchbox', { name: 'Filter Policy holder' }).fill('nobody at all');
  await expect(page.getByTestId('no-data')).toContainText('No data to show');
});

test('a failed page stops automatic loading; retry loads it', async ({ page }) => {
  await page.goto('/forms?failPage=2');
  await expect(status(page)).toHaveText(/Rows loaded: 30\b/);
  await table(page).evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await expect(page.getByText('Loading stopped because of an error.')).toBeVisible();
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(status(page)).toHaveText(/Rows loaded: 60\b/);
  await expect(page.getByRole('button', { name: 'Retry' })).toBeHidden();
});

// Issue 15 point 15 in English, German and Polish: the same steps, the words per language.
const STOP_TEXTS = {
  en: {
    table: 'Policies',
    rows: (n: number) => `Rows loaded: ${n}`,
    failed: 'Loading stopped because of an error.',
    retry: 'Retry',
    more: 'Load more',
  },
  de: {
    table: 'Verträge',
    rows: (n: number) => `Geladene Zeilen: ${n}`,
    failed: 'Das Laden wurde wegen eines Fehlers angehalten.',
    retry: 'Erneut versuchen',
    more: 'Weitere laden',
  },
  pl: {
    table: 'Polisy',
    rows: (n: number) => `Załadowane wiersze: ${n}`,
    failed: 'Ładowanie zatrzymano z powodu błędu.',
    retry: 'Spróbuj ponownie',
    more: 'Załaduj więcej',
  },
} as const;

for (const language of ['en', 'de', 'pl'] as const) {
  test(`the caller-supplied stop limit pauses loading until the user asks for more (${language})`, async ({
    page,
  }) => {
    const t = STOP_TEXTS[language];
    await page.goto('/forms?stopLimit=2');
    await page.evaluate((l) => localStorage.setItem('bo.language', l), language);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(status(page)).toHaveText(new RegExp(`${t.rows(30)}\\b`));
    await page.getByRole('table', { name: t.table, exact: true }).evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    // A pause is no failure: a plain "Load more", no alert and no "Retry" (issue 15).
    await expect(status(page)).toHaveText(new RegExp(`${t.rows(60)}\\b`));
    await expect(page.getByText(t.failed)).toBeHidden();
    await expect(page.getByRole('button', { name: t.retry })).toHaveCount(0);
    const more = page.getByRole('button', { name: t.more });
    await expect(more).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await more.click();
    await expect(status(page)).toHaveText(new RegExp(`${t.rows(90)}\\b`));
  });
}

test('rows can be selected with their checkboxes', async ({ page }) => {
  await page.goto('/forms');
  await page.getByRole('checkbox', { name: 'Select policy P-000002' }).check();
  await expect(page.getByText('Selected policies: 1')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all loaded rows' }).check();
  await expect(page.getByText('Selected policies: 30')).toBeVisible();
});

test('the form shows the validation messages in English', async ({ page }) => {
  await page.goto('/forms');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('E-mail is required')).toBeVisible();
  await expect(page.getByText('Age is required')).toBeVisible();
  await expect(page.getByText('This box must be ticked')).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('First name').fill('Anna');
  await page.getByLabel('E-mail').fill('anna@');
  await page.getByLabel('Phone').fill('12');
  await page.getByLabel('Age').fill('12');
  await page.getByLabel('Date of birth').fill('31.02.2000');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Please enter a valid e-mail address')).toBeVisible();
  await expect(page.getByText('Please enter a valid phone number')).toBeVisible();
  await expect(page.getByText('The value must be at least 18')).toBeVisible();
  await expect(page.getByText('Please enter a valid date (DD.MM.YYYY)')).toBeVisible();
  await expect(page.getByLabel('First name')).not.toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('E-mail').fill('anna@example.com');
  await page.getByLabel('Phone').fill('+49 30 901820');
  await page.getByLabel('Age').fill('42');
  await page.getByLabel('Date of birth').fill('17.05.1990');
  await page.getByLabel('I accept the terms').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('form-output')).toContainText('"birthday":"1990-05-17"');
  await expect(page.getByTestId('form-output')).toContainText('"notes":null');
  await expect(page.getByText('The form was saved.')).toBeVisible();
});

test('the active tab lives in the hash and survives a reload', async ({ page }) => {
  await page.goto('/forms');
  await page.getByRole('tab', { name: 'Details' }).click();
  await expect(page).toHaveURL(/#tab=details$/);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Details' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('The details of the policy.')).toBeVisible();
});

test('the time filter applies a relative period and resets', async ({ page }) => {
  await page.goto('/forms#tab=documents');
  await page.getByRole('button', { name: 'Time: All dates' }).click();
  // The relative / custom switch is a named tab list.
  await expect(page.getByRole('tablist', { name: 'Kind of time range' })).toBeVisible();
  await page.getByRole('radio', { name: 'Today' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('button', { name: 'Time: Today' })).toBeVisible();
  await expect(page.getByTestId('time-range')).not.toContainText('from – to');
  await page.getByRole('button', { name: 'Time: Today' }).click();
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Time: All dates' })).toBeVisible();
});

test('the confirm dialog keeps focus and shows the action error', async ({ page }) => {
  await page.goto('/forms');
  await page.getByRole('button', { name: 'Delete policy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the policy?' });
  await expect(dialog).toBeVisible();
  const accept = dialog.getByRole('button', { name: 'Delete policy' });
  // Focus starts on Cancel, so Enter closes the dialog without deleting.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('The policy is locked by another user.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete policy' }).click();
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await accept.click();
  await expect(dialog.getByText('The policy is locked by another user.')).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Archive policy' }).click();
  const archive = page.getByRole('dialog', { name: 'Archive the policy?' });
  await archive.getByRole('button', { name: 'Confirm' }).click();
  await expect(archive).toBeHidden();
  await expect(page.getByText('The policy was archived.')).toBeVisible();
});

test('the alert bar can be dismissed', async ({ page }) => {
  await page.goto('/forms');
  await expect(page.getByText('This is a dismissible information bar.')).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('This is a dismissible information bar.')).toBeHidden();
});

test('the kit page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/forms');
  await expect(status(page)).toHaveText(/Rows loaded: 30\b/);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('button', { name: 'Delete policy' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the table loads more with the keyboard alone', async ({ page }) => {
  await page.goto('/forms');
  await expect(status(page)).toHaveText(/Rows loaded: 30\b/);
  await table(page).focus();
  await page.keyboard.press('End');
  await expect(status(page)).toHaveText(/Rows loaded: 60\b/);
});

test('the kit speaks German and Polish too', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('bo.language', 'de'));
  await page.goto('/forms');
  await expect(page.getByRole('heading', { level: 1, name: 'Komponentenbaukasten' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Ort filtern' })).toBeVisible();
  await page.getByRole('button', { name: 'Absenden' }).click();
  await expect(page.getByText('First name ist ein Pflichtfeld')).toBeVisible();
  await page.evaluate(() => localStorage.setItem('bo.language', 'pl'));
  await page.addInitScript(() => localStorage.setItem('bo.language', 'pl'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Zestaw komponentów' })).toBeVisible();
  await expect(page.getByTestId('table-status')).toHaveText(/Załadowane wiersze: 30/);
});
