import { apiAs, expect, expectNoSeriousA11yViolations, signInGerman, test } from './fixtures.ts';
import { paidInvoice, paymentsOf } from './billing-setup.ts';

// Reversing a booked payment on the invoice page (issue 18; docs/contracts.md "Payment reversal").
test('auf Deutsch: die Finanzabteilung storniert eine gebuchte Zahlung mit Grund; die Rechnung ist wieder offen und überfällig', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await apiAs(baseURL!, 'admin@demo.test');
  // An invoice of this test's own, paid by a payment booked through the API.
  const invoice = await paidInvoice(admin, 4_711, { method: 'sepa', reference: 'Lastschrift' });

  await signInGerman(page, 'finance@demo.test');
  await page.goto(`/u/0/finance-management/finance-invoices/${invoice.code}`);
  await expect(
    page.getByRole('heading', { name: `Rechnung ${invoice.invoiceNumber}` }),
  ).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('Bezahlt');
  const payments = page.getByTestId('invoice-payments');
  await expect(payments).toContainText('Gebucht');

  await payments.getByRole('button', { name: /stornieren/i }).click();
  const dialog = page.getByRole('dialog', { name: 'Zahlung stornieren' });
  await expect(dialog).toContainText(`Rechnung ${invoice.invoiceNumber}`);
  await expectNoSeriousA11yViolations(page);
  // Without a reason nothing is sent.
  await dialog.getByRole('button', { name: 'Zahlung stornieren' }).click();
  const reason = dialog.getByRole('textbox', { name: /Grund der Stornierung/ });
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  expect((await paymentsOf(admin, invoice.code)).map((p) => p.status)).toEqual(['booked']);

  await reason.fill('Rücklastschrift mangels Deckung');
  await dialog.getByRole('button', { name: 'Zahlung stornieren' }).dblclick();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Die Zahlung über 47,11 € wurde storniert.')).toBeVisible();

  await expect(page.getByTestId('invoice-status')).toHaveText(/Offen\s*Überfällig/);
  await expect(page.getByTestId('invoice-open')).toHaveText(/47,11\s€/);
  await expect(payments).toContainText(/Storniert am .* von Fiona Finanz/);
  await expect(payments).toContainText('Rücklastschrift mangels Deckung');
  await expect(payments.getByRole('button', { name: /stornieren/i })).toHaveCount(0);
  const history = page.getByRole('region', { name: 'Statusverlauf' });
  await expect(history).toContainText('Grund: Rücklastschrift mangels Deckung');
  await expect(history.getByRole('listitem').last()).toContainText('Fiona Finanz');
  // Booking is possible again, and the payment is kept, reversed once.
  await expect(page.getByRole('button', { name: 'Zahlung buchen' })).toBeVisible();
  expect((await paymentsOf(admin, invoice.code)).map((p) => p.status)).toEqual(['reversed']);
  await expectNoSeriousA11yViolations(page);
  await admin.dispose();
});
