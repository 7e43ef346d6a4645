import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

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

test('a user without UI permission is refused after single sign-on (noAccessUser)', async ({
  page,
}) => {
  await page.goto('/login/demo');
  await page.getByLabel('User').selectOption({ label: 'Noah Noui <noui@demo.test>' });
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login\/saml\?/);
  await expect(page.getByRole('alert')).toHaveText(
    'Your account has no access to this application. Please contact your administrator.',
  );
  await expect(page.getByRole('heading', { name: 'Single sign-on failed' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a code used once already gives the loginError text (UNAUTHORIZED)', async ({
  page,
  browser,
}) => {
  await page.goto('/login/demo');
  await page.getByLabel('User').selectOption({ label: 'Max Manager <manager@demo.test>' });
  // The callback page moves on at once; its address is caught as it is asked for, since by the
  // time a waitForURL looked, the page could already be home (flaky under load).
  const callbackRequest = page.waitForRequest(/\/login\/saml\?/);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const callback = (await callbackRequest).url();
  await expect(page).toHaveURL(/\/u\/0\/home$/);

  const other = await browser.newContext();
  const replay = await other.newPage();
  await replay.addInitScript(() => localStorage.setItem('bo.language', 'en'));
  await replay.goto(callback);
  await expect(replay.getByRole('alert')).toHaveText(
    'The single sign-on could not be completed. Please sign in again.',
  );
  await expect(replay).toHaveTitle('Single sign-on | Insurance Back Office');
  await expectNoSeriousA11yViolations(replay);
  await other.close();
});

test('an error other than UNAUTHORIZED gives the changePasswordError text', async ({ page }) => {
  // The BFF refuses a malformed tenant slug with 400 bad_request before asking the upstream.
  await page.goto('/login/saml?tenantSlug=Not%20A%20Slug&code=abc');
  await expect(page.getByRole('alert')).toHaveText('Something went wrong while signing you in.');
});

test('a callback without tenantSlug shows the generic error', async ({ page }) => {
  await page.goto('/login/saml?code=abc');
  await expect(page.getByRole('alert')).toHaveText('Something went wrong. Please try again.');
  await expectNoSeriousA11yViolations(page);
});

test('the unknown-tenant page offers the way back to sign-in', async ({ page }) => {
  await page.goto('/login/no-such-tenant');
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
});
