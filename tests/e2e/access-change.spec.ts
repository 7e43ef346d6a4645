import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';

// A seeded product manager no other spec signs in with (server/sandbox/seed-administration.ts).
const USER = 'carla.otto2@demo.test';

async function setShowOnly(admin: Page, checked: boolean) {
  await admin.getByLabel('Search users').fill(USER);
  const table = admin.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await admin.getByRole('button', { name: `Roles of ${USER}` }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByRole('checkbox', { name: 'Show only' }).setChecked(checked);
  await dialog.getByRole('button', { name: 'Save' }).click();
  // The row, not the toast: the first save's toast may still be on screen at the second.
  const row = table.getByRole('row').nth(1);
  if (checked) await expect(row).toContainText('Show only');
  else await expect(row).not.toContainText('Show only');
}

test('a role change reaches the signed-in user at once: the menu follows without a reload', async ({
  page,
  browser,
}) => {
  await signIn(page, USER);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Users' })).toHaveCount(0);
  // Any reload would clear this marker: its survival proves the page was not reloaded.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

  const adminContext = await browser.newContext({ locale: 'en-US' });
  const admin = await adminContext.newPage();
  await admin.addInitScript(() => localStorage.setItem('bo.language', 'en'));
  await signIn(admin, 'admin@demo.test');
  await admin.goto('/u/0/admin/users');

  await setShowOnly(admin, true);
  await expect(menu.getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(page.getByText('Your access rights were changed by an administrator')).toBeVisible();
  await expect(page.getByText('Your access rights were changed.')).toBeVisible();

  // The new screen opens, then the right is taken away again while the user is on it.
  await menu.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await setShowOnly(admin, false);
  await expect(menu.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(page.getByText('Error 403')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

  await adminContext.close();
});
