import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';

/** Holds back a lazily loaded chunk until `release`, to act before its code is there. */
async function holdChunk(page: Page, name: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/assets/${name}-[^/]+\\.js$`), async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

test.describe('shell', () => {
  test('the header search finds the screens the user may open and opens one with Enter', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.test');
    const search = page.getByRole('combobox', { name: 'Search' });
    await search.fill('prof');
    await expect(page.getByRole('option', { name: 'Profile' })).toBeVisible();
    await search.press('ArrowDown');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/u\/0\/profile$/);

    await search.fill('zzz');
    await expect(page.getByText('No screen matches.')).toBeVisible();
  });

  test('the header search and the account menu work by keyboard before their code has loaded', async ({
    page,
  }) => {
    // Issue 14: both load Headless UI on first use; what the user does before must not be lost.
    const search = await holdChunk(page, 'combobox-parts');
    const menu = await holdChunk(page, 'menu-parts');
    await signIn(page, 'admin@demo.test');

    const field = page.getByRole('combobox', { name: 'Search' });
    await field.focus();
    await page.keyboard.type('prof');
    await expect(field).toHaveValue('prof');
    search.release();
    await expect(page.getByRole('option', { name: 'Profile' })).toBeVisible();
    await expect(field).toBeFocused();
    await expect(field).toHaveValue('prof');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Account menu for / }).focus();
    await page.keyboard.press('Enter');
    menu.release();
    await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/u\/0\/profile$/);
  });

  test('the header search does not offer a screen without permission', async ({ page }) => {
    await signIn(page, 'viewer@demo.test');
    // "sett" finds the product settings the viewer may read, never the tenant settings.
    await page.getByRole('combobox', { name: 'Search' }).fill('sett');
    await expect(page.getByRole('option', { name: /Product settings/ })).toBeVisible();
    await expect(page.getByRole('option', { name: /^Settings/ })).toHaveCount(0);
  });

  test('navigation scrolls the new page to the top', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 300 });
    await signIn(page, 'admin@demo.test');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // The side menu's "Account" sub-menu holds the profile.
    await page.getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/u\/0\/profile$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
