import { DEMO_PASSWORD, expect, test } from './fixtures.ts';

/**
 * /login arrives with its form in the HTML (issue 14, first paint): prerendered per language at
 * build time, picked by the browser's languages, then taken over by React without being redrawn.
 */
test.describe('the prerendered sign-in page', () => {
  test('is a usable form before any script runs, in the browser language', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page).toHaveTitle('Anmelden | Insurance Back Office');
    await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
    await expect(page.getByLabel('E-Mail-Adresse')).toBeVisible();
    await expect(page.getByLabel('Passwort', { exact: true })).toBeVisible();
    await context.close();
  });

  test('the server picks the language and says the answer varies by it', async ({ request }) => {
    const polish = await request.get('/login', {
      headers: { 'accept-language': 'pl-PL,pl;q=0.9' },
    });
    expect(polish.headers()['vary']).toMatch(/accept-language/i);
    expect(polish.headers()['content-security-policy']).toContain("script-src 'self'");
    const html = await polish.text();
    expect(html).toContain('<html lang="pl"');
    expect(html).toContain('data-prerendered="pl"');
    // A language the product lacks gets English; other pages stay the plain SPA page.
    const french = await (
      await request.get('/login', { headers: { 'accept-language': 'fr' } })
    ).text();
    expect(french).toContain('data-prerendered="en"');
    const sso = await (await request.get('/login/demo')).text();
    expect(sso).toContain('<div id="root"></div>');
  });

  test('what is typed before React takes over is kept and signs in', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    // Hold the entry script so that the typing surely happens on the prerendered form alone.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    await page.getByLabel('E-mail address').fill('admin@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    release();
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    await expect(button).toBeEnabled();
    await button.click();
    await expect(page.getByRole('heading', { level: 1, name: /^(Hello|Hallo), / })).toBeVisible();
    await context.close();
  });

  test('what is typed while the page finds an account signed in comes along to the app form', async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const first = await page.request.post('/bff/login', {
      data: { username: 'viewer@demo.test', password: DEMO_PASSWORD },
      headers: { 'X-CSRF': '1' },
    });
    expect(first.status()).toBe(200);
    // Hold the session answer: the light page types on, then learns an account is signed in and
    // hands over to the app's "add another account" form, which must keep what was typed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/bff/session', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await page.getByLabel('E-mail address').fill('admin@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    release();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Add another account' }),
    ).toBeVisible();
    await expect(page.getByLabel('E-mail address')).toHaveValue('admin@demo.test');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: /^(Hello|Hallo), Ada/ }),
    ).toBeVisible();
    await context.close();
  });

  test('React takes over the prerendered form without redrawing it', async ({ browser }) => {
    // A browser without a stored language choice (the fixture's English choice is not set here).
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    // Hold the entry script until the prerendered heading is marked: hydration keeps that very
    // node (and its mark); a fresh render would replace it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    await page.locator('h1').evaluate((h1) => (h1.dataset.mark = 'prerendered'));
    release();
    await page.getByLabel('E-mail address').fill('admin@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    // The button enables on React's state: the form is live, and on the node that was sent.
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
    await expect(page.locator('h1')).toHaveAttribute('data-mark', 'prerendered');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^(Hello|Hallo), / })).toBeVisible();
    expect(errors).toEqual([]);
    await context.close();

    // The same check proves the opposite path: a language chosen on this browser that differs
    // from the prerendered one renders afresh, in the chosen language.
    const german = await browser.newContext({ locale: 'en-US' });
    await german.addInitScript(() => localStorage.setItem('bo.language', 'de'));
    const second = await german.newPage();
    await second.goto('/login');
    await expect(second.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
    await expect(second.locator('html')).toHaveAttribute('lang', 'de');
    await german.close();
  });
});
