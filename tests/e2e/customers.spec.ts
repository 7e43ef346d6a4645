import type { Page } from '@playwright/test';
import { colleague, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// Seeded customers no other spec touches (server/sandbox/seed-accounts.ts is deterministic): one
// per test, so that the tests do not depend on each other's saves.
const EDITED = { search: 'clara.schaefer4@', name: 'Clara Schäfer' };
const CONFLICTED = { search: 'ursula.schulz10@', name: 'Dr. med. Ursula Schulz' };
const VIEWED = { search: 'info6@kornblume', name: 'Kornblume Gartenbau e.K.' };

const customerTable = (page: Page) => page.getByRole('table', { name: 'Customers' });

async function openCustomer(page: Page, customer: { search: string; name: string }) {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Customers' }).click();
  await expect(page).toHaveURL(/\/u\/0\/customers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(customer.search);
  await expect(customerTable(page).getByRole('row')).toHaveCount(2);
  await customerTable(page).getByRole('link', { name: customer.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
}

test.describe('customers', () => {
  test('customer care searches, filters, sorts, opens a customer and edits it', async ({
    page,
  }) => {
    // Several screens and axe runs: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    await signIn(page, 'care@demo.test');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Customers' }).click();
    await expect(customerTable(page).getByRole('row').nth(1)).toBeVisible();

    // Organisations only, sorted by name.
    await page.getByLabel('Kind').selectOption('org');
    await expect(
      customerTable(page).getByRole('cell', { name: 'Person', exact: true }),
    ).toHaveCount(0);
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(customerTable(page).getByRole('link').first()).toHaveText(/^Alpenblick/);
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Kind').selectOption('');

    await page.getByRole('searchbox', { name: 'Search customers' }).fill('nothing-like-this');
    await expect(page.getByText('No customers match the search.')).toBeVisible();

    await openCustomer(page, EDITED);
    await expect(page).toHaveTitle(new RegExp(`^${EDITED.name} \\|`));

    // Tabs live in the hash; the policies tab lists this customer's policies (every seeded
    // customer has some), without the holder column.
    await page.getByRole('tab', { name: 'Policies' }).click();
    await expect(page).toHaveURL(/#tab=policies$/);
    const policies = page.getByRole('table', { name: `Policies of ${EDITED.name}` });
    await expect(policies.getByRole('link', { name: /^POL-\d{6}$/ }).first()).toBeVisible();
    await expect(policies.getByRole('columnheader', { name: 'Holder' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Data' }).click();
    // The audit line names a person, never the raw user code upstream stores.
    await expect(page.getByTestId('customer-version')).not.toContainText('usr_');

    const phone = page.getByRole('textbox', { name: 'Phone' });
    await phone.fill('12');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Enter a valid phone number.')).toBeVisible();
    await expect(phone).toHaveAttribute('aria-invalid', 'true');
    await phone.fill('030 1234567');

    // The broker comes from the partner selector: brokers only, by name, 10 at a time.
    const broker = page.getByRole('combobox', { name: 'Assigned broker' });
    const firstPage = page.waitForResponse((r) => r.url().includes('/partnerservice/v1/partners?'));
    await broker.click();
    const request = new URL((await firstPage).url());
    expect(Object.fromEntries(request.searchParams)).toMatchObject({
      pageSize: '10',
      filter: 'tagSlugs=broker',
      order: 'displayName:ASC',
    });
    const options = page.getByRole('listbox');
    await expect(options.getByRole('option')).toHaveCount(10);
    const more = options.getByRole('button', { name: 'Load more partners' });
    await more.click();
    // At least the second page (the list may also have scrolled to its end and loaded the third).
    await expect.poll(() => options.getByRole('option').count()).toBeGreaterThanOrEqual(20);
    // Scrolling to the end loads the rest.
    await options.evaluate((list) => list.scrollTo(0, list.scrollHeight));
    await expect.poll(() => options.getByRole('option').count()).toBeGreaterThan(20);
    await options.getByRole('option').nth(12).click();
    const chosen = await broker.inputValue();
    expect(chosen).not.toBe('');

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Customer saved.')).toBeVisible();
    await expect(page.getByTestId('customer-version')).toContainText('Version 2');
    // Saved by this user: their name, also after a reload of the tab.
    await expect(page.getByTestId('customer-version')).toContainText('by Clara Care');

    await page.reload();
    await expect(page.getByTestId('customer-version')).toContainText('by Clara Care');
    await expect(page.getByRole('textbox', { name: 'Phone' })).toHaveValue('+49301234567');
    await expect(page.getByRole('combobox', { name: 'Assigned broker' })).toHaveValue(chosen);
    await expectNoSeriousA11yViolations(page);
  });

  test('a save over a newer version shows what changed and can be made knowingly', async ({
    page,
    browser,
  }) => {
    // Several screens and axe runs: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    await signIn(page, 'care@demo.test');
    await openCustomer(page, CONFLICTED);
    const url = page.url();

    // A colleague saves the same customer while this form is open.
    const other = await colleague(browser, 'admin@demo.test');
    try {
      await other.page.goto(url);
      await other.page.getByRole('textbox', { name: 'City' }).fill('Lübeck');
      await other.page.getByRole('button', { name: 'Save' }).click();
      await expect(other.page.getByText('Customer saved.')).toBeVisible();
    } finally {
      await other.close();
    }

    await page.getByRole('textbox', { name: 'Street' }).fill('Holstenstraße');
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'Somebody else changed this customer' });
    await expect(alert).toBeVisible();
    await expect(alert).toBeFocused();
    const row = page.getByTestId('conflict-city');
    await expect(row.getByRole('cell')).toHaveText(['Lübeck', 'Kiel']);
    // Nothing typed is lost.
    await expect(page.getByRole('textbox', { name: 'Street' })).toHaveValue('Holstenstraße');
    await expectNoSeriousA11yViolations(page);

    // Only this user's own change goes on top of the colleague's version: their city stays.
    await page.getByRole('button', { name: 'Save my input over it' }).click();
    await expect(page.getByText('Customer saved.')).toBeVisible();
    await expect(alert).toBeHidden();
    await expect(page.getByTestId('customer-version')).toContainText('Version 3');
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'City' })).toHaveValue('Lübeck');
    await expect(page.getByRole('textbox', { name: 'Street' })).toHaveValue('Holstenstraße');
  });

  test('a read-only user sees customers and partners but cannot change them', async ({ page }) => {
    // Several screens and axe runs: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    await signIn(page, 'viewer@demo.test');
    await openCustomer(page, VIEWED);
    await expect(page.getByTestId('read-only-note')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await expect(page.getByRole('textbox')).toHaveCount(0);
    await expect(page.getByText('Duisburg')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Partners' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Partners' })).toBeVisible();
    const partners = page.getByRole('table', { name: 'Partners' });
    await expect(partners.getByRole('row').nth(1)).toBeVisible();
    await page.getByLabel('Tag').selectOption({ label: 'Gutachter' });
    await expect(partners.getByRole('row').nth(1)).toContainText('Gutachter');
    await expectNoSeriousA11yViolations(page);

    // A partner opens on its own page, with its number, type and tags.
    const first = partners.getByRole('row').nth(1).getByRole('link');
    const name = (await first.textContent()) ?? '';
    await first.click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: /Gutachter/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.goto('/u/0/partners/ptn_doesnotexist');
    await expect(page.getByText('Partner does not exist.')).toBeVisible();
  });

  test('customer care creates a new customer and lands on it', async ({ page }) => {
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    await signIn(page, 'care@demo.test');
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Customers' })
      .click();
    await page.getByRole('link', { name: 'New customer' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New customer' })).toBeVisible();
    // Nothing filled in: the form names what is missing and sends nothing.
    await page.getByRole('button', { name: 'Create customer' }).click();
    await expect(page.getByRole('textbox', { name: 'Last name' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await page.getByRole('textbox', { name: 'First name' }).fill('Greta');
    await page.getByRole('textbox', { name: 'Last name' }).fill(`Neumann ${stamp}`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill(`greta.${stamp}@example.test`);
    await page.getByRole('textbox', { name: 'Street' }).fill('Domstraße');
    await page.getByRole('textbox', { name: 'House number' }).fill('5');
    await page.getByRole('textbox', { name: 'Postcode' }).fill('50668');
    await page.getByRole('textbox', { name: 'City' }).fill('Köln');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Create customer' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: `Greta Neumann ${stamp}` }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/u\/0\/customers\/acc_[0-9a-f]+$/);
    await expect(page.getByTestId('customer-version')).toContainText('Version 1');
  });

  test("a customer's documents list their claims' files, narrow by time and download", async ({
    page,
  }) => {
    await signIn(page, 'viewer@demo.test');
    // A seeded claim with documents names its customer (claims with an index of 1, 2, 3 mod 4).
    // The largest page: past the claims other specs create (newest first) to seeded ones.
    const claims = await page.request.get('/api/0/claimservice/v1/claims?pageSize=50');
    expect(claims.ok()).toBe(true);
    const items = (await claims.json()).items as { id: number; accountCode: string }[];
    let accountCode = '';
    let filename = '';
    for (const claim of items) {
      const filter = `entityType=ClaimDocument&entityId=${claim.id}`;
      const docs = await page.request.get(
        `/api/0/documentservice/v1/documents?${new URLSearchParams({ filter })}`,
      );
      // A seeded file (older than today): other specs upload to seeded claims too.
      const today = new Date().toISOString().slice(0, 10);
      const found = ((await docs.json()).items as { filename: string; createdAt: string }[]).filter(
        (d) => d.createdAt.slice(0, 10) < today,
      );
      if (found.length) {
        accountCode = claim.accountCode;
        filename = found[0]!.filename;
        break;
      }
    }
    expect(filename).not.toBe('');

    await page.goto(`/u/0/customers/${accountCode}#tab=documents`);
    const table = page.getByRole('table', { name: /^Documents of / });
    const download = table.getByRole('button', { name: `Download ${filename}` });
    await expect(download).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe(filename);

    // Today: the seeded files are older, so they leave the list (files other specs uploaded to
    // this customer's claims today may stay).
    await page.getByRole('button', { name: /All dates/ }).click();
    await page.getByRole('radio', { name: 'Today' }).check();
    await page.getByRole('button', { name: 'Apply' }).first().click();
    await expect(page.getByRole('button', { name: `Download ${filename}` })).toHaveCount(0);
  });
});
