import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { createHomePolicy, isoDay } from './policy-setup.ts';

const CLAIMS = '/api/0/claimservice/v1';
const CSRF = { 'X-CSRF': '1' };
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

test.describe('reversing a booked payment', () => {
  test('po polsku: administrator stornuje zaksięgowaną wypłatę z powodem; kwota zostaje, suma wypłat spada do zera, a ponowne storno nie jest już oferowane', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // The administrator books up to 50 000 € and holds the reversal permission.
    await signIn(page, 'admin@demo.test');
    await page.evaluate(() => localStorage.setItem('bo.language', 'pl'));
    await page.addInitScript(() => localStorage.setItem('bo.language', 'pl'));
    const policy = await createHomePolicy(page, {
      firstName: 'Piotr',
      lastName: `Storno ${stamp()}`,
    });
    const created = await page.request.post(`${CLAIMS}/claims`, {
      headers: CSRF,
      data: {
        policyCode: policy.code,
        title: `Zalanie ${stamp()}`,
        claimType: 'damage',
        damageDate: isoDay(-3),
        customFields: { damageLocation: 'Piwnica' },
      },
    });
    expect(created.status()).toBe(201);
    let claim = (await created.json()).claim;
    for (const status of ['in-review', 'approved']) {
      const moved = await page.request.patch(`${CLAIMS}/claims/${claim.code}`, {
        headers: CSRF,
        data: { version: claim.version, status },
      });
      expect(moved.status()).toBe(200);
      claim = (await moved.json()).claim;
    }
    const booked = await page.request.post(`${CLAIMS}/settlements`, {
      headers: CSRF,
      data: {
        claimCode: claim.code,
        insuredObject: 'household',
        reserve: 500_000,
        payment: 250_000,
        recourse: 0,
      },
    });
    expect(booked.status()).toBe(201);
    const settlement = (await booked.json()).settlement;

    await page.goto(`/u/0/claims/${claim.code}#tab=settlements`);
    await expect(page.getByTestId('claim-paid')).toHaveText(/2500,00\s€|2\s500,00\s€/);
    await page.getByRole('button', { name: /^Stornuj wypłatę dla / }).click();
    let dialog = page.getByRole('dialog', { name: 'Stornować zaksięgowaną wypłatę?' });
    await expect(dialog).toContainText(/zapis przeciwny na -2\s?500,00\s€/);
    const confirm = dialog.getByRole('button', { name: 'Zaksięguj storno' });
    // The reason is required.
    await confirm.click();
    await expect(dialog.getByText('To pole jest wymagane.')).toBeVisible();

    // Someone changes the settlement meanwhile: the reversal is refused in words, not booked.
    const raised = await page.request.put(`${CLAIMS}/settlements/${settlement.code}`, {
      headers: CSRF,
      data: {
        version: settlement.version,
        insuredObject: 'household',
        reserve: 600_000,
        payment: 250_000,
        recourse: 0,
      },
    });
    expect(raised.status()).toBe(200);
    const reason = `Przelew na złe konto ${stamp()}`;
    await dialog.getByRole('textbox', { name: 'Powód storna' }).fill(reason);
    await confirm.click();
    await expect(dialog.getByText(/Ktoś w międzyczasie zmienił/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Anuluj' }).click();
    await expect(dialog).toBeHidden();

    // Again, on top of the settlement as it is now.
    await page.getByRole('button', { name: /^Stornuj wypłatę dla / }).click();
    dialog = page.getByRole('dialog', { name: 'Stornować zaksięgowaną wypłatę?' });
    await dialog.getByRole('textbox', { name: 'Powód storna' }).fill(reason);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Zaksięguj storno' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Wypłata stornowana.')).toBeVisible();

    // The booked amount stays in its row; the counter-entry, who and why show under it; the
    // claim's paid total counts it, and nothing is left to reverse.
    const note = page.getByTestId('payment-reversal');
    await expect(note).toContainText(/Stornowano -2\s?500,00\s€/);
    await expect(note).toContainText(reason);
    await expect(page.getByTestId('settlements')).toContainText(/2\s?500,00\s€/);
    await expect(page.getByTestId('claim-paid')).toHaveText(/^0,00\s€$/);
    await expect(page.getByRole('button', { name: /^Stornuj wypłatę dla / })).toHaveCount(0);

    // The claim's history names who reversed it, the counter-entry as money and the reason; no
    // user id shows.
    await page.getByRole('tab', { name: 'Historia' }).click();
    const latest = page.getByTestId('history').getByRole('row').nth(0);
    await expect(latest).toContainText('Stornowano wypłatę');
    await expect(latest).toContainText(/Stornowana wypłata: .*→.*2\s?500,00/);
    await expect(latest).toContainText(/Storno \(zapis przeciwny\): .*→.*-2\s?500,00/);
    await expect(latest).toContainText(reason);
    await expect(page.locator('body')).not.toContainText('usr_');
  });
});
