import { readFileSync } from 'node:fs';
import { apiAs, expect, expectNoSeriousA11yViolations, signInGerman, test } from './fixtures.ts';
import { overdueInvoice, paymentsOf } from './billing-setup.ts';

test.describe('billing', () => {
  test('auf Deutsch: eine Servicekraft bucht die Zahlung einer überfälligen Rechnung; zu viel wird abgelehnt, ein Doppelklick bucht einmal, danach ist sie bezahlt', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const admin = await apiAs(baseURL!, 'admin@demo.test');
    const invoice = await overdueInvoice(admin, 12_345);

    await signInGerman(page, 'care@demo.test');
    // Found in the list by its number, among the overdue ones.
    await page.goto(
      `/u/0/finance-management/finance-invoices?overdue=1&search=${invoice.invoiceNumber}`,
    );
    await expect(page.getByRole('heading', { name: 'Rechnungen' })).toBeVisible();
    const link = page.getByRole('link', { name: invoice.invoiceNumber });
    await expect(link).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await link.click();

    await expect(
      page.getByRole('heading', { name: `Rechnung ${invoice.invoiceNumber}` }),
    ).toBeVisible();
    await expect(page.getByTestId('invoice-status')).toHaveText(/Offen\s*Überfällig/);
    await expect(page.getByTestId('invoice-open')).toHaveText(/123,45\s€/);
    await expect(page.getByText('Noch keine Zahlungen gebucht.')).toBeVisible();

    await page.getByRole('button', { name: 'Zahlung buchen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Zahlung buchen' });
    const amount = dialog.getByRole('textbox', { name: /Betrag/ });
    await expect(amount).toHaveValue('123,45');
    await expectNoSeriousA11yViolations(page);

    // More than is open: refused by the service, in German, nothing booked.
    await amount.fill('200,00');
    await dialog.getByRole('button', { name: 'Zahlung buchen' }).click();
    await expect(dialog.getByText(/höher als der offene Betrag/)).toBeVisible();
    expect(await paymentsOf(admin, invoice.code)).toHaveLength(0);

    // Bad input never leaves the browser.
    await amount.fill('zwölf');
    await dialog.getByRole('button', { name: 'Zahlung buchen' }).click();
    await expect(amount).toHaveAttribute('aria-invalid', 'true');

    await amount.fill('123,45');
    await dialog
      .getByRole('combobox', { name: /Zahlungsart/ })
      .selectOption({ label: 'Überweisung' });
    await dialog.getByRole('textbox', { name: /Verwendungszweck/ }).fill('Mahnung März');
    await dialog.getByRole('button', { name: 'Zahlung buchen' }).dblclick();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Zahlung über 123,45 € gebucht.')).toBeVisible();

    await expect(page.getByTestId('invoice-status')).toHaveText('Bezahlt');
    await expect(page.getByTestId('invoice-open')).toHaveText(/0,00\s€/);
    const payments = page.getByTestId('invoice-payments');
    await expect(payments.getByRole('row')).toHaveCount(2);
    await expect(payments).toContainText('Clara Care');
    await expect(payments).toContainText('Mahnung März');
    // Paid in full: nothing more to book.
    await expect(page.getByRole('button', { name: 'Zahlung buchen' })).toHaveCount(0);
    const booked = await paymentsOf(admin, invoice.code);
    expect(booked.map((p) => p.amount)).toEqual([12_345]);
    await admin.dispose();
  });

  test('auf Deutsch: die Finanzabteilung liest den Finanzbericht mit Summen und lädt ihn als CSV', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signInGerman(page, 'finance@demo.test');
    await page.goto('/u/0/finance-management/finance-report');
    await expect(page.getByRole('heading', { name: 'Finanzbericht' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Finanzzahlen je Monat' });
    // The last twelve months, then the total.
    await expect(table.getByRole('row')).toHaveCount(14);
    await expect(table.getByRole('columnheader', { name: 'Überfällig' })).toBeVisible();
    await expect(page.getByTestId('report-total-invoiced')).not.toHaveText(/^0,00\s€$/);
    await expect(page.getByTestId('finance-chart').locator('canvas')).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV herunterladen' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^finance-report-\d{4}-\d{2}-\d{4}-\d{2}\.csv$/);
    const text = readFileSync((await file.path())!, 'utf8');
    expect(text.replace(/^\ufeff/, '').split('\r\n')[0]).toBe(
      'Monat;Gebuchte Beiträge;Berechnet;Bezahlt;Offen;Überfällig',
    );

    // A range that ends before it starts says so instead of asking the service.
    await page.getByLabel('Von Monat').fill('2026-05');
    await page.getByLabel('Bis Monat').fill('2026-01');
    await expect(
      page.getByText('Der Startmonat darf nicht nach dem Endmonat liegen.'),
    ).toBeVisible();
  });
});
