import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  apiAs,
  expect,
  expectNoSeriousA11yViolations,
  productThroughApi,
  signIn,
  test,
} from './fixtures.ts';

const INSURANCE = '/api/0/insuranceservice/v1';

// Writes only as klara.bauer10@ and olga.graf14@ (product managers no other spec uses), each on a
// product of its own with a unique stamp; the viewer only reads seeded data.
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const csv = (text: string) => ({
  name: 'region.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(text),
});

async function openProductList(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Product list' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
}

/** A new product of the signed-in manager, opened on its detail page. */
async function createProduct(page: Page, name: string) {
  await openProductList(page);
  await page.getByRole('button', { name: 'New product' }).click();
  const dialog = page.getByRole('dialog', { name: 'New product' });
  await dialog.getByRole('textbox', { name: 'Product name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Car' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Its first version, a draft, opened in the editor. */
async function createVersion(page: Page, name: string) {
  await page.getByRole('button', { name: 'New version' }).click();
  const dialog = page.getByRole('dialog', { name: 'New version' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${name}, version 1` })).toBeVisible();
}

test.describe('product extras', () => {
  test('a product manager uploads factor tables, adds a named range and uses both in a formula', async ({
    page,
  }) => {
    // Uploads, downloads and several editors in one walk: 19 s measured in CI, under load more.
    test.setTimeout(90_000);
    const name = `E2E Tariff ${stamp()}`;
    await signIn(page, 'klara.bauer10@demo.test');
    await createProduct(page, name);
    await createVersion(page, name);

    // An insured object from a type brings its default fields.
    await page.getByRole('button', { name: 'Add insured object' }).click();
    const objectDialog = page.getByRole('dialog', { name: 'New insured object' });
    await objectDialog.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Driver' });
    await expect(objectDialog.getByRole('textbox', { name: 'Name in formulas' })).toHaveValue(
      'driver',
    );
    await expect(
      objectDialog.getByText(
        'A type brings its default fields: Date of birth, No-claims class, Postcode.',
      ),
    ).toBeVisible();
    await objectDialog.getByRole('button', { name: 'Add' }).click();
    await expect(objectDialog).toBeHidden();
    const driver = page.getByRole('region', { name: 'Insured object Driver (driver)' });
    await expect(driver.getByRole('cell', { name: 'driver.zipCode' })).toBeVisible();

    // A bad file: every problem with its line, nothing saved.
    await page.getByRole('button', { name: 'Upload factor table' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload factor table' });
    await expect(upload.getByRole('textbox', { name: 'Table name' })).toBeFocused();
    await upload.getByRole('textbox', { name: 'Table name' }).fill('region');
    await upload
      .getByLabel('CSV file')
      .setInputFiles(csv('zipCode,value\n10115,1.2\n20095,abc\n,1.1\n10115,1.3\n'));
    await upload.getByRole('button', { name: 'Check file' }).click();
    const problems = upload.getByRole('list', { name: 'Problems in the file' });
    await expect(problems.getByRole('listitem')).toHaveText([
      'Line 3: the value "abc" is not a number like 1.15.',
      'Line 4: zipCode is empty (use * to match every value).',
      'Line 5: the keys 10115 already appear on line 2.',
    ]);
    await expect(upload.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // A good file is checked, shown, then saved.
    await upload.getByLabel('CSV file').setInputFiles(csv('zipCode,value\n10115,1.2\n*,1\n'));
    await upload.getByRole('button', { name: 'Check file' }).click();
    await expect(upload.getByText('The file is valid: 2 rows, keys zipCode.')).toBeVisible();
    await upload.getByRole('button', { name: 'Save' }).click();
    await expect(upload).toBeHidden();
    const factors = page.getByRole('table', { name: 'Factor tables' });
    await expect(factors.getByRole('row').nth(1)).toContainText('region');
    await expect(factors.getByRole('row').nth(1)).toContainText('zipCode');
    await page.getByRole('button', { name: 'Show the rows of region' }).click();
    const rows = page.getByRole('dialog', { name: 'Rows of region' });
    await expect(rows.getByRole('row').nth(1).getByRole('cell')).toHaveText(['10115', '1.2']);
    await rows.getByRole('button', { name: 'Close' }).click();

    // A named range: overlapping bands are refused before saving.
    await page.getByRole('button', { name: 'Add named range' }).click();
    const range = page.getByRole('dialog', { name: 'New named range' });
    await range.getByRole('textbox', { name: 'Name' }).fill('driverAge');
    await range.getByRole('textbox', { name: 'From, band 1' }).fill('16');
    await range.getByRole('textbox', { name: 'To, band 1' }).fill('30');
    await range.getByRole('textbox', { name: 'Value, band 1' }).fill('1.25');
    await range.getByRole('button', { name: 'Add band' }).click();
    await expect(range.getByRole('textbox', { name: 'From, band 2' })).toHaveValue('30');
    await range.getByRole('textbox', { name: 'From, band 2' }).fill('25');
    await range.getByRole('textbox', { name: 'Value, band 2' }).fill('1');
    await range.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(range.getByText('Band 2 overlaps band 1.')).toBeVisible();
    await range.getByRole('textbox', { name: 'To, band 1' }).fill('25');
    await range.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(range).toBeHidden();
    await expect(page.getByRole('table', { name: 'Named ranges' })).toContainText(
      '16 – 25: 1.25; 25 – and above: 1',
    );

    // A formula reads both; an unknown table is refused by its code, in the user's language.
    await page.getByRole('button', { name: 'Add premium formula' }).click();
    const formula = page.getByRole('dialog', { name: 'New premium formula' });
    await formula.getByRole('textbox', { name: 'Group' }).fill('Liability');
    await formula.getByRole('textbox', { name: 'Name', exact: true }).fill('Regional premium');
    await formula.getByRole('combobox', { name: 'Unit' }).selectOption({ label: 'per year' });
    const expression = formula.getByRole('textbox', { name: 'Expression' });
    await expression.fill("100 * factor('zone', driver.zipCode)");
    await formula.getByRole('button', { name: 'Add' }).click();
    // Said at the expression, pointing at the place (issue 15).
    await expect(
      formula.getByText(
        "This version has no factor table “zone” (character 7: “factor('zone', d…”)",
      ),
    ).toBeVisible();
    await expression.fill(
      "100 * factor('region', driver.zipCode) * range('driverAge', yearsBetween(driver.birthDate, policyStartDate))",
    );
    await formula.getByRole('button', { name: 'Add' }).click();
    await expect(formula).toBeHidden();
    await expect(page.getByRole('table', { name: 'Premium formulas' })).toContainText(
      "factor('region', driver.zipCode)",
    );

    // What a formula reads cannot be deleted.
    await page.getByRole('button', { name: 'Delete region', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete factor table' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(
      confirm.getByText('It is still used by the premium formula Regional premium.'),
    ).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expectNoSeriousA11yViolations(page);
  });

  test('a product manager keeps languages, translations and booking funnels', async ({ page }) => {
    // Uploads, downloads and several editors in one walk: 19 s measured in CI, under load more.
    test.setTimeout(90_000);
    const name = `E2E Languages ${stamp()}`;
    await signIn(page, 'olga.graf14@demo.test');
    await createProduct(page, name);
    await createVersion(page, name);
    await page.getByRole('link', { name: 'Back to product' }).click();

    // A booking funnel, edited into a second version; the first stays readable.
    await page.getByRole('button', { name: 'New booking funnel' }).click();
    const funnel = page.getByRole('dialog', { name: 'New booking funnel' });
    await funnel.getByRole('textbox', { name: 'Name' }).fill('Online');
    await funnel.getByRole('textbox', { name: 'Title of step 1' }).fill('Start');
    await funnel.getByRole('checkbox', { name: 'Policy: Policy start date' }).check();
    await funnel.getByRole('button', { name: 'Create' }).click();
    await expect(funnel).toBeHidden();
    const funnels = page.getByRole('table', { name: 'Booking funnels' });
    await expect(funnels.getByRole('row').nth(1)).toContainText('Start: default.policyStartDate');
    await page.getByRole('button', { name: 'Edit Online' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit booking funnel' });
    await edit.getByRole('textbox', { name: 'Name' }).fill('Online shop');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await page.getByRole('button', { name: 'Versions of Online shop' }).click();
    const versions = page.getByRole('dialog', { name: 'Versions of Online shop' });
    await versions.getByRole('button', { name: 'View version 1' }).click();
    await expect(versions.getByRole('heading', { name: 'Online, version 1' })).toBeVisible();
    await versions.getByRole('button', { name: 'Close' }).click();

    // Languages: add one, a bad file lists its problems by line, a good one completes it.
    await page.getByRole('link', { name: 'Languages and translations' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: `Languages of ${name}` }),
    ).toBeVisible();
    await expect(page.getByText('No languages yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Add language' }).click();
    const add = page.getByRole('dialog', { name: 'Add language' });
    await add.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await add.getByRole('button', { name: 'Add' }).click();
    const languages = page.getByRole('table', { name: 'Languages' });
    const german = languages.getByRole('row').filter({ hasText: 'German (de)' });
    await expect(german).toContainText('None');
    await page.getByRole('button', { name: 'Upload translations for German (de)' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload translations: German (de)' });
    await upload.getByLabel('Translation file').setInputFiles({
      name: 'de.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('key,value\nproduct.name,Auto\nbad key,x\n'),
    });
    await upload.getByRole('button', { name: 'Upload' }).click();
    await expect(upload.getByRole('listitem')).toHaveText([
      'Line 3: "bad key" is not a key of letters, digits, _ . and -.',
    ]);
    const texts = { 'product.name': 'Autoversicherung', 'vehicle.label': 'Fahrzeug' };
    await upload.getByLabel('Translation file').setInputFiles({
      name: 'de.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(texts)),
    });
    await upload.getByRole('button', { name: 'Upload' }).click();
    await expect(upload).toBeHidden();
    await expect(page.getByText('2 translations of German (de) saved.')).toBeVisible();
    await expect(german).toContainText('Complete');
    await page.getByRole('button', { name: 'Activate German (de)' }).click();
    await expect(german.getByRole('cell', { name: 'Yes', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download German (de) as JSON' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/-de\.json$/);
    expect(JSON.parse(await readFile((await download.path())!, 'utf8'))).toEqual(texts);
  });

  test('a booking funnel saved by someone else meanwhile shows the conflict; keeping mine saves it', async ({
    page,
    baseURL,
  }) => {
    // A product with a version and a funnel of this test, set up through the API.
    const api = await apiAs(baseURL!, 'klara.bauer10@demo.test');
    const name = `E2E Funnel ${stamp()}`;
    const created = await productThroughApi(api, { name, category: 'car' });
    const steps = [
      { title: 'Start', fields: [{ insuredObject: 'default', field: 'policyStartDate' }] },
    ];
    const funnel = await api.post(`${INSURANCE}/booking-funnels`, {
      data: { name: 'Online', productSlug: created.slug, productVersionId: null, steps },
    });
    expect(funnel.status()).toBe(201);
    const code = ((await funnel.json()) as { bookingFunnel: { code: string } }).bookingFunnel.code;

    await signIn(page, 'klara.bauer10@demo.test');
    await page.goto(`/u/0/management/product/${created.productId}`);
    await page.getByRole('button', { name: 'Edit Online' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit booking funnel' });
    await edit.getByRole('textbox', { name: 'Name' }).fill('Online shop');
    await edit.getByRole('checkbox', { name: 'Policy: Policy duration', exact: true }).check();

    // Meanwhile a colleague saves the same funnel (its version 2).
    const meanwhile = await api.put(`${INSURANCE}/booking-funnels/${code}`, {
      data: { name: 'Online (theirs)', productVersionId: null, steps, version: 1 },
    });
    expect(meanwhile.status()).toBe(200);

    await edit.getByRole('button', { name: 'Save' }).click();
    const panel = edit.getByRole('alert', { name: 'This record was changed in another tab' });
    await expect(panel).toBeVisible();
    await expect(panel).toContainText('Online (theirs)');
    // What was typed stays in the form.
    await expect(edit.getByRole('textbox', { name: 'Name' })).toHaveValue('Online shop');
    await expectNoSeriousA11yViolations(page);

    await panel.getByRole('button', { name: 'Save my input over it' }).click();
    await expect(edit).toBeHidden();
    const row = page.getByRole('table', { name: 'Booking funnels' }).getByRole('row').nth(1);
    await expect(row).toContainText('Online shop');
    await expect(row).toContainText('default.policyStartDate, default.policyDurationValue');
    const saved = await api.get(`${INSURANCE}/booking-funnels?filter=code=${code}`);
    expect(((await saved.json()) as { items: { version: number }[] }).items[0]!.version).toBe(3);
    await api.dispose();
  });

  test('a viewer sees factors, ranges, funnels and product settings read-only', async ({
    page,
  }) => {
    await signIn(page, 'viewer@demo.test');
    await openProductList(page);
    // Other specs add products (newest first): the seeded one is found by name, not by place.
    await page.getByRole('searchbox', { name: 'Filter Name' }).fill('Kfz-Versicherung Komfort');
    await page
      .getByRole('table', { name: 'Products' })
      .getByRole('link', { name: 'Kfz-Versicherung Komfort' })
      .click();
    await expect(page.getByRole('table', { name: 'Booking funnels' })).toContainText('Kfz online');
    await expect(page.getByRole('button', { name: 'New booking funnel' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit Kfz online' })).toHaveCount(0);
    // Without the translations permission the languages stay out of sight.
    await expect(page.getByRole('link', { name: 'Languages and translations' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Version 3' }).click();
    await expect(page.getByRole('table', { name: 'Factor tables' })).toContainText('region');
    await expect(page.getByRole('table', { name: 'Named ranges' })).toContainText('driverAge');
    await expect(page.getByRole('table', { name: 'Premium formulas' })).toContainText(
      "range('driverAge'",
    );
    await expect(page.getByRole('button', { name: 'Upload factor table' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add named range' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add insured object' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Product settings' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Product settings' })).toBeVisible();
    await expect(
      page.getByText('You can read the product settings but not change them.'),
    ).toBeVisible();
    const car = page.getByRole('region', { name: 'Kfz-Versicherung Komfort (car-comfort)' });
    await expect(car.getByRole('textbox', { name: 'Booking funnel CSS' })).toBeDisabled();
    await expect(page.getByRole('button', { name: /^Save settings/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });
});
