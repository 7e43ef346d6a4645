import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { shownStartOf } from './policy-setup.ts';

// The insurance screens in German and Polish: their own namespaces load in the chosen language,
// statuses, column names and dates follow it, and money takes the language's format.
const POLICY = 'POL-000124';

const TEXTS = {
  de: {
    menu: 'Hauptmenü',
    policies: 'Verträge',
    search: 'Verträge suchen',
    number: 'Vertragsnr.',
    active: 'Aktiv',
    policy: `Vertrag ${POLICY}`,
    // The product's own texts: the system field every policy has, by the product's translation.
    startField: 'Vertragsbeginn',
    // Issue 18: the seeded policy's billing frequency (yearly, seed-policies.ts billingOf).
    billingField: 'Zahlungsweise',
    billingValue: 'Jährlich',
    customers: 'Kunden',
    leads: 'Leads',
    products: 'Produktliste',
    productsHeading: 'Produkte',
    // 1.234,56 € — comma decimals, the sign after the amount.
    money: /\d,\d{2}\s€/,
  },
  pl: {
    menu: 'Menu główne',
    policies: 'Polisy',
    search: 'Szukaj polis',
    number: 'Nr polisy',
    active: 'Aktywna',
    policy: `Polisa ${POLICY}`,
    startField: 'Data rozpoczęcia umowy',
    billingField: 'Częstotliwość płatności',
    billingValue: 'Co rok',
    customers: 'Klienci',
    leads: 'Leady',
    products: 'Lista produktów',
    productsHeading: 'Produkty',
    money: /\d,\d{2}\s€/,
  },
} as const;

async function choose(page: Page, language: 'de' | 'pl') {
  await page.evaluate((l) => localStorage.setItem('bo.language', l), language);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

for (const language of ['de', 'pl'] as const) {
  test(`the insurance screens in ${language === 'de' ? 'German' : 'Polish'}`, async ({ page }) => {
    test.setTimeout(90_000);
    const t = TEXTS[language];
    await signIn(page, 'viewer@demo.test');
    await choose(page, language);
    const menu = page.getByRole('navigation', { name: t.menu });

    await menu.getByRole('link', { name: t.policies, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.policies })).toBeVisible();
    const table = page.getByRole('table', { name: t.policies, exact: true });
    await expect(table.getByRole('columnheader', { name: t.number })).toBeVisible();
    await page.getByRole('searchbox', { name: t.search }).fill(POLICY);
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByRole('row').nth(1);
    await expect(row.getByRole('cell', { name: t.active, exact: true })).toBeVisible();
    // Its start in the tenant's format, whatever the language (the seeded day follows the clock).
    await expect(row.getByRole('cell', { name: await shownStartOf(page, POLICY) })).toBeVisible();
    await expect(row).toContainText(t.money);
    await expectNoSeriousA11yViolations(page);

    await table.getByRole('link', { name: POLICY }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.policy })).toBeVisible();
    await expect(page.getByText(t.startField, { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Policy start date')).toHaveCount(0);
    await expect(page.getByText(t.billingField, { exact: true }).first()).toBeVisible();
    await expect(page.getByText(t.billingValue, { exact: true }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await menu.getByRole('link', { name: t.customers, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.customers })).toBeVisible();
    await menu.getByRole('link', { name: t.leads, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.leads })).toBeVisible();
    await menu.getByRole('link', { name: t.products, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.productsHeading })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
}
