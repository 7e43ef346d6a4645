import {
  apiAs,
  divisorProduct,
  expect,
  expectNoSeriousA11yViolations,
  signInGerman,
  test,
} from './fixtures.ts';

/**
 * A product version's test case as a German-speaking product manager (issue 15, point 2): the
 * sample values the activation's trial calculation uses, entered per insured object and field in
 * German number format. A test case that makes a formula fail blocks the activation, which names
 * the formula; a good one lets the version activate, after which the test case is only shown.
 */
const INSURANCE = '/api/0/insuranceservice/v1';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

test('der Testfall der Aktivierung: ein fehlschlagender sperrt, ein guter lässt aktivieren', async ({
  page,
  baseURL,
}) => {
  // Two activations, three dialogs and two axe runs on a shared box.
  test.setTimeout(180_000);
  // The field's default value 1 computes; the test case decides what the trial computes with.
  const api = await apiAs(baseURL!, 'manager@demo.test');
  const { productId, versionId } = await divisorProduct(api, `E2E Testfall ${stamp()}`, {
    defaultValue: 1,
    expression: '120 / divisor',
  });

  await signInGerman(page, 'manager@demo.test');
  const versionPage = `/u/0/management/product/${productId}/${versionId}`;
  await page.goto(versionPage);
  const section = page.getByRole('region', { name: 'Testfall', exact: true });
  await expect(section).toContainText('Kein Testfall gespeichert');
  await expect(section).toContainText('Wird beim Aktivieren verwendet');
  // The trial with the field's default value 1, as an activation now would compute it.
  const trial = section.getByTestId('trial-premium');
  await expect(trial).toHaveText(/^Beitrag der Probeberechnung: 120,00\s€ pro Jahr$/);

  // A value that is no number is named at its field before anything is sent.
  await section.getByRole('button', { name: 'Testfall bearbeiten' }).click();
  const dialog = page.getByRole('dialog', { name: 'Testfall der Aktivierung' });
  const divisor = dialog.getByRole('textbox', { name: 'Teiler' });
  await expect(divisor).toHaveValue('1');
  await expectNoSeriousA11yViolations(page);
  await divisor.fill('zwei');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(divisor).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Bitte geben Sie eine Zahl ein')).toBeVisible();

  // A test case whose divisor is 0: saved, and then it blocks the activation.
  await divisor.fill('0');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Testfall gespeichert.').first()).toBeVisible();
  await expect(section.getByText('Teiler')).toBeVisible();
  await expect(trial).toHaveText(
    'Die Probeberechnung scheitert, die Version lässt sich so nicht aktivieren: Beitragsformel „Schaden“: Division durch null (Zeichen 5)',
  );

  const activate = async () => {
    await page.goto(`/u/0/management/product/${productId}`);
    await page.getByRole('button', { name: 'Aktivieren: Version 1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Aktivieren' });
    await confirm.getByRole('button', { name: 'Aktivieren' }).click();
    return confirm;
  };
  const refused = await activate();
  await expect(refused).toContainText(
    'Nicht aktiviert: Der Beitrag lässt sich für die Beispieldaten (Testfall, sonst Standardwerte der Felder) nicht berechnen. Beitragsformel „Schaden“: Division durch null (Zeichen 5)',
  );
  await refused.getByRole('button', { name: 'Abbrechen' }).click();

  // A good test case, typed as Germans write numbers: the version activates.
  await page.goto(versionPage);
  await section.getByRole('button', { name: 'Testfall bearbeiten' }).click();
  await expect(divisor).toHaveValue('0');
  await divisor.fill('2.000,5');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog).toBeHidden();
  await expect(section).toContainText('2.000,5');
  await expect(trial).toHaveText(/^Beitrag der Probeberechnung: 0,06\s€ pro Jahr$/);
  const stored = await api.get(`${INSURANCE}/product-versions/${versionId}/test-case`);
  expect(
    ((await stored.json()) as { testCase: { objects: unknown } }).testCase.objects,
  ).toMatchObject({ default: { divisor: 2000.5 } });

  const confirm = await activate();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Etwas ist schiefgelaufen')).toHaveCount(0);

  // Active: the test case it was tried with is shown, no longer edited.
  await page.goto(versionPage);
  // The page reads the product, the version's parts and the test case again (a busy box: time).
  await expect(section).toContainText('2.000,5', { timeout: 30_000 });
  await expect(section.getByRole('button', { name: 'Testfall bearbeiten' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
