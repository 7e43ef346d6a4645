import {
  expect,
  expectNoSeriousA11yViolations,
  managersDeviceProduct,
  signInGerman,
  test,
} from './fixtures.ts';

/**
 * The tax rate of a product (issue 18) as a German-speaking product manager: shown as German
 * writes a percent, the default 19 % until the product has one of its own; a typed rate that is
 * no percent is named at the field, a good one is saved and reads in the version's history. A
 * reader of products sees the rate and no way to change it.
 */

test('der Steuersatz eines Produkts: auf Deutsch gezeigt, vom Produktmanager geändert, für Leser nur lesbar', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { productId, versionId } = await managersDeviceProduct(baseURL!, 'E2E Steuersatz');

  await signInGerman(page, 'manager@demo.test');
  await page.goto(`/u/0/management/product/${productId}`);
  const section = page.getByRole('region', { name: 'Steuersatz', exact: true });
  await expect(section.getByTestId('tax-rate-value')).toHaveText('19 % (Standard)');

  await section.getByRole('button', { name: 'Steuersatz ändern' }).click();
  const input = section.getByRole('textbox', { name: 'Versicherungsteuer in %' });
  await expect(input).toHaveValue('19');
  await expectNoSeriousA11yViolations(page);
  // More than 100 % and a number in English format are refused before anything is sent.
  for (const wrong of ['120', '16.5']) {
    await input.fill(wrong);
    await section.getByRole('button', { name: 'Speichern' }).click();
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(section.getByText('Bitte einen Prozentsatz von 0 bis 100')).toBeVisible();
  }
  await input.fill('16,5');
  await section.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Steuersatz auf 16,5 % gesetzt.').first()).toBeVisible();
  await expect(section.getByTestId('tax-rate-value')).toHaveText('16,5 %');

  // The change is in the history of the product's version, with who made it.
  await page.goto(`/u/0/management/product/${productId}/${versionId}`);
  await expect(page.getByText('Steuersatz geändert').first()).toBeVisible();
  await expect(page.getByText('Max Manager').first()).toBeVisible();

  // A reader sees the rate, read-only.
  const context = await browser.newContext();
  // Signs in on the English page as every test does, then chooses German.
  await context.addInitScript(() => {
    if (!localStorage.getItem('bo.language')) localStorage.setItem('bo.language', 'en');
  });
  const reader = await context.newPage();
  await signInGerman(reader, 'viewer@demo.test');
  await reader.goto(`/u/0/management/product/${productId}`);
  const readOnly = reader.getByRole('region', { name: 'Steuersatz', exact: true });
  await expect(readOnly.getByTestId('tax-rate-value')).toHaveText('16,5 %');
  await expect(readOnly.getByRole('button')).toHaveCount(0);
  await context.close();
});
