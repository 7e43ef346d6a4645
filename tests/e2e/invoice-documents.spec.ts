import { readFile } from 'node:fs/promises';
import { apiAs, expect, expectNoSeriousA11yViolations, signInGerman, test } from './fixtures.ts';
import { overdueInvoice } from './billing-setup.ts';
import { expectNoUntranslatedText } from './language-checks.ts';

/**
 * An invoice's documents (issue 19), in German: an invoice made through the billing service gets
 * its "Rechnung INV-…" from the document service (on its `invoice.created`), listed on the
 * invoice page and downloaded as the PDF printed on its first download.
 */
test('eine angelegte Rechnung steht als PDF unter ihren Dokumenten', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const admin = await apiAs(baseURL!, 'admin@demo.test');
  const invoice = await overdueInvoice(admin, 2_500);
  // The document service issues it just after the billing service's answer.
  await expect
    .poll(async () => {
      const filter = encodeURIComponent(`entityType=invoice&entityId=${invoice.code}`);
      const res = await admin.get(`/api/0/documentservice/v1/documents?filter=${filter}`);
      return ((await res.json()) as { items: unknown[] }).items.length;
    })
    .toBe(1);
  await admin.dispose();

  await signInGerman(page, 'admin@demo.test');
  await page.goto(`/u/0/finance-management/finance-invoices/${invoice.code}`);
  const section = page.getByRole('region', { name: 'Dokumente' });
  const table = section.getByRole('table', {
    name: `Dokumente zur Rechnung ${invoice.invoiceNumber}`,
  });
  const row = table.getByRole('row').filter({ hasText: `Rechnung ${invoice.invoiceNumber}` });
  await expect(row).toContainText('Vom System ausgestellt');
  await expectNoSeriousA11yViolations(page);
  await expectNoUntranslatedText(page, 'de', ['finance', 'documents', 'common']);

  const filename = `Rechnung-${invoice.invoiceNumber}.pdf`;
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    row.getByRole('button', { name: `${filename} herunterladen` }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(filename);
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
});
