import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

/**
 * The tenant's activity log (issue 16) in German: an administrator changes a role's description
 * in the role editor, and the "Aktivitätsprotokoll" tab of the settings shows the change with the
 * administrator's name and the description before and after; the filters are kept in the address
 * and the export writes the filtered log.
 */
const ADMIN = 'admin@demo.test';
const ADMIN_NAME = 'Ada Admin';
const CSRF = { 'X-CSRF': '1' };

async function german(page: Page) {
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
}

test.describe('Aktivitätsprotokoll', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a role changed in German appears in the log with my name, filtered and exported', async ({
    page,
  }) => {
    await signIn(page, ADMIN);
    const code = `protokoll-${Date.now().toString(36)}`;
    const created = await page.request.post('/api/0/tenantservice/v1/roles', {
      headers: CSRF,
      data: {
        code,
        label: `Prüfer ${code}`,
        description: 'Liest Policen',
        permissions: ['policy-management.policies.view'],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { role } = await created.json();

    await page.goto(`/u/0/admin/roles/${role.id}`);
    await german(page);
    await page.getByLabel('Beschreibung', { exact: true }).fill('Liest Policen und Schäden');
    await page.getByRole('button', { name: 'Rolle speichern' }).click();
    await expect(page.getByText(`Die Rolle Prüfer ${code} wurde gespeichert.`)).toBeVisible();

    await page.goto('/u/0/settings#tab=activity-log');
    await expect(
      page.getByRole('heading', { level: 2, name: 'Aktivitätsprotokoll' }),
    ).toBeVisible();
    await page.getByLabel('Art', { exact: true }).selectOption({ label: 'Rolle' });
    await page.getByRole('searchbox', { name: 'Suche' }).fill(code);
    // The filters are in the address: a reload shows the same entries.
    await expect(page).toHaveURL(/entityType=role/);
    await expect(page).toHaveURL(new RegExp(`search=${code}`));
    const entries = page.getByTestId('activity-entry');
    await expect(entries).toHaveCount(2);
    const change = entries.first();
    await expect(change).toContainText(ADMIN_NAME);
    await expect(change).toContainText(`Prüfer ${code}`);
    await expect(change).toContainText('Geändert');
    const description = change.getByRole('row', { name: /description/ });
    await expect(description).toContainText('Liest Policen');
    await expect(description).toContainText('Liest Policen und Schäden');
    await expect(entries.nth(1)).toContainText('Angelegt');
    await expectNoSeriousA11yViolations(page);

    await page.reload();
    await expect(page.getByTestId('activity-entry')).toHaveCount(2);

    // Another actor finds nothing.
    await page.getByRole('searchbox', { name: 'Geändert von' }).fill('niemand');
    await expect(page.getByTestId('activity-empty')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Geändert von' }).fill('');
    await expect(page.getByTestId('activity-entry')).toHaveCount(2);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Als CSV exportieren' }).click();
    const file = await download;
    const csv = await (await file.createReadStream()).toArray();
    const text = Buffer.concat(csv).toString('utf8');
    const lines = text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('Zeitpunkt;Geändert von;Art;Datensatz;Aktion;Änderungen');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`;${ADMIN_NAME};Rolle;Prüfer ${code};Geändert;`);
    expect(lines[1]).toContain('Liest Policen und Schäden');
  });
});
