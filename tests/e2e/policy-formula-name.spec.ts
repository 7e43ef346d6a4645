import {
  apiAs,
  expect,
  expectNoSeriousA11yViolations,
  productThroughApi,
  signIn,
  test,
} from './fixtures.ts';

/**
 * The policy screen names the premium formula that cannot be computed over the policy's values
 * (issue 15 points 1 and 2), in German: a tariff of the spec's own divides by a field; the active
 * version computes for the value 1, and a draft that sets it to 0 is refused naming the formula
 * and why, never "Etwas ist schiefgelaufen".
 */
const INSURANCE = '/api/0/insuranceservice/v1';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

// FIXME (insgaps, 2026-11-26): the draft dialog answers the divisor 0 with "Der Wert ist ungültig"
// in its issue list, not the formula's name; not yet known whether the dialog's own check or the
// service's answer says it (see the trace of a run). Fixed, this test names the formula.
test.fixme('der Vertrag nennt die Beitragsformel, die sich nicht berechnen lässt', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const manager = await apiAs(baseURL!, 'manager@demo.test');
  const { versionId } = await productThroughApi(manager, {
    name: `E2E Teiler ${stamp()}`,
    category: 'device',
  });
  const objects = await manager.get(
    `${INSURANCE}/insured-objects?filter=productVersionId=${versionId}&expand=productFields`,
  );
  const defaultObject = ((await objects.json()) as { items: { id: number }[] }).items[0]!;
  const field = await manager.post(`${INSURANCE}/product-fields`, {
    data: {
      insuredObjectId: defaultObject.id,
      name: 'divisor',
      label: 'Teiler',
      type: 'number',
      defaultValue: 1,
    },
  });
  expect(field.status()).toBe(201);
  const formula = await manager.post(`${INSURANCE}/premium-formulas`, {
    data: {
      productVersionId: versionId,
      variableName: null,
      group: 'Gerät',
      name: 'Schaden',
      unit: 'year',
      expression: '120 / divisor',
    },
  });
  expect(formula.status()).toBe(201);
  const activated = await manager.put(`${INSURANCE}/product-versions/${versionId}`, {
    data: { status: 'active' },
  });
  expect(activated.status()).toBe(200);

  const care = await apiAs(baseURL!, 'care@demo.test');
  const created = await care.post(`${INSURANCE}/policies`, {
    data: {
      productVersionId: versionId,
      holder: { type: 'person', firstName: 'Tilda', lastName: `Teiler ${stamp()}` },
      policyObjects: [
        {
          insuredObjectId: defaultObject.id,
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
  const divisor = page
    .getByRole('spinbutton', { name: 'Teiler' })
    .or(page.getByRole('textbox', { name: 'Teiler' }));
  await divisor.fill('0');
  await page.getByRole('button', { name: 'Entwurf speichern' }).click();
  await page
    .getByRole('dialog', { name: 'Entwurf bearbeiten' })
    .getByRole('button', { name: 'Entwurf bearbeiten' })
    .click();
  await expect(
    page.getByText(/Beitragsformel „Schaden“: Division durch null/).first(),
  ).toBeVisible();
  await expect(page.getByText('Etwas ist schiefgelaufen')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
