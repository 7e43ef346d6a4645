import type { APIRequestContext } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// A seeded product manager no other spec touches: this spec changes the password.
const EMAIL = 'ida.dietrich30@demo.test';
const NEW_PASSWORD = 'Fresh2024x';

/** The newest reset link the sandbox "sent" to `to` (the sandbox outbox, newest first). */
async function latestResetLink(request: APIRequestContext, to: string): Promise<string> {
  const res = await request.get(`/sandbox/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status()).toBe(200);
  const { items } = (await res.json()) as { items: { subject: string; link: string }[] };
  // The demo tenant's e-mails are German; the link is absolute, the page's own origin aside.
  const mail = items.find((item) => item.subject === 'Passwort zurücksetzen');
  expect(mail, `a reset e-mail to ${to}`).toBeDefined();
  const link = new URL(mail!.link);
  return link.pathname + link.search;
}

test('a reset ends the old session, the new password signs in, the link works once', async ({
  browser,
  request,
}) => {
  // Three browsers and two sign-ins: more than the default 30 s on a busy 2-core machine.
  test.setTimeout(60_000);
  // First browser: the user is signed in.
  const signedIn = await browser.newContext();
  const oldPage = await signedIn.newPage();
  await oldPage.addInitScript(() => localStorage.setItem('bo.language', 'en'));
  await signIn(oldPage, EMAIL);

  // Second browser: forgot password, from the sign-in page.
  const other = await browser.newContext();
  const page = await other.newPage();
  await page.addInitScript(() => localStorage.setItem('bo.language', 'en'));
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/account\/resetpassword$/);
  await expect(page).toHaveTitle('Reset password | Insurance Back Office');
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const emailField = page.getByLabel('E-mail address');
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText('E-mail address is required')).toBeVisible();
  await expect(emailField).toBeFocused();
  await emailField.fill('ida.dietrich30');
  await expect(page.getByText('The e-mail address has an invalid format')).toBeVisible();
  await emailField.fill(EMAIL);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  await expect(page.getByRole('status').first()).toContainText(`If an account exists for ${EMAIL}`);
  await expectNoSeriousA11yViolations(page);

  // The link of the e-mail: verify, then the new password with the rules shown first.
  const link = await latestResetLink(request, EMAIL);
  expect(link).toMatch(/^\/account\/resetpassword\?resetToken=[\w-]+$/);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText(`Choose a new password for ${EMAIL}.`)).toBeVisible();
  const password = page.getByLabel(/^New password/);
  const confirm = page.getByLabel('Repeat new password');
  await password.fill('short');
  await confirm.fill('shorter');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('The password must be at least 8 characters long')).toBeVisible();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await expect(password).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await password.fill('lowercase1');
  await expect(
    page.getByText(
      'The password must contain an upper-case letter, a lower-case letter and a digit',
    ),
  ).toBeVisible();
  await password.fill(NEW_PASSWORD);
  await confirm.fill(NEW_PASSWORD);
  await expect(page.getByRole('listitem')).toHaveCount(0);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: 'Sign in with the new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, EMAIL, NEW_PASSWORD);

  // The first browser's session is over: its next API call sends it to sign-in.
  await oldPage.reload();
  await expect(oldPage).toHaveURL(/\/login\?backUrl=/);
  await expect(oldPage.getByRole('alert')).toHaveText(
    'Your session has ended. Please sign in again.',
  );

  // The same link again: spent, so /expired-token.
  await page.goto(link);
  await expect(page).toHaveURL(/\/expired-token\?link=reset$/);
  await expect(
    page.getByRole('heading', { name: 'Password reset link no longer valid' }),
  ).toBeVisible();
  await expect(page.getByText('invited')).toHaveCount(0);
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(/\/account\/resetpassword$/);
  await expect(page.getByLabel('E-mail address')).toBeVisible();

  await signedIn.close();
  await other.close();
});

test('the confirmation is the same for an address without an account', async ({
  page,
  request,
}) => {
  const unknown = 'nobody-at-all@example.test';
  await page.goto('/account/resetpassword');
  await page.getByLabel('E-mail address').fill(unknown);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  await expect(page.getByRole('status').first()).toHaveText(
    `If an account exists for ${unknown}, an e-mail with a link to reset its password is on its way. The link works once and for one hour.`,
  );
  const res = await request.get(`/sandbox/outbox?to=${encodeURIComponent(unknown)}`);
  expect(((await res.json()) as { items: unknown[] }).items).toEqual([]);
  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a made-up link goes to /expired-token', async ({ page }) => {
  await page.goto('/account/resetpassword?resetToken=not-a-real-token');
  await expect(page).toHaveURL(/\/expired-token\?link=reset$/);
});
