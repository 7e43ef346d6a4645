import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, fillSignIn, test } from './fixtures.ts';
import { adminSession, freshEmail, inviteOrganization, inviteUser } from './invitations.ts';

const PASSWORD = 'Fresh1234';

const stepHeading = (page: Page) => page.getByRole('heading', { level: 2 });
// The label reads 'Password *'; the accessible name is 'Password'.
const passwordBox = (page: Page) => page.getByRole('textbox', { name: 'Password', exact: true });
const next = (page: Page) => page.getByRole('button', { name: 'Next' });
const errorsOf = (page: Page, label: string) =>
  page.getByRole('textbox', { name: label, exact: true }).locator('xpath=..').getByRole('listitem');

async function fillPerson(page: Page, password = PASSWORD) {
  await page.getByLabel('First name').fill('Rita');
  await page.getByLabel('Last name').fill('Register');
  await passwordBox(page).fill(password);
  await page.getByLabel('Repeat password').fill(password);
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
}

async function fillAddress(page: Page) {
  await page.getByLabel('Street').fill('Ringstraße');
  await page.getByLabel('House number').fill('7');
  await page.getByLabel('Postcode').fill('04109');
  await page.getByLabel('City').fill('Leipzig');
  await page.getByLabel('Country').fill('Deutschland');
}

test.describe('registration by invitation', () => {
  test('an invited user registers through the e-mail link, then signs in', async ({
    page,
    baseURL,
  }) => {
    const admin = await adminSession(baseURL!, 'admin@demo.test');
    const email = freshEmail('registers');
    const link = await inviteUser(admin, email);

    await page.goto(link);
    await expect(page).toHaveTitle('Registration | Insurance Back Office');
    // The demo tenant has a custom schema: three steps.
    await expect(stepHeading(page)).toHaveText('1/3Your details');
    await expect(stepHeading(page)).toBeFocused();
    await expect(page.getByLabel('E-mail address')).toHaveValue(email);
    await expect(page.getByLabel('E-mail address')).toHaveAttribute('readonly', '');
    await expectNoSeriousA11yViolations(page);

    // Every rule of the user step, with the spec's messages.
    await next(page).click();
    await expect(stepHeading(page)).toHaveText('1/3Your details');
    await expect(errorsOf(page, 'First name')).toHaveText(['First name is required']);
    await expect(errorsOf(page, 'Last name')).toHaveText(['Last name is required']);
    await expect(page.getByText('This box must be ticked')).toBeVisible();
    const password = passwordBox(page);
    await password.fill('Short1');
    await expect(errorsOf(page, 'Password')).toContainText([
      'The password must be at least 8 characters long',
    ]);
    await password.fill('alllowercase1');
    await expect(errorsOf(page, 'Password')).toHaveText([
      'The password must contain an upper-case letter, a lower-case letter and a digit',
    ]);
    await password.fill(PASSWORD);
    await page.getByLabel('Repeat password').fill('Fresh12345');
    await expect(errorsOf(page, 'Repeat password')).toHaveText(['The passwords do not match']);
    await expect(
      page.getByRole('link', { name: 'terms of use (opens in a new tab)' }),
    ).toHaveAttribute('href', '/terms');
    await expect(
      page.getByRole('link', { name: 'privacy policy (opens in a new tab)' }),
    ).toHaveAttribute('target', '_blank');
    await fillPerson(page);
    await next(page).click();

    // Custom data: the tenant's schema through the form kit.
    await expect(stepHeading(page)).toHaveText('2/3Additional information');
    await next(page).click();
    await expect(page.getByText('Registration number is required')).toBeVisible();
    await page.getByLabel('Registration number').fill('HR');
    await expect(page.getByText('Please enter at least 3 characters')).toBeVisible();
    await page.getByLabel('Registration number').fill('HRB 4711');
    await page.getByLabel('Employees').fill('many');
    await expect(page.getByText('Please enter a number')).toBeVisible();
    await page.getByLabel('Employees').fill('');
    await expectNoSeriousA11yViolations(page);

    // Values are kept when going back and forth.
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(stepHeading(page)).toHaveText('1/3Your details');
    await expect(page.getByLabel('First name')).toHaveValue('Rita');
    await expect(page.getByRole('checkbox', { name: /I accept/ })).toBeChecked();
    await next(page).click();
    await expect(page.getByLabel('Registration number')).toHaveValue('HRB 4711');
    await next(page).click();

    // Organisation data: every field required, the button disabled until valid.
    await expect(stepHeading(page)).toHaveText('3/3Organisation');
    const register = page.getByRole('button', { name: 'Register' });
    await expect(register).toBeDisabled();
    await page.getByLabel('Street').fill('x');
    await page.getByLabel('Street').fill('');
    await expect(page.getByText('Street is required')).toBeVisible();
    await fillAddress(page);
    await expectNoSeriousA11yViolations(page);
    await register.click();

    await expect(page).toHaveURL(/\/success-registration$/);
    await expect(page).toHaveTitle('Registration complete | Insurance Back Office');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await fillSignIn(page, email, PASSWORD);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Hello, Rita Register' }),
    ).toBeVisible();
    await admin.dispose();
  });

  test('a reload mid-wizard keeps the step and what was typed, never the password', async ({
    page,
    baseURL,
  }) => {
    const admin = await adminSession(baseURL!, 'admin@demo.test');
    const email = freshEmail('user-reload');
    await page.goto(await inviteUser(admin, email));
    await expect(stepHeading(page)).toHaveText('1/3Your details');
    await fillPerson(page);
    await next(page).click();
    await expect(stepHeading(page)).toHaveText('2/3Additional information');
    await page.getByLabel('Registration number').fill('HRB 4711');

    await page.reload();
    await expect(stepHeading(page)).toHaveText('2/3Additional information');
    await expect(page.getByLabel('Registration number')).toHaveValue('HRB 4711');
    const stored = await page.evaluate(() => JSON.stringify(sessionStorage));
    expect(stored).toContain('Register');
    expect(stored).not.toContain(PASSWORD);
    await next(page).click();
    await expect(stepHeading(page)).toHaveText('3/3Organisation');
    await fillAddress(page);
    await page.reload();
    await expect(stepHeading(page)).toHaveText('3/3Organisation');
    await expect(page.getByLabel('City')).toHaveValue('Leipzig');

    // Register without the password (never kept) would be refused: the wizard asks for it.
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(stepHeading(page)).toHaveText('1/3Your details');
    await expect(
      page.getByText('the password is not kept when the page is reloaded'),
    ).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveValue('Rita');
    await expect(page.getByLabel('Last name')).toHaveValue('Register');
    await expect(page.getByRole('checkbox', { name: /I accept/ })).toBeChecked();
    await expect(passwordBox(page)).toHaveValue('');
    await passwordBox(page).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(PASSWORD);
    await next(page).click();
    await expect(page.getByLabel('Registration number')).toHaveValue('HRB 4711');
    await next(page).click();
    await expect(page.getByLabel('City')).toHaveValue('Leipzig');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/success-registration$/);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await admin.dispose();
  });

  test('without a custom schema the wizard has two steps', async ({ page, baseURL }) => {
    const admin = await adminSession(baseURL!, 'admin@nordlicht.test');
    const email = freshEmail('two-steps');
    await page.goto(await inviteUser(admin, email));
    await expect(stepHeading(page)).toHaveText('1/2Your details');
    await fillPerson(page);
    await next(page).click();
    await expect(stepHeading(page)).toHaveText('2/2Organisation');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(stepHeading(page)).toHaveText('1/2Your details');
    await expect(page.getByLabel('Repeat password')).toHaveValue(PASSWORD);
    await admin.dispose();
  });

  test('an invalid or missing token leads to the expired-token page', async ({ page }) => {
    await page.goto('/registration?token=not-a-real-token');
    await expect(page).toHaveURL(/\/expired-token$/);
    await expect(page).toHaveTitle('Invitation link expired | Insurance Back Office');
    await expect(
      page.getByText('This link is invalid, has expired or was already used.'),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.goto('/registration');
    await expect(page).toHaveURL(/\/expired-token$/);
    await page.goto('/organization/registration?token=not-a-real-token');
    await expect(page).toHaveURL(/\/expired-token$/);
  });

  test('the legal pages of the EULA are public', async ({ page }) => {
    await page.goto('/terms');
    await expect(page).toHaveTitle('Terms of use | Insurance Back Office');
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
  });
});

test.describe('organisation registration by invitation', () => {
  test('without a token the not-found page shows', async ({ page }) => {
    await page.goto('/organization/registration');
    await expect(page.getByRole('heading', { name: 'Error 404' })).toBeVisible();
  });

  test('the contact person registers the organisation, offered single sign-on too', async ({
    page,
    baseURL,
  }) => {
    const admin = await adminSession(baseURL!, 'admin@demo.test');
    const email = freshEmail('org-contact');
    const { link } = await inviteOrganization(admin, {
      name: 'Makler Nord GmbH',
      email,
      offerSso: true,
      address: { street: 'Lindenallee', city: 'Leipzig' },
      customFields: { registrationNumber: 'HRB 1000' },
    });
    const token = new URL(link, baseURL).searchParams.get('token')!;

    await page.goto(link);
    await expect(page).toHaveTitle('Organisation registration | Insurance Back Office');
    await expect(stepHeading(page)).toHaveText('1/3Organisation');
    await expect(page).toHaveURL(
      (url) => url.search === '' && url.hash === `#step=orgData&token=${token}`,
    );
    await expect(page.getByLabel('Organisation name')).toHaveValue('Makler Nord GmbH');
    await expect(page.getByLabel('Street')).toHaveValue('Lindenallee');
    await expect(next(page)).toBeDisabled();
    await page.getByLabel('House number').fill('12');
    await page.getByLabel('Postcode').fill('04109');
    await page.getByLabel('Country').fill('Deutschland');
    await expectNoSeriousA11yViolations(page);
    await next(page).click();

    await expect(page).toHaveURL((url) => url.hash === `#step=customData&token=${token}`);
    await expect(page.getByLabel('Registration number')).toHaveValue('HRB 1000');
    await next(page).click();

    await expect(page).toHaveURL((url) => url.hash === `#step=userData&token=${token}`);
    await expect(stepHeading(page)).toHaveText('3/3Contact person');
    await expect(page.getByLabel('E-mail address')).toHaveValue(email);
    await expect(page.getByLabel('E-mail address')).toHaveAttribute('readonly', '');
    await expect(
      page.getByRole('link', { name: 'Register with your company sign-in' }),
    ).toHaveAttribute('href', '/sandbox-idp/login?tenantSlug=demo');
    await expect(page.getByText('or', { exact: true })).toBeVisible();
    await expect(
      page.getByText(
        'At least 8 characters, with an upper-case letter, a lower-case letter and a digit.',
      ),
    ).toBeVisible();
    const register = page.getByRole('button', { name: 'Register' });
    await expect(register).toBeDisabled();
    // Validates on every change: the message shows while typing.
    await page.getByLabel('First name').fill('Otto');
    await passwordBox(page).fill('weak');
    await expect(page.getByText('The password must be at least 8 characters long')).toBeVisible();
    await fillPerson(page);
    await expectNoSeriousA11yViolations(page);
    await expect(register).toBeEnabled();
    await register.click();

    await expect(page).toHaveURL(/\/success-registration$/);
    await page.goto('/login');
    await fillSignIn(page, email, PASSWORD);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Hello, Rita Register' }),
    ).toBeVisible();
    await admin.dispose();
  });
});

/** The page speaks German from its next load on (the guest pages read the stored choice). */
async function inGerman(page: Page) {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
}

/** Sets an input's value as a paste past `maxlength` would (the browser itself cuts typing). */
async function forceValue(page: Page, label: string, value: string) {
  await page
    .getByRole('textbox', { name: label, exact: true })
    .evaluate((input: HTMLInputElement, text) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, value);
}

test.describe('Registrierungsassistenten (issue 16: Schritte ohne Sackgasse)', () => {
  test('ein Vorname mit 310 Zeichen wird im ersten Schritt am Feld abgelehnt', async ({
    page,
    baseURL,
  }) => {
    const admin = await adminSession(baseURL!, 'admin@demo.test');
    const link = await inviteUser(admin, freshEmail('long-name'));
    await inGerman(page);
    await page.goto(link);
    await expect(stepHeading(page)).toHaveText(/^1\/\dIhre Angaben$/);
    const firstName = page.getByRole('textbox', { name: 'Vorname', exact: true });
    await expect(firstName).toHaveAttribute('maxlength', '100');
    // The password fields stop where the shared rule does (common/password-rules.ts).
    await expect(page.locator('input[name="newPassword"]')).toHaveAttribute('maxlength', '200');
    await expect(page.locator('input[name="confirmPassword"]')).toHaveAttribute('maxlength', '200');
    await expect(page.getByRole('textbox', { name: 'Ort', exact: true })).toHaveCount(0);
    // Typing stops at the limit; a value past it (pasted, restored) is refused at the field.
    await firstName.fill('R'.repeat(310));
    await expect(firstName).toHaveValue('R'.repeat(100));
    await forceValue(page, 'Vorname', 'R'.repeat(310));
    await page.getByRole('button', { name: 'Weiter' }).click();
    await expect(
      page
        .getByRole('textbox', { name: 'Vorname', exact: true })
        .locator('xpath=..')
        .getByRole('listitem'),
    ).toHaveText(['Bitte geben Sie höchstens 100 Zeichen ein']);
    await expect(stepHeading(page)).toHaveText(/^1\/\dIhre Angaben$/);
    await expect(page.getByText(/Invalid length|Expected/)).toHaveCount(0);
    await admin.dispose();
  });

  test('Zurück geht einen Schritt zurück, ein Neuladen behält die Eingaben (nicht das Passwort)', async ({
    page,
    baseURL,
  }) => {
    const admin = await adminSession(baseURL!, 'admin@demo.test');
    const email = freshEmail('org-history');
    const { link } = await inviteOrganization(admin, {
      name: `Historie ${email}`,
      email,
      address: { street: 'Lindenallee', city: 'Leipzig' },
      customFields: { registrationNumber: 'HRB 1000' },
    });
    await inGerman(page);
    await page.goto(link);
    await expect(stepHeading(page)).toHaveText('1/3Organisation');
    await page.getByLabel('Hausnummer').fill('12');
    await page.getByLabel('Postleitzahl').fill('04109');
    await page.getByLabel('Land').fill('Deutschland');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await expect(stepHeading(page)).toHaveText('2/3Weitere Angaben');
    await page.getByLabel('Handelsregisternummer').fill('HRB 2000');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await expect(stepHeading(page)).toHaveText('3/3Kontaktperson');
    await page.getByLabel('Vorname').fill('Otto');

    // The browser's Back: one step, with what was typed there.
    await page.goBack();
    await expect(stepHeading(page)).toHaveText('2/3Weitere Angaben');
    await expect(page).toHaveURL(/#step=customData&token=/);
    await expect(page.getByLabel('Handelsregisternummer')).toHaveValue('HRB 2000');
    await page.goBack();
    await expect(stepHeading(page)).toHaveText('1/3Organisation');
    await expect(page.getByLabel('Hausnummer')).toHaveValue('12');
    await expect(page.getByLabel('Straße')).toHaveValue('Lindenallee');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: 'Weiter' }).click();
    await expect(stepHeading(page)).toHaveText('3/3Kontaktperson');
    await expect(page.getByLabel('Vorname')).toHaveValue('Otto');
    // The Previous button is Back as well.
    await page.getByRole('button', { name: 'Zurück' }).click();
    await expect(stepHeading(page)).toHaveText('2/3Weitere Angaben');
    await page.getByRole('button', { name: 'Weiter' }).click();

    await page.getByLabel('Nachname').fill('Org');
    await page.getByRole('textbox', { name: 'Passwort', exact: true }).fill(PASSWORD);
    await page.reload();
    await expect(stepHeading(page)).toHaveText('3/3Kontaktperson');
    await expect(page.getByLabel('Vorname')).toHaveValue('Otto');
    await expect(page.getByLabel('Nachname')).toHaveValue('Org');
    await expect(page.getByRole('textbox', { name: 'Passwort', exact: true })).toHaveValue('');
    const stored = await page.evaluate(() => JSON.stringify(sessionStorage));
    expect(stored).toContain('Otto');
    expect(stored).not.toContain(PASSWORD);
    await page.goBack();
    await expect(stepHeading(page)).toHaveText('2/3Weitere Angaben');
    await expect(page.getByLabel('Handelsregisternummer')).toHaveValue('HRB 2000');
    await page.getByRole('button', { name: 'Weiter' }).click();

    await page.getByRole('textbox', { name: 'Passwort', exact: true }).fill(PASSWORD);
    await page.getByLabel('Passwort wiederholen').fill(PASSWORD);
    await page.getByRole('checkbox', { name: /Nutzungsbedingungen/ }).check();
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await expect(page).toHaveURL(/\/success-registration$/);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await admin.dispose();
  });
});
