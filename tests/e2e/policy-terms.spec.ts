import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { createHomePolicy, displayDay, isoDay } from './policy-setup.ts';

// Contract terms, postcodes and the money of a termination as a German-speaking customer-care
// agent sees them (issue 15, points 5 and 7). The writer is one no other spec signs in as; it
// writes only to policies and customers it creates, named uniquely per run.
const WRITER = 'tara.sommer19@demo.test';
const INSURANCE = '/api/0/insuranceservice/v1';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function inGerman(page: Page) {
  await signIn(page, WRITER);
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.addInitScript(() => localStorage.setItem('bo.language', 'de'));
}

/** A seeded customer's code and the home contents product's id, for the sale's address. */
async function saleUrl(page: Page): Promise<string> {
  const accounts = await page.request.get('/api/0/accountservice/v1/accounts?pageSize=1');
  const account = (await accounts.json()).items[0];
  const products = await page.request.get(`${INSURANCE}/products?filter=slug=home-contents`);
  const product = (await products.json()).items[0];
  return `/u/0/customers/${account.code}/create-policy/${product.id}`;
}

test.describe('Vertragsdaten und Kündigung (Deutsch)', () => {
  test('eine Laufzeit unter 1 und eine Postleitzahl ABCDE werden am Feld abgelehnt', async ({
    page,
  }) => {
    await inGerman(page);
    await page.goto(await saleUrl(page));
    await expect(
      page.getByRole('heading', { level: 1, name: 'Neuer Vertrag: Hausrat Zuhause' }),
    ).toBeVisible();
    const duration = page.getByRole('textbox', { name: 'Laufzeit', exact: true });
    await duration.fill('-1');
    await page.getByRole('button', { name: 'Vertrag anlegen' }).click();
    await expect(page.getByText('Die Laufzeit muss mindestens 1 betragen')).toBeVisible();
    await expect(duration).toHaveAttribute('aria-invalid', 'true');

    // A German address wants five digits.
    await page.goto('/u/0/customers/new');
    await expect(page.getByRole('heading', { level: 1, name: 'Neuer Kunde' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Vorname' }).fill('Greta');
    await page.getByRole('textbox', { name: 'Nachname' }).fill(`Fünfstellig ${stamp()}`);
    await page.getByRole('textbox', { name: 'E-Mail' }).fill(`greta.${stamp()}@example.test`);
    await page.getByRole('textbox', { name: 'Straße' }).fill('Domstraße');
    await page.getByRole('textbox', { name: 'Hausnummer' }).fill('5');
    const zip = page.getByRole('textbox', { name: 'Postleitzahl' });
    await zip.fill('ABCDE');
    await page.getByRole('textbox', { name: 'Ort' }).fill('Köln');
    await page.getByRole('button', { name: 'Kunden anlegen' }).click();
    await expect(page.getByText('Geben Sie eine gültige Postleitzahl ein.')).toBeVisible();
    await expect(zip).toHaveAttribute('aria-invalid', 'true');
  });

  test('die Kündigung zeigt vor der Bestätigung die verdiente Prämie und die Erstattung', async ({
    page,
  }) => {
    await inGerman(page);
    // 50 000 insured: 55,00 € a year, from ten days ago for a year.
    const policy = await createHomePolicy(page, {
      firstName: 'Tara',
      lastName: `Kündig ${stamp()}`,
    });
    await page.goto(`/u/0/policies/${policy.code}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Vertrag ${policy.number}` }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Kündigen' }).click();
    const dialog = page.getByRole('dialog', { name: `Vertrag ${policy.number} kündigen` });
    // The default is a day the rule accepts: today.
    const date = dialog.getByRole('textbox', { name: 'Kündigungsdatum' });
    await expect(date).toHaveValue(displayDay(isoDay(0)));
    const start = new Date(`${isoDay(-10)}T00:00:00Z`);
    const end = new Date(start);
    end.setUTCFullYear(start.getUTCFullYear() + 1);
    const termDays = Math.round((end.getTime() - start.getTime()) / 86_400_000);
    const euros = (cents: number) => `${(cents / 100).toFixed(2).replace('.', ',')}\u00a0€`;
    const earned = Math.round((5500 * 10) / termDays);
    const money = dialog.getByRole('region', { name: 'Prämie bei Kündigung zu diesem Tag' });
    await expect(money).toContainText(`Prämie der Laufzeit (${termDays} Tage)${euros(5500)}`);
    await expect(money).toContainText(`Verdiente Prämie (10 Tage)${euros(earned)}`);
    await expect(money).toContainText(`Erstattung${euros(5500 - earned)}`);
    await expectNoSeriousA11yViolations(page);

    // Another day, other figures; a day outside the contract shows its message instead.
    await date.fill(displayDay(isoDay(-30)));
    await expect(dialog.getByText(`Verdiente Prämie`)).toBeHidden();
    await date.fill(displayDay(isoDay(0)));
    await expect(money).toContainText(`Erstattung${euros(5500 - earned)}`);
    await dialog.getByRole('button', { name: 'Kündigen' }).click();
    await page
      .getByRole('dialog', { name: 'Kündigen' })
      .getByRole('button', { name: 'Kündigen' })
      .click();
    await expect(page.getByText(`Vertrag ${policy.number} gekündigt.`)).toBeVisible();
    // Stored on the version the termination wrote.
    const stored = await page.request.get(`${INSURANCE}/policies/${policy.code}?expand=versions`);
    const current = (await stored.json()).policy.versions.find(
      (v: { isCurrent: boolean }) => v.isCurrent,
    );
    expect(current.metadata.termination).toMatchObject({
      paidPremiumCents: 5500,
      earnedPremiumCents: earned,
      refundCents: 5500 - earned,
    });
  });

  test('abgelaufene Verträge heißen in Liste und Detail „Abgelaufen“', async ({ page }) => {
    // POL-000001 does not renew and its term ended about a year before the clock's today (the
    // demo world follows the clock): the run at start expired it.
    await signIn(page, 'viewer@demo.test');
    await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
    await page.goto('/u/0/policies?status=EXPIRED&q=POL-000001');
    const table = page.getByRole('table', { name: 'Verträge', exact: true });
    await expect(page.getByRole('checkbox', { name: 'Abgelaufen' })).toBeChecked();
    const row = table.getByRole('row').nth(1);
    await expect(row.getByRole('cell', { name: 'Abgelaufen', exact: true })).toBeVisible();
    await row.getByRole('link', { name: 'POL-000001' }).click();
    const header = page
      .getByRole('heading', { level: 1, name: 'Vertrag POL-000001' })
      .locator('..');
    await expect(header.getByText('Abgelaufen', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
