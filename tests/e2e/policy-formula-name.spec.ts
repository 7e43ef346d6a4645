import {
  apiAs,
  divisorProduct,
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  test,
} from './fixtures.ts';

/**
 * The policy draft dialog names the premium formula that cannot be computed over the draft's
 * values (issue 15, points 1 and 2), in German, instead of listing "Der Wert ist ungültig": a
 * tariff of the test's own divides by a field; the active version computes for the value 1, and a
 * draft that sets it to 0 is refused naming the formula and why. A formula naming a field the
 * version does not have cannot be saved or activated any more, so that refusal of the service is
 * forced with page.route, in the shape the service answers (422 calculation_failed, an issue with
 * the formula, the position and the unknown name).
 */
const INSURANCE = '/api/0/insuranceservice/v1';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

test('der Vertragsentwurf nennt die Beitragsformel, die sich nicht berechnen lässt', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const manager = await apiAs(baseURL!, 'manager@demo.test');
  const { versionId, insuredObjectId } = await divisorProduct(manager, `E2E Teiler ${stamp()}`, {
    defaultValue: 1,
    expression: '120 / divisor',
  });
  const activated = await manager.put(`${INSURANCE}/product-versions/${versionId}`, {
    data: { status: 'active' },
  });
  expect(activated.status(), await activated.text()).toBe(200);

  const care = await apiAs(baseURL!, 'care@demo.test');
  const created = await care.post(`${INSURANCE}/policies`, {
    data: {
      productVersionId: versionId,
      holder: { type: 'person', firstName: 'Tilda', lastName: `Teiler ${stamp()}` },
      policyObjects: [
        {
          insuredObjectId,
          data: {
            policyStartDate: isoDay(-10),
            policyDurationUnit: 'year',
            policyDurationValue: 1,
            divisor: 1,
          },
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { policy } = (await created.json()) as {
    policy: { code: string; currentVersionId: number };
  };
  const draft = await care.post(`${INSURANCE}/policies/${policy.code}/draft`, {
    data: { basedOnVersionId: policy.currentVersionId },
  });
  expect(draft.status(), await draft.text()).toBe(201);

  await signIn(page, 'care@demo.test');
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.goto(`/u/0/policies/${policy.code}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.getByRole('button', { name: 'Entwurf bearbeiten' }).click();
  const dialog = page.getByRole('dialog', { name: /Entwurf/ }).first();
  const divisor = dialog
    .getByRole('spinbutton', { name: 'Teiler' })
    .or(dialog.getByRole('textbox', { name: 'Teiler' }));

  /** Saves the draft and confirms; answers when the draft dialog shows again. */
  const saveDraft = async () => {
    await page.getByRole('button', { name: 'Entwurf speichern' }).click();
    await page
      .getByRole('dialog', { name: 'Entwurf bearbeiten' })
      .getByRole('button', { name: 'Entwurf bearbeiten' })
      .click();
  };

  // The service's own refusal: the divisor 0 over the formula "Schaden".
  await divisor.fill('0');
  await saveDraft();
  await expect(
    page.getByText(/Beitragsformel „Schaden“: Division durch null/).first(),
  ).toBeVisible();
  await expect(page.getByText('Der Wert ist ungültig')).toHaveCount(0);
  await expect(page.getByText('Etwas ist schiefgelaufen')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // A formula naming a field the version does not have (the service's answer, forced).
  await page.route(/\/insuranceservice\/v1\/policies\/[^/?]+\/draft(\?|$)/, (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 422,
          contentType: 'application/json',
          body: JSON.stringify({
            error: 'calculation_failed',
            message: 'the premium formula "Schaden" cannot be computed: unknown_variable at 7',
            issues: [
              {
                path: 'premium',
                code: 'unknown_name',
                position: 6,
                formula: 'Schaden',
                name: 'device.colour',
              },
            ],
          }),
        })
      : route.fallback(),
  );
  await divisor.fill('2');
  await saveDraft();
  await expect(
    page
      .getByText(
        'Beitragsformel „Schaden“: „device.colour“ ist weder ein Feld dieser Version noch eine Variable einer früheren Formel',
        { exact: false },
      )
      .first(),
  ).toBeVisible();
  await expect(page.getByText('Der Wert ist ungültig')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
