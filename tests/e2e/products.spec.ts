import type { Page } from '@playwright/test';
import {
  apiAs,
  expect,
  expectNoSeriousA11yViolations,
  productThroughApi,
  signIn,
  test,
} from './fixtures.ts';

// Each run creates its own product, so that no other spec (or a rerun) sees its rows.
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function openProductList(page: Page) {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Product list' }).click();
  await expect(page).toHaveURL(/\/u\/0\/management\/product-list$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
}

const productTable = (page: Page) => page.getByRole('table', { name: 'Products' });

test.describe('product management', () => {
  test('a product manager builds a product version with a field and a premium formula', async ({
    page,
  }) => {
    const name = `E2E Gadget ${stamp()}`;
    await signIn(page, 'manager@demo.test');
    await openProductList(page);
    // Other specs add products (newest first): the seeded one is found by name, not by place.
    await page.getByRole('searchbox', { name: 'Filter Name' }).fill('Kfz-Versicherung Komfort');
    await expect(
      productTable(page).getByRole('link', { name: 'Kfz-Versicherung Komfort' }),
    ).toBeVisible();
    await page.getByRole('searchbox', { name: 'Filter Name' }).fill('');
    await expectNoSeriousA11yViolations(page);

    // Create a product: the form says what is missing before the server is asked.
    await page.getByRole('button', { name: 'New product' }).click();
    const productDialog = page.getByRole('dialog', { name: 'New product' });
    await expect(productDialog.getByRole('textbox', { name: 'Product name' })).toBeFocused();
    await productDialog.getByRole('button', { name: 'Create' }).click();
    await expect(productDialog.getByText('Product name is required')).toBeVisible();
    await productDialog.getByRole('textbox', { name: 'Product name' }).fill(name);
    await productDialog
      .getByRole('combobox', { name: 'Category' })
      .selectOption({ label: 'Device' });
    await productDialog.getByRole('button', { name: 'Create' }).click();

    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText('No versions yet.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A new version opens in the editor with the 'default' insured object first.
    await page.getByRole('button', { name: 'New version' }).click();
    const versionDialog = page.getByRole('dialog', { name: 'New version' });
    await versionDialog.getByRole('textbox', { name: 'Description' }).fill('First tariff');
    await versionDialog.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `${name}, version 1` })).toBeVisible();
    const defaultObject = page.getByRole('region', { name: 'Insured object Policy (default)' });
    await expect(defaultObject.getByRole('cell', { name: 'policyStartDate' })).toBeVisible();

    // Add a number field.
    await page.getByRole('button', { name: 'Add field to Policy' }).click();
    const fieldDialog = page.getByRole('dialog', { name: 'New field for Policy' });
    await fieldDialog.getByRole('textbox', { name: 'Label' }).fill('Purchase price');
    await fieldDialog.getByRole('textbox', { name: 'Name in formulas' }).fill('price');
    await fieldDialog.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Number' });
    await fieldDialog.getByRole('textbox', { name: 'Minimum' }).fill('50');
    await fieldDialog.getByRole('textbox', { name: 'Maximum' }).fill('3000');
    await fieldDialog.getByRole('button', { name: 'Add' }).click();
    await expect(fieldDialog).toBeHidden();
    const priceRow = defaultObject.getByRole('row').filter({ hasText: 'Purchase price' });
    await expect(priceRow).toContainText('50 – 3000');

    // A bad expression is refused by its code, in the user's language (never the service's English text); the values typed stay.
    await page.getByRole('button', { name: 'Add premium formula' }).click();
    const formulaDialog = page.getByRole('dialog', { name: 'New premium formula' });
    await formulaDialog.getByRole('textbox', { name: 'Group' }).fill('Device');
    await formulaDialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Damage cover');
    const expression = formulaDialog.getByRole('textbox', { name: 'Expression' });
    await expression.fill('price * * 0.01');
    await formulaDialog
      .getByRole('combobox', { name: 'Unit' })
      .selectOption({ label: 'per month' });
    await formulaDialog.getByRole('button', { name: 'Add' }).click();
    // Said at the expression, pointing at the place (issue 15).
    await expect(
      formulaDialog.getByText('“*” is not expected here (character 9: “* 0.01”)'),
    ).toBeVisible();
    await expect(expression).toHaveAttribute('aria-invalid', 'true');
    await expect(formulaDialog.getByRole('textbox', { name: 'Group' })).toHaveValue('Device');
    await expression.fill('price * 0.008');
    await formulaDialog.getByRole('button', { name: 'Add' }).click();
    await expect(formulaDialog).toBeHidden();

    const formulas = page.getByRole('table', { name: 'Premium formulas' });
    const formulaRow = formulas.getByRole('row').filter({ hasText: 'Damage cover' });
    await expect(formulaRow).toContainText('price * 0.008');
    await expect(formulaRow).toContainText('per month');
    await expectNoSeriousA11yViolations(page);

    // A second formula, moved before the first (a swap of the two).
    await page.getByRole('button', { name: 'Add premium formula' }).click();
    await formulaDialog.getByRole('textbox', { name: 'Group' }).fill('Fees');
    await formulaDialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Service fee');
    await expression.fill('2');
    await formulaDialog
      .getByRole('combobox', { name: 'Unit' })
      .selectOption({ label: 'per month' });
    await formulaDialog.getByRole('button', { name: 'Add' }).click();
    await expect(formulas.getByRole('row').nth(2)).toContainText('Service fee');
    await page.getByRole('button', { name: 'Move Service fee up' }).click();
    await expect(formulas.getByRole('row').nth(1)).toContainText('Service fee');
    await expect(formulas.getByRole('row').nth(2)).toContainText('Damage cover');

    // Activating the version (behind the confirm dialog) makes it read-only.
    await page.getByRole('link', { name: 'Back to product' }).click();
    const versionRow = page.getByRole('row').filter({ hasText: 'First tariff' });
    await expect(versionRow).toContainText('Draft');
    await page.getByRole('button', { name: 'Activate: version 1' }).click();
    const confirmDialog = page.getByRole('dialog', { name: 'Activate' });
    await expect(confirmDialog).toContainText('Change version 1 to Active?');
    await confirmDialog.getByRole('button', { name: 'Activate' }).click();
    await expect(versionRow).toContainText('Active');
    await versionRow.getByRole('link', { name: 'Version 1' }).click();
    await expect(page.getByText('Only a draft version can be changed.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add premium formula' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Back to product' }).click();
    await page.getByRole('link', { name: 'Back to products' }).click();
    await page.getByRole('searchbox', { name: 'Filter Name' }).fill(name);
    await expect(productTable(page).getByRole('row')).toHaveCount(2);
    await expect(productTable(page).getByRole('row').nth(1)).toContainText('Version 1');
    await expect(productTable(page).getByRole('row').nth(1)).toContainText('Active');
  });

  // Issue 15 point 3 in English and in Polish: the same steps, the screen's words per language.
  const NEW_VERSION_TEXTS = {
    en: {
      newVersion: 'New version',
      copyOf: 'draft copy of version 1',
      startEmpty: 'Start empty',
      description: 'Description',
      create: 'Create',
      version: (name: string, n: number) => `${name}, version ${n}`,
      formulas: 'Premium formulas',
      addFormula: 'Add premium formula',
      back: 'Back to product',
      empty: 'starts as a draft with the policy fields',
    },
    pl: {
      newVersion: 'Nowa wersja',
      copyOf: 'robocza kopia wersji 1',
      startEmpty: 'Zacznij od pustej',
      description: 'Opis',
      create: 'Utwórz',
      version: (name: string, n: number) => `${name}, wersja ${n}`,
      formulas: 'Formuły składki',
      addFormula: 'Dodaj formułę składki',
      back: 'Powrót do produktu',
      empty: 'zaczyna jako robocza z polami polisy',
    },
  } as const;

  for (const language of ['en', 'pl'] as const) {
    test(`"New version" copies the newest version unless the user starts empty (${language})`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(60_000);
      const t = NEW_VERSION_TEXTS[language];
      // A product of this test with one version and a formula, set up through the API.
      const api = await apiAs(baseURL!, 'manager@demo.test');
      const name = `E2E Copy ${stamp()}`;
      const { productId } = await productThroughApi(
        api,
        { name, category: 'device', description: 'First tariff' },
        { group: 'Fee', name: 'Flat fee', expression: 'policyDurationValue * 12.5', unit: 'year' },
      );
      await api.dispose();

      await signIn(page, 'manager@demo.test');
      await page.evaluate((l) => localStorage.setItem('bo.language', l), language);
      await page.goto(`/u/0/management/product/${productId}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await page.getByRole('button', { name: t.newVersion }).click();
      const versionDialog = page.getByRole('dialog', { name: t.newVersion });
      await expect(versionDialog.getByText(t.copyOf)).toBeVisible();
      const startEmpty = versionDialog.getByRole('checkbox', { name: t.startEmpty });
      await expect(startEmpty).not.toBeChecked();
      await expectNoSeriousA11yViolations(page);
      await versionDialog.getByRole('textbox', { name: t.description }).fill('Second tariff');
      await versionDialog.getByRole('button', { name: t.create }).click();

      // The copy opens in the editor, a draft with the formula of version 1.
      await expect(page.getByRole('heading', { level: 1, name: t.version(name, 2) })).toBeVisible();
      const formulas = page.getByRole('table', { name: t.formulas });
      await expect(formulas.getByRole('row').filter({ hasText: 'Flat fee' })).toContainText(
        'policyDurationValue * 12.5',
      );
      await expect(page.getByRole('button', { name: t.addFormula })).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      // Starting empty is a choice: only the policy fields, no formula.
      await page.getByRole('link', { name: t.back }).click();
      await page.getByRole('button', { name: t.newVersion }).click();
      await startEmpty.check();
      await expect(versionDialog.getByText(t.empty)).toBeVisible();
      await versionDialog.getByRole('button', { name: t.create }).click();
      await expect(page.getByRole('heading', { level: 1, name: t.version(name, 3) })).toBeVisible();
      const defaultObject = page.getByRole('region', { name: /\(default\)$/ });
      await expect(defaultObject.getByRole('cell', { name: 'policyStartDate' })).toBeVisible();
      await expect(page.getByText('Flat fee')).toHaveCount(0);
    });
  }

  // Issue 15 point 4: a new product has no translations of its own; the catalogue's types and
  // fields read in the user's language, never in the catalogue's English.
  test('a new product shows the catalogue’s names in German', async ({ page, baseURL }) => {
    test.setTimeout(60_000);
    const api = await apiAs(baseURL!, 'manager@demo.test');
    const name = `E2E Katalog ${stamp()}`;
    const { productId, versionId } = await productThroughApi(api, { name, category: 'car' });
    await api.dispose();

    await signIn(page, 'manager@demo.test');
    await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
    await page.goto(`/u/0/management/product/${productId}/${versionId}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    const policy = page.getByRole('region', { name: 'Versichertes Objekt Vertrag (default)' });
    await expect(policy.getByRole('cell', { name: 'Vertragsbeginn', exact: true })).toBeVisible();
    await expect(policy.getByRole('cell', { name: 'Laufzeit', exact: true })).toBeVisible();

    // The types are offered in German, the type's default fields named in German.
    await page.getByRole('button', { name: 'Versichertes Objekt hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Neues versichertes Objekt' });
    const type = dialog.getByRole('combobox', { name: 'Typ' });
    await expect(type.getByRole('option', { name: 'Mobilgerät' })).toBeAttached();
    await expect(type.getByRole('option', { name: 'Mobile device' })).toHaveCount(0);
    await type.selectOption({ label: 'Fahrzeug' });
    await expect(dialog).toContainText('Fahrzeugwert, Fahrzeugart, Erstzulassung');
    await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(dialog).toBeHidden();

    const vehicle = page.getByRole('region', { name: 'Versichertes Objekt Fahrzeug (vehicle)' });
    await expect(vehicle.getByRole('cell', { name: 'Fahrzeugwert', exact: true })).toBeVisible();
    await expect(vehicle.getByRole('cell', { name: 'Fahrzeugart', exact: true })).toBeVisible();
    await expect(page.getByText('Vehicle value')).toHaveCount(0);
    await expect(page.getByText('Policy start date')).toHaveCount(0);

    // The test case's form too.
    await page.getByRole('button', { name: 'Testfall bearbeiten' }).click();
    const testCase = page.getByRole('dialog', { name: 'Testfall der Aktivierung' });
    await expect(testCase.getByText('Fahrzeugwert').first()).toBeVisible();
    await expect(testCase.getByText('Vehicle value')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('a viewer sees products read-only', async ({ page }) => {
    await signIn(page, 'viewer@demo.test');
    await openProductList(page);
    await expect(page.getByRole('button', { name: 'New product' })).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Filter Name' }).fill('Handyschutz Plus');
    await productTable(page).getByRole('link', { name: 'Handyschutz Plus' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Handyschutz Plus' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New version' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Activate/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Version 3' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Handyschutz Plus, version 3' }),
    ).toBeVisible();
    // mobile-device fields are listed by label.
    const device = page.getByRole('region', {
      name: 'Insured object Mobile device (mobile-device)',
    });
    await expect(device.getByRole('row').nth(1)).toContainText('Brand');
    await expect(device.getByRole('row').nth(4)).toContainText('Purchase price');
    await expect(page.getByRole('table', { name: 'Premium formulas' })).toContainText(
      'Theft cover',
    );
    await expect(page.getByRole('button', { name: /^Add/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });
});
