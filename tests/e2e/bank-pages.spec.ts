import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { apiAs, expect, signInGerman, test } from './fixtures.ts';
import { paidInvoice } from './billing-setup.ts';

/**
 * Serious and critical axe findings of the shell around the frame and of the framed page. Axe
 * cannot run inside the frame (the sandbox lets no script run there, and axe's frame messaging
 * waits for it for ever), so the shell is checked without frames (legacy mode: one `axe.run` in
 * the page) and the framed page on its own, opened by its address in a second tab.
 */
async function expectAccessibleBankPage(page: Page) {
  const serious = async (builder: AxeBuilder) =>
    (await builder.withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  expect(
    await serious(new AxeBuilder({ page }).setLegacyMode().options({ iframes: false })),
  ).toEqual([]);
  const src = await page.locator('iframe').getAttribute('src');
  const framed = await page.context().newPage();
  await framed.goto(src!);
  await expect(framed.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await serious(new AxeBuilder({ page: framed }))).toEqual([]);
  await framed.close();
}

// The embedded bank pages at /bank/transactions and /bank/orders (issue 18;
// docs/decisions/015-bank-pages.md): framed by the shell, matched to invoices.
test('auf Deutsch: die Kontoumsätze zeigen eine gebuchte Zahlung mit ihrer Rechnung, die sich im Hauptfenster öffnet', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const admin = await apiAs(baseURL!, 'admin@demo.test');
  const invoice = await paidInvoice(admin, 2_222, { method: 'bank-transfer' });
  await admin.dispose();

  await signInGerman(page, 'finance@demo.test');
  await page.goto('/u/0/finance-management/finance-invoices');
  await page.getByRole('link', { name: 'Kontoumsätze' }).click();
  await expect(page).toHaveURL(/\/u\/0\/bank\/transactions$/);
  await expect(page.getByRole('heading', { name: 'Kontoumsätze', level: 1 })).toBeVisible();
  const frameElement = page.getByTitle('Banking-App: Kontoumsätze');
  await expect(frameElement).toHaveAttribute('sandbox', 'allow-top-navigation-by-user-activation');
  const frame = page.frameLocator('iframe[title="Banking-App: Kontoumsätze"]');
  await expect(frame.getByRole('heading', { name: 'Kontoumsätze' })).toBeVisible();
  const row = frame.getByRole('row').filter({ hasText: invoice.invoiceNumber });
  await expect(row).toContainText('22,22 €');
  await expect(row).toContainText('Gutgeschrieben');
  await expectAccessibleBankPage(page);

  // The invoice opens in the whole window, in the shell.
  await row.getByRole('link', { name: invoice.invoiceNumber }).click();
  await expect(page).toHaveURL(
    new RegExp(`/u/0/finance-management/finance-invoices/${invoice.code}$`),
  );
  await expect(
    page.getByRole('heading', { name: `Rechnung ${invoice.invoiceNumber}` }),
  ).toBeVisible();
});

test('auf Deutsch: die Zahlungsaufträge zeigen Erstattungen und Lastschriften mit Rechnungsnummern', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signInGerman(page, 'finance@demo.test');
  await page.goto('/bank/orders');
  await expect(page).toHaveURL(/\/u\/0\/bank\/orders$/);
  await expect(page.getByRole('heading', { name: 'Zahlungsaufträge', level: 1 })).toBeVisible();
  const frame = page.frameLocator('iframe[title="Banking-App: Zahlungsaufträge"]');
  await expect(frame.getByRole('heading', { name: 'Zahlungsaufträge' })).toBeVisible();
  await expect(frame.getByRole('cell', { name: 'Erstattung (Überweisung)' }).first()).toBeVisible();
  await expect(frame.getByRole('cell', { name: 'Lastschrifteinzug' }).first()).toBeVisible();
  await expect(frame.getByRole('link', { name: /^INV-\d{4}-\d{6}$/ }).first()).toBeVisible();
  await expectAccessibleBankPage(page);
});
