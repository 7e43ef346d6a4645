import { expect, test } from './fixtures.ts';

test('signs in through the sandbox identity provider (single sign-on)', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Organisation').fill('demo');
  await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
  await expect(page).toHaveURL(/\/sandbox-idp\/login\?tenantSlug=demo$/);
  await page.getByLabel('User').selectOption({ label: 'Max Manager <manager@demo.test>' });
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/u\/0\/home$/);
  await expect(page.getByRole('heading', { name: 'Hello, Max Manager!' })).toBeVisible();
});

test("/login/{tenantName} goes straight to that tenant's identity provider", async ({ page }) => {
  await page.goto('/login/demo');
  await expect(page).toHaveURL(/\/sandbox-idp\/login\?tenantSlug=demo$/);
});

test('an unknown tenant shows an error on /login/{tenantName}', async ({ page }) => {
  await page.goto('/login/no-such-tenant');
  await expect(page.getByRole('alert')).toHaveText(
    'The single sign-on of this organisation is not available.',
  );
});

test('a used or invalid code shows the error page with a way home', async ({ page }) => {
  await page.goto('/login/saml?tenantSlug=demo&code=not-a-real-code');
  await expect(page.getByRole('alert')).toHaveText(
    'The single sign-on could not be completed. Please sign in again.',
  );
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a callback without code shows the generic error', async ({ page }) => {
  await page.goto('/login/saml?tenantSlug=demo');
  await expect(page.getByRole('alert')).toHaveText('Something went wrong. Please try again.');
});
