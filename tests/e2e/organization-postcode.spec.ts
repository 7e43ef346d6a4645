import { expect, signIn, test } from './fixtures.ts';

const T = '/api/0/tenantservice/v1';
const CSRF = { 'X-CSRF': '1' };
const MISFIT =
  'Diese Postleitzahl passt nicht zum Land (Deutschland: 5 Ziffern, Polen: NN-NNN, Österreich und Schweiz: 4 Ziffern).';

test.describe('organisation postcodes', () => {
  test('auf Deutsch: eine Postleitzahl, die nicht zum Land passt, steht am Feld – ob das Formular oder der Dienst sie ablehnt', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.test');
    await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
    await page.addInitScript(() => localStorage.setItem('bo.language', 'de'));
    const created = await page.request.post(`${T}/organizations`, {
      headers: CSRF,
      data: {
        name: `PLZ Prüfung ${Date.now().toString(36)}`,
        street: 'Ringstraße',
        houseNumber: '7',
        zipCode: '04109',
        city: 'Leipzig',
        country: 'Deutschland',
        customFields: { registrationNumber: 'HRB 5150' },
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()).organization;

    await page.goto(`/u/0/admin/organizations/${id}`);
    const zip = page.getByRole('textbox', { name: 'Postleitzahl', exact: true });
    const country = page.getByRole('textbox', { name: 'Land', exact: true });
    const save = page.getByRole('button', { name: 'Speichern', exact: true });
    await expect(zip).toHaveValue('04109');

    // The form's own check, before sending.
    await zip.fill('ABCDE');
    await save.click();
    await expect(page.getByText(MISFIT)).toBeVisible();
    await expect(zip).toHaveAttribute('aria-invalid', 'true');

    // A Polish address passes the form; on its way the postcode loses its hyphen, so that the
    // service itself refuses it: the same words at the same field.
    await page.route(`**${T}/organizations/${id}`, async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      const body = route.request().postDataJSON() as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...body, zipCode: '00950' }) });
    });
    await country.fill('Polska');
    await zip.fill('00-950');
    // The form passes it (its message goes with the save); the service's answer brings it back.
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/${id}`)),
      save.click(),
    ]);
    expect(refused.status()).toBe(400);
    expect((await refused.json()).issues).toEqual([{ path: 'zipCode', code: 'invalid_zip' }]);
    await expect(page.getByText(MISFIT)).toBeVisible();
    await expect(zip).toHaveValue('00-950');
    const kept = await page.request.get(`${T}/organizations/${id}`);
    expect((await kept.json()).organization).toMatchObject({
      zipCode: '04109',
      country: 'Deutschland',
    });

    // Unchanged on its way, it is saved.
    await page.unrouteAll();
    await save.click();
    await expect(page.getByText(MISFIT)).toHaveCount(0);
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`${T}/organizations/${id}`)).json()).organization.zipCode,
      )
      .toBe('00-950');
  });
});
