import {
  expect,
  expectNoSeriousA11yViolations,
  openProfileMenu,
  signIn,
  test,
} from './fixtures.ts';

test('the sign-in page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the shell has no serious accessibility violations, menus included', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await expect(page.getByTestId('connection-state')).toContainText('Connection opened.');
  await expectNoSeriousA11yViolations(page);
  await openProfileMenu(page);
  await expect(page.getByRole('menu')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('menus work with the keyboard alone', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  const help = page.getByRole('button', { name: 'Help' });
  await help.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/u\/0\/help\/(documentation|release-notes)$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the side menu folds away below 992 px and opens from the header', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await signIn(page, 'admin@demo.test');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect(menu).toBeVisible();
  await menu.getByRole('button', { name: 'Account' }).click();
  await menu.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/u\/0\/profile$/);
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
});

test('the tour dialog keeps focus inside and closes with Escape', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.getByRole('button', { name: 'Help' }).click();
  await page.getByRole('menuitem', { name: 'Explanatory tour' }).click();
  const dialog = page.getByRole('dialog', { name: 'Welcome to the back office' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
