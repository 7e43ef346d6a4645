import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { isoToday } from '#common/claims.ts';
import { apiAs, DEMO_PASSWORD, expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { startedCarPolicy } from './policy-setup.ts';

/**
 * Edit conflicts that merge (issue 15, point 13), in German: a save sends only the fields the
 * user changed, "keep mine" after a 409 puts only this user's changes on the newer record, and
 * the banner names who saved it, or says it was the user in another tab.
 *
 * Each test makes a customer or claim of its own through the API, so nothing here depends on
 * other specs.
 */

const ZONE = 'Europe/Berlin';
const ACCOUNTS = '/api/0/accountservice/v1/accounts';
const CLAIMS = '/api/0/claimservice/v1/claims';

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

/** A claim of its own on the newest active car policy that started before today. */
async function newClaim(api: APIRequestContext): Promise<string> {
  const created = await api.post(CLAIMS, {
    data: {
      policyCode: await startedCarPolicy(api, ZONE),
      title: `Wasserschaden ${Date.now().toString(36)}`,
      claimType: 'damage',
      damageDate: isoToday(ZONE),
      customFields: { damageLocation: 'Keller' },
    },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { claim: { code: string } }).claim.code;
}

async function openClaim(page: Page, code: string) {
  await page.goto(`/u/0/claims/${code}`);
  await expect(page.getByRole('textbox', { name: 'Schadenort' })).toHaveValue('Keller');
}

/** The administrator at another desk (a browser of their own, in German) does `action`. */
async function asColleague(browser: Browser, action: (other: Page) => Promise<void>) {
  const context = await browser.newContext();
  try {
    await german(context);
    const other = await context.newPage();
    await signInGerman(other, 'admin@demo.test');
    await action(other);
  } finally {
    await context.close();
  }
}

const field = (page: Page, name: 'Telefon' | 'Ort' | 'Straße') =>
  page.getByRole('textbox', { name });

test.describe('edit conflicts merge (de)', () => {
  // Two browsers signing in: more than the default 30 s on a busy machine.
  test.describe.configure({ timeout: 90_000 });

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
    await asColleague(browser, async (other) => {
      await openCustomer(other, code);
      await field(other, 'Telefon').fill('0431 999999');
      await other.getByRole('button', { name: 'Speichern' }).click();
      await expect(other.getByText('Kunde gespeichert.')).toBeVisible();
    });

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
  test('two users change different custom fields of a claim: keep mine keeps both', async ({
    page,
    browser,
    baseURL,
  }) => {
    const api = await apiAs(baseURL!, 'care@demo.test');
    const code = await newClaim(api);
    await german(page);
    await signInGerman(page, 'care@demo.test');
    await openClaim(page, code);

    // A colleague at another desk enters the police report number while this form is open.
    await asColleague(browser, async (other) => {
      await openClaim(other, code);
      await other.getByRole('textbox', { name: 'Aktenzeichen der Polizei' }).fill('KI-2026-4711');
      await other.getByRole('button', { name: 'Speichern' }).click();
      await expect(other.getByText('Schaden gespeichert.')).toBeVisible();
    });

    // This user changed the damage location only, another custom field.
    await page.getByRole('textbox', { name: 'Schadenort' }).fill('Dachboden');
    await page.getByRole('button', { name: 'Speichern' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'Jemand anderes' });
    await expect(banner).toBeVisible();
    // The changed custom fields are named by their German labels, never by their technical names.
    const row = banner.getByTestId('conflict-customFields');
    await expect(row).toContainText('Aktenzeichen der Polizei: KI-2026-4711');
    await expect(row).not.toContainText('policeReportNumber');
    await expect(row).not.toContainText('damageLocation');
    await banner.getByRole('button', { name: 'Meine Eingaben trotzdem speichern' }).click();
    await expect(page.getByText('Schaden gespeichert.')).toBeVisible();
    await expect(banner).toBeHidden();
    // Both custom fields are saved: the colleague's report number and this user's location.
    await expect(page.getByRole('textbox', { name: 'Schadenort' })).toHaveValue('Dachboden');
    await expect(page.getByRole('textbox', { name: 'Aktenzeichen der Polizei' })).toHaveValue(
      'KI-2026-4711',
    );
    const saved = await api.get(`${CLAIMS}/${code}`);
    expect((await saved.json()).claim).toMatchObject({
      customFields: { damageLocation: 'Dachboden', policeReportNumber: 'KI-2026-4711' },
      version: 3,
    });
    await api.dispose();
  });
});
