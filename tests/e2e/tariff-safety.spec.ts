import { apiAs, divisorProduct, expect, signInGerman, test } from './fixtures.ts';

// Tariff safety as a German-speaking product manager and customer-care agent (issue 15, points
// 1, 2 and 4): a formula refused at save says what and where, a version whose premium cannot be
// computed is not activated and says why, product fields are labelled from the product's German
// translations and numbers are typed as Germans write them.
const INSURANCE = '/api/0/insuranceservice/v1';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

test.describe('Tarifsicherheit (Deutsch)', () => {
  test('eine fehlerhafte Formel und eine nicht berechenbare Version werden erklärt abgelehnt', async ({
    page,
    baseURL,
  }) => {
    // A draft whose field "divisor" has the default value 0: a formula dividing by it saves
    // (another policy's divisor may differ) but no premium can be computed for the sample data.
    const api = await apiAs(baseURL!, 'manager@demo.test');
    const { productId, versionId } = await divisorProduct(api, `E2E Tarif ${stamp()}`, {
      defaultValue: 0,
    });

    await signInGerman(page, 'manager@demo.test');
    await page.goto(`/u/0/management/product/${productId}/${versionId}`);
    await page.getByRole('button', { name: 'Beitragsformel hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Neue Beitragsformel' });
    await dialog.getByRole('textbox', { name: 'Gruppe' }).fill('Gerät');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Schaden');
    const expression = dialog.getByRole('textbox', { name: 'Ausdruck' });
    await dialog.getByRole('combobox', { name: 'Einheit' }).selectOption({ index: 1 });
    // Saved without complaint before issue 15; now refused at the place of the error.
    await expression.fill('divisor / 0');
    await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(dialog.getByText('Division durch null (Zeichen 9: „/ 0“)')).toBeVisible();
    await expect(expression).toHaveAttribute('aria-invalid', 'true');
    // A name with a dot is named whole (the message was once cut at its dots and colons).
    await expression.fill('geraet.preis * 2');
    await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(
      dialog.getByText(
        '„geraet.preis“ ist weder ein Feld dieser Version noch eine Variable einer früheren Formel (Zeichen 1: „geraet.preis * 2“)',
      ),
    ).toBeVisible();
    await expression.fill('100 / divisor');
    await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('link', { name: 'Zurück zum Produkt' }).click();
    await page.getByRole('button', { name: 'Aktivieren: Version 1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Aktivieren' });
    await confirm.getByRole('button', { name: 'Aktivieren' }).click();
    await expect(confirm).toContainText(
      'Nicht aktiviert: Der Beitrag lässt sich für die Beispieldaten (Testfall, sonst Standardwerte der Felder) nicht berechnen. Beitragsformel „Schaden“: Division durch null (Zeichen 5)',
    );
    await expect(page.getByText('Etwas ist schiefgelaufen')).toHaveCount(0);
  });

  test('Produktfelder tragen ihre deutsche Bezeichnung und nehmen 20.000,50 an', async ({
    page,
  }) => {
    await signInGerman(page, 'care@demo.test');
    const accounts = await page.request.get('/api/0/accountservice/v1/accounts?pageSize=1');
    const account = (await accounts.json()).items[0];
    const products = await page.request.get(`${INSURANCE}/products?filter=slug=car-comfort`);
    const product = (await products.json()).items[0];
    await page.goto(`/u/0/customers/${account.code}/create-policy/${product.id}`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Neuer Vertrag: Kfz-Versicherung Komfort' }),
    ).toBeVisible();
    // The German translation file says "Fahrzeugwert"; the field's own label is English.
    const value = page.getByRole('textbox', { name: 'Fahrzeugwert' });
    await expect(page.getByRole('textbox', { name: 'Vehicle value' })).toHaveCount(0);
    await value.fill('20.000,50');
    await page.getByRole('button', { name: 'Vertrag anlegen' }).click();
    // The other required fields are named; the value as a German writes it is not refused.
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    await expect(value).not.toHaveAttribute('aria-invalid', 'true');
    await expect(value).toHaveValue('20.000,50');
  });
});
