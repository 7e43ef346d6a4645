import { apiAs, expect, signIn, test } from './fixtures.ts';

/**
 * Custom-field labels in the reader's language (issue 15 point 16, issue 16), and the claims list
 * at the width it was tried at (issue 15, a defect seen by hand). Nothing here changes data.
 */
const CLAIMS = '/api/0/claimservice/v1';

test.describe('custom fields and the claims list in German and Polish', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a claim shows its custom fields in German, then in Polish after one language switch', async ({
    page,
    baseURL,
  }) => {
    const api = await apiAs(baseURL!, 'admin@demo.test');
    const claims = await api.get(`${CLAIMS}/claims?pageSize=1&order=createdAt:ASC`);
    const [claim] = (await claims.json()).items as { code: string }[];

    await signIn(page, 'admin@demo.test');
    await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
    await page.goto(`/u/0/claims/${claim!.code}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    // The admin may edit the claim: its data tab is the form, custom fields under their own group.
    const fields = page.getByRole('group', { name: 'Weitere Angaben' });
    await expect(fields.getByRole('textbox', { name: 'Schadenort' })).toBeVisible();
    await expect(fields.getByRole('textbox', { name: 'Aktenzeichen der Polizei' })).toBeVisible();
    await expect(fields.getByRole('textbox', { name: 'Geschätzter Schaden (EUR)' })).toBeVisible();
    // The untranslated label is not shown beside the German one.
    await expect(page.getByText('Damage location')).toHaveCount(0);

    await page.getByRole('button', { name: 'Sprache: Deutsch' }).click();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('menuitem', { name: 'Polski' }).click(),
    ]);
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
    await expect(page.getByRole('textbox', { name: 'Miejsce szkody' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Szacowana szkoda (EUR)' })).toBeVisible();
    await expect(page.getByText('Schadenort')).toHaveCount(0);

    // The admin sees and edits the translations where the fields are defined.
    await page.goto('/u/0/settings#tab=custom-fields');
    await page.getByRole('combobox', { name: 'Encja' }).selectOption('claim');
    await expect(page.getByRole('textbox', { name: 'Etykieta po polsku' }).first()).toHaveValue(
      'Miejsce szkody',
    );
    await expect(page.getByRole('textbox', { name: 'Etykieta po niemiecku' }).first()).toHaveValue(
      'Schadenort',
    );
  });

  test('at 1366 px the German claims list shows the created date and time in full', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, 'admin@demo.test');
    await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
    await page.goto('/u/0/claims');
    const table = page.getByRole('table', { name: 'Schäden' });
    const created = table.getByRole('row').nth(1).getByRole('cell').last();
    // DD.MM.YYYY HH:mm:ss: the demo tenant's display.
    await expect(created).toHaveText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    // Not cut off: the text fits its cell, no ellipsis.
    expect(await created.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  });
});
