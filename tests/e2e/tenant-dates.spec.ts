import type { Page } from '@playwright/test';
import { dateDisplayOf, formatDay, formatInstant } from '#common/date-display.ts';
import { colleague, expect, signIn, test } from './fixtures.ts';

/**
 * Issue 16, defect 4: the date display an administrator saves in the general settings is what
 * every user of the tenant sees. It changes the demo tenant's display (the only one with
 * policies and claims) and puts the seeded default back, through the screen, at the end.
 */

const GENERAL = '/api/0/tenantservice/v1/general';
const SEEDED = { format_dates: 'DD.MM.YYYY', format_hours: 'hh:mm:ss', time_zone: 'Europe/Berlin' };
// A seeded policy with a start date, and the first seeded claim (read-only here).
const POLICY = 'POL-000124';

async function saveGeneral(page: Page, values: typeof SEEDED) {
  await page.goto('/u/0/settings');
  const general = page.getByRole('form', { name: 'General settings' });
  await expect(general.getByLabel('Date format')).toBeEnabled();
  await general.getByLabel('Date format').selectOption(values.format_dates);
  await general.getByLabel('Time format').selectOption(values.format_hours);
  await general.getByLabel('Time zone').selectOption(values.time_zone);
  await general.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The settings were saved.').last()).toBeVisible();
}

test('the date format and time zone an admin saves are every user’s; the default comes back', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'admin@demo.test');
  const chosen = {
    format_dates: 'YYYY-MM-DD',
    format_hours: 'hh:mm A',
    time_zone: 'America/New_York',
  };
  try {
    await saveGeneral(page, chosen);
    const display = dateDisplayOf(chosen);

    // Another user of the tenant, signed in afterwards.
    const care = await colleague(browser, 'care@demo.test');
    try {
      const answer = care.page.waitForResponse(
        (res) => res.url().includes('/policies?') && res.url().includes(`search=${POLICY}`),
      );
      await care.page.goto(`/u/0/policies?q=${POLICY}`);
      const { items } = (await (await answer).json()) as {
        items: { policyStartDate: string; createdAt: string }[];
      };
      const policy = items[0]!;
      const start = formatDay(display, policy.policyStartDate, { utcDay: true });
      expect(start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const row = care.page
        .getByRole('table', { name: 'Policies', exact: true })
        .getByRole('row')
        .nth(1);
      await expect(row).toContainText(POLICY);
      await expect(row).toContainText(start);

      // A claim's detail: the time of its last change in the tenant's zone and 12-hour clock.
      const claims = await care.page.request.get(
        '/api/0/claimservice/v1/claims?pageSize=1&order=claimNumber:ASC',
      );
      const [claim] = ((await claims.json()) as { items: { code: string; updatedAt: string }[] })
        .items;
      const at = formatInstant(display, claim!.updatedAt);
      expect(at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} [AP]M$/);
      await care.page.goto(`/u/0/claims/${claim!.code}`);
      await expect(care.page.getByTestId('claim-version')).toContainText(at);
    } finally {
      await care.close();
    }

    // The seeded default is offered again and saved back.
    await saveGeneral(page, SEEDED);
    const care2 = await colleague(browser, 'care@demo.test');
    try {
      const claims = await care2.page.request.get(
        '/api/0/claimservice/v1/claims?pageSize=1&order=claimNumber:ASC',
      );
      const [claim] = ((await claims.json()) as { items: { code: string; updatedAt: string }[] })
        .items;
      await care2.page.goto(`/u/0/claims/${claim!.code}`);
      const at = formatInstant(dateDisplayOf(SEEDED), claim!.updatedAt);
      expect(at).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
      await expect(care2.page.getByTestId('claim-version')).toContainText(at);
    } finally {
      await care2.close();
    }
  } finally {
    // Whatever failed, the next spec finds the seeded display.
    const current = (await (await page.request.get(GENERAL)).json()) as {
      general: Record<string, unknown>;
    };
    const { updatedAt: _at, updatedBy: _by, ...fields } = current.general;
    if (fields.format_dates !== SEEDED.format_dates || fields.time_zone !== SEEDED.time_zone) {
      await page.request.put(GENERAL, {
        headers: { 'X-CSRF': '1' },
        data: { ...fields, ...SEEDED },
      });
    }
  }
});
