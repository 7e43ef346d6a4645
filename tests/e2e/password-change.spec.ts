import { DEMO_PASSWORD, expect, fillSignIn, signIn, test } from './fixtures.ts';

// newpass@demo.test is flagged in the seeded demo world. This spec changes the password for the
// rest of the run (each run starts from a fresh DATA_DIR), so its steps run in order, once.
test.describe.configure({ mode: 'serial' });

const NEW_PASSWORD = 'Changed-Pass1';

test.describe('forced password change', () => {
  test('a flagged user is forced to /u/{i}/changepassword and cannot leave it', async ({
    page,
  }) => {
    await page.goto('/login');
    await fillSignIn(page, 'newpass@demo.test');
    await expect(page).toHaveURL(/\/u\/0\/changepassword$/);
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
    await expect(
      page.getByText('Your password must be changed before you continue.'),
    ).toBeVisible();
    // No old password is asked: the BFF holds the sign-in challenge.
    await expect(page.getByLabel('Current password')).toHaveCount(0);

    await page.goto('/u/0/home');
    await expect(page).toHaveURL(/\/u\/0\/changepassword\?backUrl=%2Fu%2F0%2Fhome$/);

    // An empty submit says what is missing.
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Enter a password here.')).toHaveCount(2);

    // Keeping the old password is no change: the service refuses it.
    await page.getByLabel('New password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel('Repeat new password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The new password must differ from the current one.',
    );
    // The way out is signing out, not skipping the change.
    await expect(page.getByRole('link', { name: 'Sign out instead' })).toHaveAttribute(
      'href',
      '/u/0/logout',
    );

    // A password that breaks the rules is refused by the server; the page stays.
    await page.getByLabel('New password', { exact: true }).fill('weakpassword');
    await page.getByLabel('Repeat new password').fill('weakpassword');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The new password does not meet the password rules.',
    );

    // Mismatch is caught before any call.
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat new password').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('The two passwords do not match.')).toBeVisible();

    await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    // Then on to the backUrl the page was given.
    await expect(page).toHaveURL(/\/u\/0\/home$/);
    await expect(page.getByRole('heading', { name: /^Hello, / })).toBeVisible();
  });

  test('the new password signs in straight to the shell; the old one no longer works', async ({
    page,
  }) => {
    await page.goto('/login');
    await fillSignIn(page, 'newpass@demo.test', DEMO_PASSWORD);
    await expect(page.getByRole('alert')).toHaveText(
      'The e-mail address or the password is not correct.',
    );
    await fillSignIn(page, 'newpass@demo.test', NEW_PASSWORD);
    await expect(page).toHaveURL(/\/u\/0\/home$/);
  });
});

test('a signed-in user changing the password must give the current one', async ({ page }) => {
  await signIn(page, 'care@demo.test');
  await page.goto('/u/0/profile');
  await page.getByRole('link', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/u\/0\/changepassword\?backUrl=%2Fu%2F0%2Fprofile$/);
  await page.getByLabel('Current password').fill('Not-the-password-1');
  await page.getByLabel('New password', { exact: true }).fill('Another-Pass1');
  await page.getByLabel('Repeat new password').fill('Another-Pass1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toHaveText('The current password is not correct.');

  // The same password twice is caught before any call; Cancel goes back where the user came from.
  await page.getByLabel('Current password').fill('Another-Pass1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The new password must differ from the current one.')).toBeVisible();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/u\/0\/profile$/);
});
