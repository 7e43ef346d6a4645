import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';

/**
 * Tenant-defined status names in the user's language (issue 15 point 16). Nordlicht names its
 * claim and lead statuses in German; its seeded statuses carry labels in de, en and pl, so a
 * Polish user reads the Polish labels in the lists, their filters and the details, never the
 * German names. Nordlicht's admin only reads here, so nothing another spec counts changes.
 */
const USER = 'admin@nordlicht.test';

const CLAIM_LABELS_PL = [
  'Otwarta',
  'W weryfikacji',
  'Oczekuje na dokumenty',
  'Uznana',
  'Rozliczona',
  'Odrzucona',
  'Zamknięta',
];
const CLAIM_NAMES_DE =
  /Offen|In Prüfung|Warten auf Unterlagen|Anerkannt|Reguliert|Abgelehnt|Geschlossen/;
const LEAD_LABELS_PL = [
  'Nowy',
  'Po kontakcie',
  'Oferta wysłana',
  'Zaakceptowany',
  'Odrzucony',
  'Przekształcony',
];
const LEAD_NAMES_DE = /Neu|Kontaktiert|Angeboten|Angenommen|Abgelehnt|Umgewandelt/;

async function inPolish(page: Page) {
  await signIn(page, USER);
  await page.evaluate(() => localStorage.setItem('bo.language', 'pl'));
  await page.addInitScript(() => localStorage.setItem('bo.language', 'pl'));
}

test.describe('tenant-defined statuses in Polish', () => {
  test('a claim status shows its Polish label in the list, the filter and the detail', async ({
    page,
  }) => {
    await inPolish(page);
    await page.goto('/u/0/claims');
    const table = page.getByRole('table', { name: 'Szkody' });
    const open = table.getByRole('row').filter({ hasText: 'Otwarta' }).first();
    await expect(open).toBeVisible();
    await expect(table).not.toContainText(CLAIM_NAMES_DE);
    // The status filter offers the same labels.
    for (const label of CLAIM_LABELS_PL) {
      await expect(page.getByRole('checkbox', { name: label, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('checkbox', { name: 'Offen', exact: true })).toHaveCount(0);

    await open.getByRole('link').first().click();
    await expect(page.getByTestId('claim-status')).toHaveText('Otwarta');
  });

  test('a lead status shows its Polish label in the list and the detail', async ({ page }) => {
    await inPolish(page);
    await page.goto('/u/0/leads');
    const table = page.getByRole('table', { name: 'Leady' });
    const first = table.getByRole('row').nth(1);
    await expect(first).toBeVisible();
    await expect(table).not.toContainText(LEAD_NAMES_DE);
    const status = (await first.getByRole('cell').allInnerTexts()).find((text) =>
      LEAD_LABELS_PL.includes(text.trim()),
    );
    expect(status).toBeDefined();

    await first.getByRole('link').first().click();
    await expect(page.getByTestId('lead-status')).toHaveText(status!.trim());
  });
});
