import type { Locator, Page } from '@playwright/test';
import {
  apiAs,
  expect,
  expectNoSeriousA11yViolations,
  productThroughApi,
  signIn,
  signInGerman,
  test,
} from './fixtures.ts';
import { createHomeLead, createHomePolicy, displayDay, isoDay } from './policy-setup.ts';

/**
 * The history of a record (issue 15, point 12) in German: a customer and a claim are edited, and
 * their "Verlauf" tab names the editor and the change, field by field, before → after.
 *
 * A customer-care user no other spec signs in with (seed-administration's sixteenth extra user),
 * on a customer and a claim of this spec's own, so that no other save appears in the history.
 * The policy, the lead and the product version each have a user of their own too (the 23rd and
 * 27th extra users are customer care, the 26th a product manager).
 */
const CARE = 'quentin.ullrich16@demo.test';
const CARE_NAME = 'Quentin Ullrich';
const POLICY_CARE = { email: 'ben.albrecht23@demo.test', name: 'Ben Albrecht' };
const LEAD_CARE = { email: 'finn.fuchs27@demo.test', name: 'Finn Fuchs' };
const PRODUCT_MANAGER = { email: 'eva.vogel26@demo.test', name: 'Eva Vogel' };
const INSURANCE = '/api/0/insuranceservice/v1';
const CSRF = { 'X-CSRF': '1' };
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function german(page: Page) {
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
}

/**
 * The history's two rows, newest first: the change by `name`, reading `what`, on top of the
 * creation; no user code anywhere on the page, which passes the accessibility check.
 */
async function expectChangeOnCreation(
  page: Page,
  rows: Locator,
  name: string,
  what: readonly (string | RegExp)[],
) {
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(name);
  for (const text of what) await expect(rows.nth(0)).toContainText(text);
  await expect(rows.nth(1)).toContainText('Angelegt');
  await expect(page.locator('body')).not.toContainText('usr_');
  await expectNoSeriousA11yViolations(page);
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
    await expectChangeOnCreation(page, page.getByTestId('history').getByRole('row'), CARE_NAME, [
      /Titel: Wasserschaden →.* Wasserschaden im Keller/,
    ]);
  });

  test('a policy terminated in German names who terminated it, when, and what changed', async ({
    page,
  }) => {
    await signInGerman(page, POLICY_CARE.email);
    const policy = await createHomePolicy(page, {
      firstName: 'Hanna',
      lastName: `Verlauf ${stamp()}`,
    });
    await page.goto(`/u/0/policies/${policy.code}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Vertrag ${policy.number}` }),
    ).toBeVisible();
    // Terminated as the policy page does it: the dialog, then the confirmation.
    await page.getByRole('button', { name: 'Kündigen', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Vertrag ${policy.number} kündigen` });
    await dialog.getByRole('textbox', { name: 'Kündigungsdatum' }).fill(displayDay(isoDay(1)));
    await dialog.getByRole('textbox', { name: 'Grund' }).fill('Umzug ins Ausland');
    await dialog.getByRole('button', { name: 'Kündigen', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Kündigen', exact: true })
      .getByRole('button', { name: 'Kündigen', exact: true })
      .click();
    await expect(page.getByText(`Vertrag ${policy.number} gekündigt.`)).toBeVisible();

    // The history below the versions is read again with the termination.
    const history = page.getByRole('region', { name: 'Verlauf' });
    const rows = history.getByTestId('history').getByRole('row');
    await expect(rows.nth(0).locator('time')).toHaveText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    await expect(rows.nth(1)).toContainText(POLICY_CARE.name);
    await expectChangeOnCreation(page, rows, POLICY_CARE.name, ['Gekündigt']);
  });

  test('a policy the renewal run renewed names the system, the term’s end, one start date and who set its payment method', async ({
    page,
  }) => {
    // Read only: POL-000004 of the fresh demo world renews yearly and has no start date of its
    // own; the seed left it as the renewal run would, its renewal recorded as the run's.
    await signInGerman(page, POLICY_CARE.email);
    const found = await page.request.get(
      `${INSURANCE}/policies?filter=${encodeURIComponent('policyNumber=POL-000004')}&expand=`,
    );
    const [policy] = (await found.json()).items as { code: string }[];
    await page.goto(`/u/0/policies/${policy!.code}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Vertrag POL-000004' })).toBeVisible();

    const history = page.getByRole('region', { name: 'Verlauf', exact: true });
    const renewal = history
      .getByTestId('history')
      .getByRole('row')
      .filter({ hasText: 'Automatisch verlängert' });
    await expect(renewal.first()).toContainText('System');
    await expect(renewal.first()).toContainText(
      /Vertragsende: \d{2}\.\d{2}\.\d{4} →.* \d{2}\.\d{2}\.\d{4}/,
    );
    await expect(history).not.toContainText('Noch keine Änderungen aufgezeichnet.');
    await expect(history).not.toContainText('system');

    // The page's start and the contract's start are one day.
    const start = page
      .locator('dt', { hasText: /^Beginn$/ })
      .locator('xpath=following-sibling::dd[1]');
    const contractStart = page
      .locator('dt', { hasText: /^Vertragsbeginn$/ })
      .first()
      .locator('xpath=following-sibling::dd[1]');
    await expect(contractStart).toHaveText(/^\d{2}\.\d{2}\.\d{4}$/);
    await expect(start).toHaveText((await contractStart.textContent())!);

    // Who set the payment method: the seed, so the system; never a dash.
    const method = page.getByTestId('policy-payment-method');
    await expect(method).not.toContainText('—');
    if ((await method.textContent())?.includes('seit')) {
      await expect(method).toContainText('vom System festgelegt');
    }
    await expect(page.locator('body')).not.toContainText('usr_');
  });

  test('a lead moved on shows the status before and after, by the mover’s name', async ({
    page,
  }) => {
    await signInGerman(page, LEAD_CARE.email);
    const lead = await createHomeLead(page, { firstName: 'Lena', lastName: `Verlauf ${stamp()}` });
    const moved = await page.request.patch(`${INSURANCE}/leads/${lead.code}`, {
      headers: CSRF,
      data: { version: lead.version, status: 'contacted' },
    });
    expect(moved.status(), await moved.text()).toBe(200);

    await page.goto(`/u/0/leads/${lead.code}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Lead ${lead.number}` }),
    ).toBeVisible();
    await page.getByRole('tab', { name: 'Verlauf' }).click();
    // The statuses as the tenant names them in German, not their slugs.
    await expectChangeOnCreation(
      page,
      page.getByTestId('history').getByRole('row'),
      LEAD_CARE.name,
      ['Status geändert', /Neu →.* Kontaktiert/],
    );
  });

  test('a product version lists a changed formula, before and after, by name', async ({
    page,
    baseURL,
  }) => {
    const api = await apiAs(baseURL!, PRODUCT_MANAGER.email);
    const name = `E2E Verlauf ${stamp()}`;
    const { productId, versionId } = await productThroughApi(
      api,
      { name, category: 'device', description: 'Erster Tarif' },
      {
        group: 'Gebühr',
        name: 'Pauschale',
        expression: 'policyDurationValue * 12.5',
        unit: 'year',
      },
    );
    const formulas = await api.get(
      `${INSURANCE}/premium-formulas?filter=productVersionId=${versionId}`,
    );
    const [formula] = (await formulas.json()).items as { id: number }[];
    const changed = await api.put(`${INSURANCE}/premium-formulas/${formula!.id}`, {
      data: {
        group: 'Gebühr',
        name: 'Pauschale',
        expression: 'policyDurationValue * 15',
        unit: 'year',
      },
    });
    expect(changed.status(), await changed.text()).toBe(200);
    await api.dispose();

    await signInGerman(page, PRODUCT_MANAGER.email);
    await page.goto(`/u/0/management/product/${productId}/${versionId}`);
    await expect(page.getByRole('heading', { level: 1, name: `${name}, Version 1` })).toBeVisible();
    const history = page.getByRole('region', { name: 'Verlauf' });
    const rows = history.getByTestId('history').getByRole('row');
    const edit = rows.filter({ hasText: 'Formel geändert' });
    await expect(edit).toHaveCount(1);
    await expect(edit).toContainText(PRODUCT_MANAGER.name);
    await expect(edit).toContainText('Pauschale');
    await expect(edit).toContainText(/policyDurationValue \* 12\.5 →.* policyDurationValue \* 15/);
    await expect(rows.filter({ hasText: 'Formel hinzugefügt' })).toContainText(
      PRODUCT_MANAGER.name,
    );
    await expect(page.locator('body')).not.toContainText('usr_');
    await expectNoSeriousA11yViolations(page);
  });
});
