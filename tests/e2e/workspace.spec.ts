import { expect, openProfileMenu, signIn, test } from './fixtures.ts';

test('switches the workspace after confirming; a disabled one cannot be chosen', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  await expect(page.getByTestId('home-workspace')).toHaveText('demo');
  await openProfileMenu(page);
  const archive = page.getByRole('menuitem', { name: /Demo Archiv/ });
  await expect(archive).toHaveAttribute('aria-disabled', 'true');
  const current = page.getByRole('menuitem', { name: /current/ });
  await expect(current).toHaveAttribute('aria-disabled', 'true');

  await page.getByRole('menuitem', { name: /Demo Sandbox/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch workspace' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Switch' }).click();

  // The page reloads in the new workspace: sandbox mode is announced.
  await expect(page.getByTestId('home-workspace')).toHaveText('demo-sandbox');
  await expect(page.getByTestId('sandbox-banner')).toContainText('demo-sandbox');
  await expect(dialog).toHaveCount(0);
});

test('the confirm dialog can be cancelled with the keyboard', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await openProfileMenu(page);
  await page.getByRole('menuitem', { name: /Demo Sandbox/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch workspace' });
  await expect(dialog).toBeVisible();
  // Focus is inside the dialog, on its main action.
  await expect(dialog.getByRole('button', { name: 'Switch' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('home-workspace')).toHaveText('demo');
});
