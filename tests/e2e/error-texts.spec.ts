import type { Route } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';
import { createHomePolicy } from './policy-setup.ts';

// Issue 13: the client says a refusal by its error code in the user's language, never by the
// service's English message; the policies table takes premium units from the list itself.

test('a refusal shows its translated text in German, not the English message', async ({ page }) => {
  test.setTimeout(60_000);
  // Customer care writes only to the policy this test creates for itself.
  await signIn(page, 'david.vogel3@demo.test');
  const policy = await createHomePolicy(page, {
    firstName: 'Fehler',
    lastName: `Text ${Date.now()}`,
  });
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.goto(`/u/0/policies/${policy.code}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  const refuse = (route: Route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 422,
          contentType: 'application/json',
          body: JSON.stringify({
            error: 'calculation_failed',
            message: 'division_by_zero at 3 (English, for logs)',
          }),
        })
      : route.fallback();
  await page.route('**/insuranceservice/v1/policies/*/draft', refuse);
  await page.getByRole('button', { name: 'Entwurf anlegen' }).click();
  await page
    .getByRole('dialog', { name: 'Entwurf anlegen' })
    .getByRole('button', { name: 'Entwurf anlegen' })
    .click();
  await expect(page.getByText('Die Berechnung ist für diese Werte fehlgeschlagen.')).toBeVisible();
  await expect(page.getByText(/division_by_zero/)).toHaveCount(0);
});

test('the policies table shows premium units without asking for premium formulas', async ({
  page,
}) => {
  const formulaCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/premium-formulas')) formulaCalls.push(request.url());
  });
  // The admin may read products: the table used to ask for each version's formulas.
  await signIn(page, 'admin@demo.test');
  await page.goto('/u/0/policies');
  const table = page.getByRole('table', { name: 'Policies', exact: true });
  await expect(table.getByRole('row').nth(5)).toBeVisible();
  await expect(table.getByText(/per (year|month|quarter|week|day)|one-time/).first()).toBeVisible();
  expect(formulaCalls).toEqual([]);
});
