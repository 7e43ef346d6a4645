import AxeBuilder from '@axe-core/playwright';
import {
  request,
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type Page,
} from '@playwright/test';

export const DEMO_PASSWORD = 'Demo1234!';

/**
 * Tests read English texts. The demo tenant's general language is German, which the shell
 * applies unless the user chose a language, so every test starts with English chosen (only when
 * nothing is chosen yet: the language test's own choice survives its reloads).
 */
export const test = base.extend<{ english: void }>({
  english: [
    async ({ page }, use) => {
      await page.addInitScript(() => {
        if (!localStorage.getItem('bo.language')) localStorage.setItem('bo.language', 'en');
      });
      await use();
    },
    { auto: true },
  ],
});

export { expect };

export async function fillSignIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.getByLabel('E-mail address').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Signs in as the sign-in form does (its POST /bff/login, from the page's own browser context, so
 * the session cookie is the page's) and opens the new account's home, where the form leads: the
 * setup of tests that are about something else. The form itself is walked by session.spec.ts,
 * session.model.spec.ts and the other sign-in specs (`fillSignIn`); loading the sign-in page and
 * typing cost each of the 150-odd setups about a second of the e2e run.
 */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  const answer = await page.request.post('/bff/login', {
    data: { username, password },
    headers: { 'X-CSRF': '1' },
  });
  expect(answer.status(), `sign-in of ${username}`).toBe(200);
  const { accountIndex } = (await answer.json()) as { accountIndex: number };
  await page.goto(`/u/${accountIndex}`);
  await expect(page.getByRole('heading', { level: 1, name: /^Hello, / })).toBeVisible();
}

/** A second user in a browser context of their own, as a colleague at another desk. */
export async function colleague(browser: Browser, username: string) {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('bo.language', 'en'));
  const page = await context.newPage();
  await signIn(page, username);
  return { page, close: () => context.close() };
}

export async function openProfileMenu(page: Page) {
  await page.getByRole('button', { name: /^Account menu for / }).click();
}

/** Serious and critical axe findings only; moderate ones are reported, not failed. */
export async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    })),
  ).toEqual([]);
}

/**
 * The BFF's API signed in as `username`, outside any page: setup a test needs before its user
 * acts (a role, a product). State-changing calls carry the CSRF header. Dispose it at the end.
 */
export async function apiAs(baseURL: string, username: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { 'X-CSRF': '1' } });
  const login = await api.post('/bff/login', { data: { username, password: DEMO_PASSWORD } });
  expect(login.ok()).toBe(true);
  return api;
}

const INSURANCE = '/api/0/insuranceservice/v1';

/**
 * A product of a test's own with one draft version and, when given, one premium formula on it,
 * set up through the API (`apiAs`) before the user acts.
 */
export async function productThroughApi(
  api: APIRequestContext,
  product: { name: string; category: string; description?: string },
  formula?: { group: string; name: string; expression: string; unit: string },
): Promise<{ productId: number; slug: string; versionId: number }> {
  const created = await api.post(`${INSURANCE}/products`, {
    data: { name: product.name, category: product.category },
  });
  expect(created.status()).toBe(201);
  const { id: productId, slug } = (
    (await created.json()) as { product: { id: number; slug: string } }
  ).product;
  const version = await api.post(`${INSURANCE}/product-versions`, {
    data: { productId, description: product.description ?? '' },
  });
  expect(version.status()).toBe(201);
  const versionId = ((await version.json()) as { productVersion: { id: number } }).productVersion
    .id;
  if (formula) {
    const saved = await api.post(`${INSURANCE}/premium-formulas`, {
      data: { productVersionId: versionId, variableName: null, ...formula },
    });
    expect(saved.status()).toBe(201);
  }
  return { productId, slug, versionId };
}

/**
 * A product manager's draft device product of a test's own, named `name` and a random suffix,
 * priced by one yearly formula ("Schaden" of group "Gerät", 120): what a screen of one product
 * needs to be shown.
 */
export async function managersDeviceProduct(baseURL: string, name: string) {
  const api = await apiAs(baseURL, 'manager@demo.test');
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  try {
    return await productThroughApi(
      api,
      { name: `${name} ${suffix}`, category: 'device' },
      { group: 'Gerät', name: 'Schaden', expression: '120', unit: 'year' },
    );
  } finally {
    await api.dispose();
  }
}

/**
 * Signs `user` in with German chosen (the demo tenant's language), for the page now and every
 * page it opens after.
 */
export async function signInGerman(page: Page, user: string) {
  await signInSpeaking(page, user, 'de');
}

/** Signs `user` in with `language` chosen for every page opened after (not the one open now). */
export async function signInSpeaking(page: Page, user: string, language: 'de' | 'en' | 'pl') {
  await signIn(page, user);
  await page.evaluate((l) => localStorage.setItem('bo.language', l), language);
  await page.addInitScript((l) => localStorage.setItem('bo.language', l), language);
}

/**
 * A draft product of a test's own (`productThroughApi`, device) whose default insured object has
 * a number field "divisor" (label "Teiler") of the given default value: a tariff that divides by
 * it cannot be computed for 0. With `expression` (`120 / divisor`) the premium formula "Schaden"
 * (group "Gerät", yearly) is saved too, after its field: a formula naming an unknown field is
 * refused at save.
 */
export async function divisorProduct(
  api: APIRequestContext,
  name: string,
  { defaultValue, expression }: { defaultValue: number; expression?: string },
): Promise<{ productId: number; versionId: number; insuredObjectId: number }> {
  const { productId, versionId } = await productThroughApi(api, { name, category: 'device' });
  const objects = await api.get(
    `${INSURANCE}/insured-objects?filter=productVersionId=${versionId}&expand=productFields`,
  );
  const insuredObjectId = ((await objects.json()) as { items: { id: number }[] }).items[0]!.id;
  const field = await api.post(`${INSURANCE}/product-fields`, {
    data: { insuredObjectId, name: 'divisor', label: 'Teiler', type: 'number', defaultValue },
  });
  expect(field.status()).toBe(201);
  if (expression) {
    const formula = await api.post(`${INSURANCE}/premium-formulas`, {
      data: {
        productVersionId: versionId,
        variableName: null,
        group: 'Gerät',
        name: 'Schaden',
        unit: 'year',
        expression,
      },
    });
    expect(formula.status()).toBe(201);
  }
  return { productId, versionId, insuredObjectId };
}
