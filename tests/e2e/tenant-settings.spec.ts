import type { Page } from '@playwright/test';
import {
  expect,
  expectNoSeriousA11yViolations,
  fillSignIn,
  openProfileMenu,
  signIn,
  test,
} from './fixtures.ts';

/**
 * Tenant settings, the dashboard notice, the chat widget and the profile language. The settings
 * test works in the `demo-sandbox` workspace (a tenant of its own) so that no other spec sees
 * its colour, notice or widget; it puts the colour and the widget back at the end.
 */

const brand = (page: Page) =>
  page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--color-brand').trim(),
  );

async function toSandboxWorkspace(page: Page) {
  await signIn(page, 'admin@demo.test');
  await openProfileMenu(page);
  await page.getByRole('menuitem', { name: /Demo Sandbox/ }).click();
  await page
    .getByRole('dialog', { name: 'Switch workspace' })
    .getByRole('button', { name: 'Switch' })
    .click();
  await expect(page.getByTestId('home-workspace')).toHaveText('demo-sandbox');
}

async function saveAndConfirm(page: Page, form: string) {
  await page.getByRole('form', { name: form }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The settings were saved.').last()).toBeVisible();
}

/** A 600 × 300 PNG drawn by the browser, to upload as a logo. */
async function bigPng(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 600;
    canvas.height = 300;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#aa3300';
    context.fillRect(0, 0, 600, 300);
    return canvas.toDataURL('image/png').split(',')[1]!;
  });
  return Buffer.from(base64, 'base64');
}

test('an administrator edits the tenant settings; the shell and dashboard follow', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await toSandboxWorkspace(page);
  await page.goto('/u/0/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'General', selected: true })).toBeVisible();

  // General settings: saved, cached in local storage, still there after a reload.
  const general = page.getByRole('form', { name: 'General settings' });
  await general.getByLabel('Time zone').selectOption('Europe/Warsaw');
  await general.getByLabel('Currency').selectOption('PLN');
  await saveAndConfirm(page, 'General settings');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('bo.general')!))).toMatchObject({
    time_zone: 'Europe/Warsaw',
    currency: 'PLN',
  });
  await page.reload();
  await expect(page.getByLabel('Currency')).toHaveValue('PLN');
  await expectNoSeriousA11yViolations(page);

  // Branding: colour and logo reach the shell at once, without a reload.
  await page.getByRole('tab', { name: 'Branding' }).click();
  await expect(page).toHaveURL(/#tab=branding$/);
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  // The name stops at the service's limit (issue 16, defect 9).
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute(
    'maxlength',
    '200',
  );
  await page.getByLabel('Main colour').fill('#aa3300');
  await page.getByLabel('Logo', { exact: true }).setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: await bigPng(page),
  });
  await expect(page.getByRole('img', { name: 'Logo preview' })).toBeVisible();
  await saveAndConfirm(page, 'Branding');
  await expect.poll(() => brand(page)).toBe('#aa3300');
  const headerLogo = page.getByRole('banner').getByRole('img', { name: /^Logo of / });
  await expect(headerLogo).toHaveAttribute('src', /^data:image\/png;base64,/);
  // Scaled to fit the configured 240 × 80: 600 × 300 becomes 160 × 80.
  expect(
    await headerLogo.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
  ).toEqual([160, 80]);
  expect(
    await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
  ).toBe(true);
  await expectNoSeriousA11yViolations(page);

  // Payment: Braintree needs its access data; then it is saved.
  await page.getByRole('tab', { name: 'Payment' }).click();
  const payment = page.getByRole('form', { name: 'Payment' });
  await payment.getByLabel('Payment provider').selectOption('braintree');
  await payment.getByRole('button', { name: 'Save' }).click();
  await expect(payment.getByText('Merchant ID is required')).toBeVisible();
  await payment.getByLabel('Merchant ID').fill('demo_merchant');
  await payment.getByLabel('Public key').fill('pk_demo_1');
  await expect(payment.getByText('No private key is saved.')).toBeVisible();
  await payment.getByLabel('Private key').fill('sk_demo_secret_4711');
  await saveAndConfirm(page, 'Payment');

  // Dashboard notice and broker management version.
  await page.getByRole('tab', { name: 'Dashboard and brokers' }).click();
  const options = page.getByRole('form', { name: 'Dashboard and brokers' });
  await options.getByLabel('Dashboard notice').fill('Maintenance on Friday from 18:00.');
  await options.getByLabel('Broker management version').selectOption('v1');
  await saveAndConfirm(page, 'Dashboard and brokers');

  // Chat widget: refused while incomplete, then switched on.
  await page.getByRole('tab', { name: 'Chat widget' }).click();
  const widgetForm = page.getByRole('form', { name: 'Chat widget' });
  await widgetForm.getByLabel('Show the chat widget').check();
  await widgetForm.getByRole('button', { name: 'Save' }).click();
  await expect(widgetForm.getByText('Webhook address is required')).toBeVisible();
  await widgetForm.getByLabel('Webhook address').fill('/chat-widget/webhook');
  await widgetForm.getByLabel('Version').fill('1.0.0');
  await saveAndConfirm(page, 'Chat widget');

  // Everything saved survives a reload of the screen.
  await page.goto('/u/0/settings#tab=payment');
  await expect(page.getByLabel('Merchant ID')).toHaveValue('demo_merchant');
  // The secret never comes back: only its last four characters, and the box for a new one empty.
  await expect(page.getByLabel('Private key')).toHaveValue('');
  await expect(page.getByText('Saved: ••••4711.', { exact: false })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('sk_demo_secret');
  await page.goto('/u/0/settings#tab=options');
  await expect(page.getByLabel('Broker management version')).toHaveValue('v1');

  // The dashboard: the notice, and the widget loaded exactly once.
  const scriptLoads: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/chat-widget/1.0.0/widget.js')) {
      scriptLoads.push(request.resourceType());
    }
  });
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByTestId('dashboard-alert')).toContainText(
    'Maintenance on Friday from 18:00.',
  );
  const launcher = page.getByRole('button', { name: 'Chat with the assistant' });
  await expect(launcher).toBeVisible();
  await expect(page.locator('script[src$="/chat-widget/1.0.0/widget.js"]')).toHaveCount(1);
  await expect(page.locator('#bo-chat-widget')).toHaveCount(1);
  expect(scriptLoads.sort()).toEqual(['fetch', 'script']);
  await launcher.click();
  await page.getByLabel('Your message').fill('Hallo');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Sandbox assistant: you wrote “Hallo”.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Leaving the dashboard removes it.
  await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(launcher).toHaveCount(0);
  await expect(page.locator('#bo-chat-widget')).toHaveCount(0);
  await expect(page.locator('script[src*="/chat-widget/"]')).toHaveCount(0);

  // Put the default colour and a switched-off widget back.
  await page.getByRole('tab', { name: 'Branding' }).click();
  await page.getByRole('button', { name: 'Reset to the default colour #1dc4e9' }).click();
  await saveAndConfirm(page, 'Branding');
  await expect.poll(() => brand(page)).toBe('#1dc4e9');
  await page.getByRole('tab', { name: 'Chat widget' }).click();
  await page.getByLabel('Show the chat widget').uncheck();
  await saveAndConfirm(page, 'Chat widget');
});

test('two admins saving the same settings tab see the conflict instead of overwriting', async ({
  page,
}) => {
  await toSandboxWorkspace(page);
  await page.goto('/u/0/settings');
  const general = page.getByRole('form', { name: 'General settings' });
  const dates = general.getByLabel('Date format');
  const hours = general.getByLabel('Time format');
  await expect(dates).toBeEnabled();
  const loadedDates = await dates.inputValue();
  const loadedHours = await hours.inputValue();

  // Another admin saves the tab between this screen's load and its save.
  const url = '/api/0/tenantservice/v1/general';
  const { general: current } = (await (await page.request.get(url)).json()) as {
    general: Record<string, unknown> & { version: number };
  };
  const theirDates = loadedDates === 'YYYY-MM-DD' ? 'DD.MM.YYYY' : 'YYYY-MM-DD';
  const { updatedAt: _at, updatedBy: _by, ...fields } = current;
  const theirs = await page.request.put(url, {
    headers: { 'X-CSRF': '1' },
    data: { ...fields, format_dates: theirDates },
  });
  expect(theirs.status()).toBe(200);

  const myHours = loadedHours === 'HH:mm' ? 'HH:mm:ss' : 'HH:mm';
  await hours.selectOption(myHours);
  await general.getByRole('button', { name: 'Save' }).click();
  const alert = page
    .getByRole('alert')
    .filter({ hasText: 'This record was changed in another tab' });
  await expect(alert).toBeVisible();
  await expect(alert).toBeFocused();
  // What they changed, saved beside this form's value; what was typed stays.
  await expect(page.getByTestId('conflict-format_dates').getByRole('cell')).toHaveText([
    theirDates,
    loadedDates,
  ]);
  await expect(hours).toHaveValue(myHours);
  await expect(page.getByText('The settings were saved.')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // Reload: their settings, this input dropped; the next save builds on their version.
  await alert.getByRole('button', { name: 'Discard my input and load the saved settings' }).click();
  await expect(alert).toBeHidden();
  await expect(dates).toHaveValue(theirDates);
  await expect(hours).toHaveValue(loadedHours);
  await dates.selectOption(loadedDates);
  await saveAndConfirm(page, 'General settings');
  const { general: after } = (await (await page.request.get(url)).json()) as {
    general: { format_dates: string; version: number };
  };
  expect(after).toMatchObject({ format_dates: loadedDates, version: current.version + 2 });
});

test('the dashboard tab: a save on a stale version shows the conflict; keep mine, reload', async ({
  page,
}) => {
  await toSandboxWorkspace(page);
  await page.goto('/u/0/settings#tab=options');
  const options = page.getByRole('form', { name: 'Dashboard and brokers' });
  const notice = options.getByLabel('Dashboard notice');
  await expect(notice).toBeEnabled();
  const url = '/api/0/tenantservice/v1/settings/tenant';
  const post = (data: Record<string, unknown>) =>
    page.request.post(url, { headers: { 'X-CSRF': '1' }, data });
  const read = async () =>
    (
      (await (await page.request.get(`${url}?keys=dashboardAlert`)).json()) as {
        values: { value: unknown; version: number }[];
      }
    ).values[0]!;

  // Another admin saves the notice between this screen's load and its save.
  expect((await post({ key: 'dashboardAlert', value: 'Theirs: closed on Monday.' })).status()).toBe(
    200,
  );
  await notice.fill('Mine: open on Monday.');
  await options.getByRole('button', { name: 'Save' }).click();
  const alert = page
    .getByRole('alert')
    .filter({ hasText: 'This record was changed in another tab' });
  await expect(alert).toBeVisible();
  await expect(page.getByTestId('conflict-dashboardAlert').getByRole('cell')).toHaveText([
    'Theirs: closed on Monday.',
    'Mine: open on Monday.',
  ]);
  await expect(notice).toHaveValue('Mine: open on Monday.');
  expect((await read()).value).toBe('Theirs: closed on Monday.');
  await expectNoSeriousA11yViolations(page);

  // Keep mine: saved over theirs knowingly.
  await alert.getByRole('button', { name: 'Save my input over it' }).click();
  await expect(alert).toBeHidden();
  await expect(page.getByText('The settings were saved.').last()).toBeVisible();
  expect((await read()).value).toBe('Mine: open on Monday.');

  // Again, and this time reload: their notice, this input dropped.
  expect((await post({ key: 'dashboardAlert', value: 'Theirs again.' })).status()).toBe(200);
  await notice.fill('Mine again.');
  await options.getByRole('button', { name: 'Save' }).click();
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Discard my input and load the saved settings' }).click();
  await expect(alert).toBeHidden();
  await expect(notice).toHaveValue('Theirs again.');
  expect((await read()).value).toBe('Theirs again.');
  // The next save builds on their version and goes through.
  await notice.fill('');
  await saveAndConfirm(page, 'Dashboard and brokers');
  expect((await read()).value).toBe('');
});

test('custom fields of an entity are edited with the shared rules', async ({ page }) => {
  await toSandboxWorkspace(page);
  await page.goto('/u/0/settings#tab=custom-fields');
  const form = page.getByRole('form', { name: 'Custom fields' });
  // The entity is chosen above the form: each entity's schema is a record of its own.
  await page.getByLabel('Entity').selectOption('claim');
  await expect(form.getByText('No custom fields for this entity yet.')).toBeVisible();
  await form.getByRole('button', { name: 'Add field' }).click();
  const field = form.getByRole('group', { name: 'Field 1' });
  await field.getByLabel('Name').fill('1st');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(field.getByText('Start with a letter')).toBeVisible();
  await expect(field.getByText('Enter a label.')).toBeVisible();
  await field.getByLabel('Name').fill('damageCode');
  // The label and its translations: 'Label' is the fallback, the others are per language.
  await field.getByRole('textbox', { name: 'Label', exact: true }).fill('Damage code');
  await field.getByLabel('Label in German').fill('Schadencode');
  await field.getByLabel('Maximum length').fill('8');
  await saveAndConfirm(page, 'Custom fields');
  await expectNoSeriousA11yViolations(page);
  await page.reload();
  await page.getByLabel('Entity').selectOption('claim');
  const saved = page.getByRole('group', { name: 'Field 1' });
  await expect(saved.getByLabel('Name')).toHaveValue('damageCode');
  await expect(saved.getByLabel('Label in German')).toHaveValue('Schadencode');
});

test('a show-only user gets the 403 page on settings', async ({ page }) => {
  await signIn(page, 'viewer@demo.test');
  await page.goto('/u/0/settings');
  await expect(page.getByRole('heading', { name: 'Error 403' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'General settings' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test('the profile language is the user’s own setting and applies at once', async ({
  page,
  browser,
}) => {
  await signIn(page, 'care@demo.test');
  await page.goto('/u/0/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('pl');
  await page.getByRole('button', { name: 'Save language' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page.getByRole('heading', { level: 1, name: 'Profil' })).toBeVisible();
  await expect(page.getByText('Twój język został zapisany.')).toBeVisible();
  const saved = await page.request.get('/api/0/tenantservice/v1/settings/user?keys=language');
  expect((await saved.json()).values).toEqual([{ key: 'language', value: 'pl', type: 'string' }]);

  // Another browser with no choice of its own: the user's setting applies after sign-in.
  const other = await browser.newContext({ locale: 'en-US' });
  const fresh = await other.newPage();
  await fresh.goto('/login');
  await fillSignIn(fresh, 'care@demo.test');
  await expect(fresh.getByRole('heading', { level: 1, name: /^Witaj, / })).toBeVisible();
  await expect(fresh.locator('html')).toHaveAttribute('lang', 'pl');
  await other.close();
});

test('a refusal of the service itself is said at the branding field, in German, and nothing is saved', async ({
  page,
}) => {
  await toSandboxWorkspace(page);
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  // The browser's check would catch a bad colour first: the request is changed on its way so
  // that the service's own rule (common/contracts/tenant.ts) is the one that refuses it.
  await page.route('**/api/*/tenantservice/v1/branding', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
    await route.continue({ postData: JSON.stringify({ ...body, main_color: '#12345' }) });
  });
  await page.goto('/u/0/settings#tab=branding');
  const form = page.getByRole('form', { name: 'Branding' });
  const colour = form.getByLabel('Hauptfarbe');
  const before = await colour.inputValue();
  await colour.fill('#123456');
  await form.getByRole('button', { name: 'Speichern' }).click();
  await expect(colour).toHaveAttribute('aria-invalid', 'true');
  // Said in German at the field, never as a raw key.
  await expect(colour).toHaveAccessibleDescription(/Der Wert ist ungültig/);
  await expect(form).not.toContainText('messages.');
  await expectNoSeriousA11yViolations(page);
  await page.unroute('**/api/*/tenantservice/v1/branding');
  await page.reload();
  await expect(page.getByRole('form', { name: 'Branding' }).getByLabel('Hauptfarbe')).toHaveValue(
    before,
  );
});
