import type { Page } from '@playwright/test';
import { composeIban } from '#common/leads.ts';
import { apiAs, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

/**
 * A customer-care handler adds a SEPA direct debit to a customer in German and sets it as the
 * payment method of one of the customer's policies (issue 18): the IBAN is checked in the form,
 * shown masked afterwards, and the policy shows its new method.
 *
 * A demo user no other e2e spec signs in with; the IBAN is new on every run, so a rerun on the
 * same data adds a method of its own.
 */
const HANDLER = 'finn.fuchs27@demo.test';

async function german(page: Page) {
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
}

test.describe('payment methods', () => {
  // Two pages, a dialog and an axe run: more than the default on a busy two-core machine.
  test.describe.configure({ timeout: 90_000 });

  test('adds a SEPA method to a customer and sets it on a policy, in German', async ({
    page,
    baseURL,
  }) => {
    const api = await apiAs(baseURL!, HANDLER);
    const policies = await api.get('/api/0/insuranceservice/v1/policies?pageSize=30');
    expect(policies.ok()).toBe(true);
    const policy = ((await policies.json()).items as { code: string; accountCode: string }[]).find(
      (p) => p.accountCode,
    )!;
    await api.dispose();
    const bban = `37040044${String(Date.now()).slice(-10)}`;
    const iban = composeIban('DE', bban);
    const masked = `DE•• •••• •••• •••• ••${iban.slice(-4, -2)} ${iban.slice(-2)}`;

    await signIn(page, HANDLER);
    await german(page);
    await page.goto(`/u/0/customers/${policy.accountCode}#tab=payment-methods`);
    await page.getByRole('tab', { name: 'Zahlungsarten' }).click();
    await page.getByRole('button', { name: 'Zahlungsart hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Zahlungsart hinzufügen' });
    await expect(dialog.getByRole('combobox', { name: 'Art' })).toHaveValue('sepa');

    // A mistyped IBAN is caught at its field, in German, and what was typed stays.
    await dialog.getByRole('textbox', { name: 'IBAN' }).fill(`${iban.slice(0, -1)}9`);
    await dialog.getByRole('textbox', { name: 'Kontoinhaber' }).fill('Erika Mustermann');
    await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(
      dialog.getByText('Diese IBAN ist ungültig: Prüfen Sie Länge und Prüfziffern.'),
    ).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'IBAN' })).toBeFocused();
    await expectNoSeriousA11yViolations(page);

    await dialog.getByRole('textbox', { name: 'IBAN' }).fill(iban.replace(/(.{4})/g, '$1 '));
    await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Die Zahlungsart wurde hinzugefügt.')).toBeVisible();
    const methods = page.getByRole('table', { name: /^Zahlungsarten von / });
    await expect(methods.getByRole('rowheader', { name: new RegExp(masked) })).toBeVisible();
    await expect(methods).toContainText('Commerzbank Köln');
    await expect(page.getByRole('table', { name: /^Bankkonten von / })).toContainText(masked);
    await expect(page.getByText(iban)).toHaveCount(0);

    // A bank account on its own (a refund account), without a mandate; a bad BIC is refused first.
    const refundIban = composeIban('DE', `37040044${String(Date.now() + 7).slice(-10)}`);
    await page.getByRole('button', { name: 'Bankverbindung hinzufügen' }).click();
    const bankDialog = page.getByRole('dialog', { name: 'Bankverbindung hinzufügen' });
    await bankDialog.getByRole('textbox', { name: 'IBAN' }).fill(refundIban);
    await bankDialog.getByRole('textbox', { name: 'BIC' }).fill('XYZ');
    await bankDialog.getByRole('textbox', { name: 'Kontoinhaber' }).fill('Erika Mustermann');
    await bankDialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(bankDialog.getByText('Diese BIC ist ungültig (8 oder 11 Zeichen).')).toBeVisible();
    await bankDialog.getByRole('textbox', { name: 'BIC' }).fill('');
    await bankDialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(bankDialog).toBeHidden();
    await expect(page.getByText('Die Bankverbindung wurde hinzugefügt.')).toBeVisible();
    await expect(page.getByRole('table', { name: /^Bankkonten von / })).toContainText(
      refundIban.slice(-2),
    );

    // The policy pays with it from now on.
    await page.goto(`/u/0/policies/${policy.code}`);
    const section = page.getByRole('region', { name: 'Zahlungsart' });
    const choice = section.getByRole('combobox', { name: 'Zahlungsart dieser Police' });
    await expect(choice).toBeEnabled();
    await choice.selectOption({ label: `SEPA-Lastschrift ${masked} Commerzbank Köln` });
    await section.getByRole('button', { name: 'Zahlungsart festlegen' }).click();
    await expect(page.getByText('Die Zahlungsart der Police wurde geändert.')).toBeVisible();
    await expect(section.getByTestId('policy-payment-method')).toContainText(
      `SEPA-Lastschrift ${masked}`,
    );
    await expectNoSeriousA11yViolations(page);
  });
});
