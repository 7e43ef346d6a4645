import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { apiAs, DEMO_PASSWORD, expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

/**
 * Edit conflicts that merge (issue 15, point 13), in German: a save sends only the fields the
 * user changed, "keep mine" after a 409 puts only this user's changes on the newer record, and
 * the banner names who saved it, or says it was the user in another tab.
 *
 * Each test makes a customer of its own through the API, so nothing here depends on other specs.
 */

const ACCOUNTS = '/api/0/accountservice/v1/accounts';

async function newCustomer(api: APIRequestContext, name: string): Promise<string> {
  const created = await api.post(ACCOUNTS, {
    data: {
      type: 'person',
      firstName: 'Jonas',
      lastName: name,
      email: `${name.toLowerCase()}.${Date.now().toString(36)}@example.test`,
      street: 'Holtenauer Straße',
      houseNumber: '12',
      zipCode: '24105',
      city: 'Kiel',
      phone: '0431 123456',
    },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { account: { code: string } }).account.code;
}

/** German from the first page on (the fixture's English choice is replaced at every load). */
async function german(context: BrowserContext | Page) {
  await context.addInitScript(() => localStorage.setItem('bo.language', 'de'));
}

async function signInGerman(page: Page, username: string) {
  await page.goto('/login');
  await page.getByLabel('E-Mail-Adresse').fill(username);
  await page.getByLabel('Passwort').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Hallo, / })).toBeVisible();
}

async function openCustomer(page: Page, code: string) {
  await page.goto(`/u/0/customers/${code}`);
  await expect(page.getByRole('textbox', { name: 'Ort' })).toHaveValue('Kiel');
}

const field = (page: Page, name: 'Telefon' | 'Ort' | 'Straße') =>
  page.getByRole('textbox', { name });

test.describe('edit conflicts merge (de)', () => {
  test('two users change different fields: the banner names the first, keep mine keeps both', async ({
    page,
    browser,
    baseURL,
  }) => {
    const api = await apiAs(baseURL!, 'care@demo.test');
    const code = await newCustomer(api, 'Zweinutzer');
    await german(page);
    await signInGerman(page, 'care@demo.test');
    await openCustomer(page, code);

    // A colleague at another desk changes the phone while this form is open.
    const context = await browser.newContext();
    try {
      await german(context);
      const other = await context.newPage();
      await signInGerman(other, 'admin@demo.test');
      await openCustomer(other, code);
      await field(other, 'Telefon').fill('0431 999999');
      await other.getByRole('button', { name: 'Speichern' }).click();
      await expect(other.getByText('Kunde gespeichert.')).toBeVisible();
    } finally {
      await context.close();
    }

    // This user changed the city only.
    await field(page, 'Ort').fill('Lübeck');
    await page.getByRole('button', { name: 'Speichern' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'Jemand anderes' });
    await expect(banner).toBeVisible();
    await expect(banner.getByTestId('conflict-message')).toContainText(
      'Ada Admin hat den Kunden am',
    );
    // The phone is in conflict: theirs saved, this user's untouched value beside it.
    await expect(page.getByTestId('conflict-phone').getByRole('cell')).toHaveText([
      '+49431999999',
      '+49431123456',
    ]);
    await expectNoSeriousA11yViolations(page);

    await banner.getByRole('button', { name: 'Meine Eingaben darüber speichern' }).click();
    await expect(page.getByText('Kunde gespeichert.')).toBeVisible();
    await expect(banner).toBeHidden();
    // Both changes are saved: the colleague's phone and this user's city.
    await expect(field(page, 'Telefon')).toHaveValue('+49431999999');
    await expect(field(page, 'Ort')).toHaveValue('Lübeck');
    const saved = await api.get(`${ACCOUNTS}/${code}`);
    expect((await saved.json()).account).toMatchObject({
      phone: '+49431999999',
      city: 'Lübeck',
      version: 3,
    });
    await api.dispose();
  });

  test('the same user in two tabs: the banner says "you, in another tab"', async ({
    page,
    context,
    baseURL,
  }) => {
    const api = await apiAs(baseURL!, 'care@demo.test');
    const code = await newCustomer(api, 'Zweitab');
    await german(context);
    await signInGerman(page, 'care@demo.test');
    await openCustomer(page, code);

    // A second tab of the same session saves the street.
    const tab = await context.newPage();
    await openCustomer(tab, code);
    await field(tab, 'Straße').fill('Holstenstraße');
    await tab.getByRole('button', { name: 'Speichern' }).click();
    await expect(tab.getByText('Kunde gespeichert.')).toBeVisible();
    await tab.close();

    await field(page, 'Telefon').fill('0431 777777');
    await page.getByRole('button', { name: 'Speichern' }).click();
    const banner = page
      .getByRole('alert')
      .filter({ hasText: 'Dieser Datensatz wurde in einem anderen Tab geändert' });
    await expect(banner).toBeVisible();
    await expect(banner.getByTestId('conflict-message')).toContainText(
      'von Ihnen, in einem anderen Tab, gespeichert',
    );
    await expect(banner).not.toContainText('Clara Care');

    await banner.getByRole('button', { name: 'Meine Eingaben darüber speichern' }).click();
    await expect(page.getByText('Kunde gespeichert.')).toBeVisible();
    await expect(field(page, 'Straße')).toHaveValue('Holstenstraße');
    await expect(field(page, 'Telefon')).toHaveValue('+49431777777');
    await api.dispose();
  });
});
