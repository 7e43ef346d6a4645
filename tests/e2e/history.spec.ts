import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { createHomePolicy, isoDay } from './policy-setup.ts';

/**
 * The history of a record (issue 15, point 12) in German: a customer and a claim are edited, and
 * their "Verlauf" tab names the editor and the change, field by field, before → after.
 *
 * A customer-care user no other spec signs in with (seed-administration's sixteenth extra user),
 * on a customer and a claim of this spec's own, so that no other save appears in the history.
 */
const CARE = 'quentin.ullrich16@demo.test';
const CARE_NAME = 'Quentin Ullrich';
const CSRF = { 'X-CSRF': '1' };
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function german(page: Page) {
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
}

test.describe('Verlauf', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a customer edited in German shows who changed the place, from what to what', async ({
    page,
  }) => {
    await signIn(page, CARE);
    const name = `Verlauf ${stamp()}`;
    const created = await page.request.post('/api/0/accountservice/v1/accounts', {
      headers: CSRF,
      data: {
        type: 'person',
        title: '',
        firstName: 'Vera',
        lastName: name,
        companyName: null,
        email: `${stamp()}@verlauf.test`,
        gender: 'female',
        street: 'Lindenweg',
        houseNumber: '5',
        zipCode: '10115',
        city: 'Berlin',
        birthDate: null,
        phone: null,
        brokerCode: null,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { account } = await created.json();

    await page.goto(`/u/0/customers/${account.code}`);
    await german(page);
    await expect(page.getByRole('heading', { level: 1, name: `Vera ${name}` })).toBeVisible();
    await page.getByRole('textbox', { name: 'Ort' }).fill('Potsdam');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByTestId('customer-version')).toContainText('Version 2');

    await page.getByRole('tab', { name: 'Verlauf' }).click();
    const rows = page.getByTestId('history').getByRole('row');
    await expect(rows).toHaveCount(2);
    // Newest first (the arrow is for the eye; a screen reader hears "wurde zu"): the edit, then the creation, both by this user's name.
    await expect(rows.nth(0)).toContainText(CARE_NAME);
    await expect(rows.nth(0)).toContainText('Geändert');
    await expect(rows.nth(0)).toContainText(/Ort: Berlin →.* Potsdam/);
    await expect(rows.nth(1)).toContainText('Angelegt');
    // The time in the tenant's date display (the demo's DD.MM.YYYY HH:mm:ss), as every other
    // date on screen, not the browser's notation; and no user code anywhere.
    await expect(rows.nth(0).locator('time')).toHaveText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    await expect(page.locator('body')).not.toContainText('usr_');
    await expectNoSeriousA11yViolations(page);
  });

  test('a claim edited in German lists the title before and after', async ({ page }) => {
    await signIn(page, CARE);
    const policy = await createHomePolicy(page, {
      firstName: 'Greta',
      lastName: `Verlauf ${stamp()}`,
    });
    const created = await page.request.post('/api/0/claimservice/v1/claims', {
      headers: CSRF,
      data: {
        policyCode: policy.code,
        title: 'Wasserschaden',
        claimType: 'damage',
        damageDate: isoDay(-3),
        customFields: { damageLocation: 'Keller' },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { claim } = await created.json();

    await page.goto(`/u/0/claims/${claim.code}`);
    await german(page);
    await page.getByRole('textbox', { name: 'Titel' }).fill('Wasserschaden im Keller');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Schaden gespeichert.')).toBeVisible();

    await page.getByRole('tab', { name: 'Verlauf' }).click();
    const rows = page.getByTestId('history').getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(CARE_NAME);
    await expect(rows.nth(0)).toContainText(/Titel: Wasserschaden →.* Wasserschaden im Keller/);
    await expect(rows.nth(1)).toContainText('Angelegt');
    await expect(page.locator('body')).not.toContainText('usr_');
    await expectNoSeriousA11yViolations(page);
  });
});
