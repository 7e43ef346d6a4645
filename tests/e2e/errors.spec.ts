import { expect, signIn, test } from './fixtures.ts';

test.describe('404 and 403 pages', () => {
  test('an unknown route outside /u shows the 404 page with its path', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Error 404' })).toBeVisible();
    await expect(page.getByText('bad request')).toBeVisible();
    await expect(page.getByText('/no/such/page')).toBeVisible();
    await expect(page).toHaveTitle('Error 404 | Insurance Back Office');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an unknown route inside the shell shows the 404 page there', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await page.goto('/u/0/unknown-screen');
    await expect(page.getByRole('heading', { name: 'Error 404' })).toBeVisible();
    await expect(page.getByText('/u/0/unknown-screen')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  });

  test('an account index that is not digits is a 404', async ({ page }) => {
    await page.goto('/u/abc/home');
    await expect(page.getByRole('heading', { name: 'Error 404' })).toBeVisible();
  });

  test('a known screen outside /u is sent into /u/0', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/u\/0\/profile$/);
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  });

  test('a detail screen opens at first load, from outside /u too, with its breadcrumbs; a click opens the next', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.test');
    // Detail screens load with their first address (router.tsx, patchRoutesOnNavigation).
    await page.goto('/admin/roles/new');
    await expect(page).toHaveURL(/\/u\/0\/admin\/roles\/new$/);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await expect(crumbs.getByRole('link', { name: 'Roles' })).toBeVisible();
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('New role');
    await crumbs.getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('row').nth(1).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/u\/0\/admin\/roles\/[^/]+$/);
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Role');
    // Below a detail screen, an address no screen has is still the shell's 404.
    await page.goto('/u/0/policies/P-1/no/such/part');
    await expect(page.getByRole('heading', { name: 'Error 404' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  });

  test('a screen without permission shows the 403 page and is not in the menu', async ({
    page,
  }) => {
    await signIn(page, 'viewer@demo.test');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('button', { name: 'Account' }).click();
    await expect(menu.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Settings', exact: true })).toHaveCount(0);

    await page.goto('/u/0/settings');
    await expect(page.getByRole('heading', { name: 'Error 403' })).toBeVisible();
    await expect(page.getByText('no access', { exact: true })).toBeVisible();
    await expect(page.getByText('/u/0/settings')).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/u\/0\/home$/);
  });

  test('the admin may open the settings screen', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await page.goto('/u/0/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  });
});
