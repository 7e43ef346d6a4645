import { expect, signIn, test } from './fixtures.ts';

test('switches the language en -> de -> pl; each choice reloads the page in it', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();

  await page.getByRole('button', { name: 'Language: English' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Deutsch', 'Polski']);
  await Promise.all([
    page.waitForEvent('load'),
    page.getByRole('menuitem', { name: 'Deutsch' }).click(),
  ]);
  await expect(page.getByRole('heading', { name: 'Hallo, Ada Admin!' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page).toHaveTitle('Dashboard | Insurance Back Office');
  await expect(page.getByRole('navigation', { name: 'Hauptmenü' })).toBeVisible();

  await page.getByRole('button', { name: 'Sprache: Deutsch' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['English', 'Polski']);
  await Promise.all([
    page.waitForEvent('load'),
    page.getByRole('menuitem', { name: 'Polski' }).click(),
  ]);
  await expect(page.getByRole('heading', { name: 'Witaj, Ada Admin!' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page.getByRole('navigation', { name: 'Menu główne' })).toBeVisible();
  await expect(page).toHaveTitle('Pulpit | Insurance Back Office');

  // A feature screen's own texts load in the chosen language too (not only the shell's).
  await page
    .getByRole('navigation', { name: 'Menu główne' })
    .getByRole('link', { name: 'Użytkownicy' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Użytkownicy' })).toBeVisible();
  await expect(page.getByLabel('Szukaj użytkowników')).toBeVisible();
});
