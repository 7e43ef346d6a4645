import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';

// Issue 15, point 15, as a German clerk sees it: the policies list says how many policies the
// filter holds, sorts by a column clicked or chosen with the keyboard, and keeps the sort in the
// address, so that a reload (and a link) shows the same order.

const INSURANCE = '/api/0/insuranceservice/v1';

async function chooseGerman(page: Page) {
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
}

interface RowsPage {
  items: { policyNumber: string; premium: { grandTotal: number } | null }[];
  totalItems: number;
}

const premiumHeader = (page: Page) =>
  page
    .getByRole('table', { name: 'Verträge', exact: true })
    .getByRole('columnheader', { name: /Aktuelle Prämie/ });

test('policies: total in German, sorted by premium by click and by keyboard, kept over a reload', async ({
  page,
}) => {
  await signIn(page, 'viewer@demo.test');
  await chooseGerman(page);
  const count = async (query: string) => {
    const answer = await page.request.get(`${INSURANCE}/policies?${query}pageSize=1&view=row`);
    return ((await answer.json()) as RowsPage).totalItems;
  };
  const all = await count('');
  expect(all).toBeGreaterThan(999); // German groups thousands: "1.234"
  const german = (n: number) => `${new Intl.NumberFormat('de').format(n)} Verträge`;
  await page.goto('/u/0/policies');
  await expect(page.getByTestId('table-total')).toHaveText(german(all));
  expect(german(all)).toMatch(/^\d{1,3}(\.\d{3})+ Verträge$/);

  const totalItems = await count('filter=status%3DTERMINATED&');
  expect(totalItems).toBeLessThan(all);
  await page.goto('/u/0/policies?status=TERMINATED');
  await expect(page.getByRole('heading', { level: 1, name: 'Verträge' })).toBeVisible();
  await expect(page.getByTestId('table-total')).toHaveText(german(totalItems));

  // A click sorts ascending: the header says so, the service is asked for it, the address keeps it.
  const ascending = page.waitForResponse(
    (res) => res.url().includes('/policies?') && res.url().includes('order=premium%3AASC'),
  );
  await premiumHeader(page).getByRole('button').click();
  const asc = (await (await ascending).json()) as RowsPage;
  await expect(premiumHeader(page)).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/[?&]sort=premium%3Aasc(&|$)/);
  const ascTotals = asc.items.map((p) => p.premium?.grandTotal ?? -1);
  expect(ascTotals).toEqual([...ascTotals].sort((a, b) => a - b));
  const firstRow = page.getByRole('table', { name: 'Verträge', exact: true }).getByRole('row');
  await expect(firstRow.nth(1)).toContainText(asc.items[0]!.policyNumber);
  // The total stays the filter's, whatever the order.
  await expect(page.getByTestId('table-total')).toHaveText(german(totalItems));

  // The keyboard: the header's button takes the focus and Enter turns the order around.
  const descending = page.waitForResponse(
    (res) => res.url().includes('/policies?') && res.url().includes('order=premium%3ADESC'),
  );
  await premiumHeader(page).getByRole('button').focus();
  await page.keyboard.press('Enter');
  const desc = (await (await descending).json()) as RowsPage;
  await expect(premiumHeader(page)).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/[?&]sort=premium%3Adesc(&|$)/);
  const descTotals = desc.items.map((p) => p.premium?.grandTotal ?? -1);
  expect(descTotals).toEqual([...descTotals].sort((a, b) => b - a));
  expect(descTotals[0]).toBeGreaterThan(ascTotals[0]!);
  await expect(firstRow.nth(1)).toContainText(desc.items[0]!.policyNumber);
  // The order select says what decides: the sorted column, not an age order.
  const order = page.getByRole('combobox', { name: 'Reihenfolge' });
  await expect(order).toHaveValue('column:premium:desc');
  await expect(order.locator('option:checked')).toHaveText('Aktuelle Prämie, absteigend');

  // A reload reads the order from the address.
  await page.reload();
  await expect(premiumHeader(page)).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/status=TERMINATED/);
  await expect(firstRow.nth(1)).toContainText(desc.items[0]!.policyNumber);

  // Space (the other key of a button) goes on to "not sorted": the address forgets the sort.
  await premiumHeader(page).getByRole('button').focus();
  await page.keyboard.press('Space');
  await expect(premiumHeader(page)).toHaveAttribute('aria-sort', 'none');
  await expect(page).not.toHaveURL(/sort=/);
});

// Issue 15, point 15 (hand walk): the order select above the list and the column headers are two
// controls over one order, and they agree whichever is used.
test('policies: the order select and the column headers agree, in German', async ({ page }) => {
  await signIn(page, 'viewer@demo.test');
  await chooseGerman(page);
  await page.goto('/u/0/policies');
  const table = page.getByRole('table', { name: 'Verträge', exact: true });
  const holder = table.getByRole('columnheader', { name: /nehmer/ });
  const start = table.getByRole('columnheader', { name: /^Beginn/ });
  const order = page.getByRole('combobox', { name: 'Reihenfolge' });
  const chosen = order.locator('option:checked');
  await expect(chosen).toHaveText('Neueste zuerst');

  // A click on the holder's header: the select shows the column's order.
  await holder.getByRole('button').click();
  await expect(holder).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/[?&]sort=holder%3Aasc(&|$)/);
  await expect(chosen).toHaveText('Versicherungsnehmer, aufsteigend');
  await expect(chosen).not.toHaveText('Neueste zuerst');

  // A column chosen in the select: its header says so, the holder's no longer, the service sorts.
  const byStart = page.waitForResponse(
    (res) => res.url().includes('/policies?') && res.url().includes('order=policyStartDate%3ADESC'),
  );
  await order.selectOption({ label: 'Beginn, absteigend' });
  await byStart;
  await expect(start).toHaveAttribute('aria-sort', 'descending');
  await expect(holder).toHaveAttribute('aria-sort', 'none');
  await expect(page).toHaveURL(/[?&]sort=start%3Adesc(&|$)/);

  // An age order chosen in the select ends the column sort.
  await order.selectOption({ label: 'Älteste zuerst' });
  await expect(start).toHaveAttribute('aria-sort', 'none');
  await expect(page).not.toHaveURL(/sort=/);
  await expect(page).toHaveURL(/[?&]order=oldest(&|$)/);
  await expect(chosen).toHaveText('Älteste zuerst');

  // And a reload keeps the two in step.
  await holder.getByRole('button').click();
  await expect(chosen).toHaveText('Versicherungsnehmer, aufsteigend');
  await page.reload();
  await expect(holder).toHaveAttribute('aria-sort', 'ascending');
  await expect(chosen).toHaveText('Versicherungsnehmer, aufsteigend');
});

// The other lists sort the same way: the claims by their holder with the keyboard, the customers
// by e-mail with a click; the service pages by keyset, and the page token goes back whole.

test('claims: sorted by holder with the keyboard, in German, kept in the address', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  await chooseGerman(page);
  await page.goto('/u/0/claims?type=theft');
  const table = page.getByRole('table', { name: 'Schäden', exact: true });
  const holder = table.getByRole('columnheader', { name: /nehmer/ });
  await expect(holder).toHaveAttribute('aria-sort', 'none');
  const total = await page.getByTestId('table-total').textContent();
  expect(total).toMatch(/^\d[\d.]* Schäden$/);

  const ascending = page.waitForResponse(
    (res) => res.url().includes('/claims?') && res.url().includes('order=holder%3AASC'),
  );
  await holder.getByRole('button').focus();
  await page.keyboard.press('Enter');
  const asc = (await (await ascending).json()) as { nextPageToken: string | null };
  await expect(holder).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/[?&]sort=holder%3Aasc(&|$)/);
  await expect(page).toHaveURL(/type=theft/);
  // The total stays the filter's, whatever the order.
  await expect(page.getByTestId('table-total')).toHaveText(total!);
  expect(asc.nextPageToken).toMatch(/^2\.\d+\.a\.t\d+\.holder\./);

  await page.reload();
  await expect(holder).toHaveAttribute('aria-sort', 'ascending');
});

test('customers: sorted by e-mail with a click, in German, kept over a reload', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  await chooseGerman(page);
  await page.goto('/u/0/customers');
  const table = page.getByRole('table', { name: 'Kunden', exact: true });
  const email = table.getByRole('columnheader', { name: /E-Mail/ });
  const descending = page.waitForResponse(
    (res) => res.url().includes('/accounts?') && res.url().includes('order=email%3ADESC'),
  );
  await email.getByRole('button').click();
  await expect(email).toHaveAttribute('aria-sort', 'ascending');
  await email.getByRole('button').click();
  const desc = (await (await descending).json()) as { items: { email: string }[] };
  await expect(email).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/[?&]sort=email%3Adesc(&|$)/);
  await expect(table.getByRole('row').nth(1)).toContainText(desc.items[0]!.email);
  await page.reload();
  await expect(email).toHaveAttribute('aria-sort', 'descending');
  await expect(table.getByRole('row').nth(1)).toContainText(desc.items[0]!.email);
});
