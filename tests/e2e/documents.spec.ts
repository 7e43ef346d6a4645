import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { seededClaimDocument, type SeededClaimDocument } from './document-setup.ts';
import { apiAs, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// A show-only user no other spec signs in with: it reads documents, it changes nothing.
const READER = 'elias.richter@demo.test';
const PRODUCT = 'Kfz-Versicherung Komfort';

const results = (page: Page) => page.getByRole('table', { name: 'Documents found' });

test.describe('document search', () => {
  test('finds documents of a product by owner and words, and downloads one', async ({ page }) => {
    await signIn(page, READER);
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Documents', exact: true })
      .click();
    await expect(page).toHaveURL(/\/u\/0\/documents$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Documents' })).toBeVisible();
    // Spec: a product is required; nothing is searched before one is chosen.
    await expect(page.getByTestId('documents-choose-product')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Owners' })).toBeDisabled();

    const searches: URL[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/searchable-documents?')) searches.push(new URL(r.url()));
    });
    await page.getByRole('combobox', { name: 'Product' }).selectOption({ label: PRODUCT });
    await expect(results(page).getByRole('row').nth(1)).toBeVisible();
    // No owner chosen: every owner ('*').
    expect(searches.at(-1)!.searchParams.get('ownerIds')).toBe('*');
    expect(searches.at(-1)!.searchParams.get('product')).toBe('car-comfort');

    // One owner, picked by typing part of the name.
    const owners = page.getByRole('combobox', { name: 'Owners' });
    await expect(owners).toBeEnabled();
    await owners.click();
    const firstOwner = page.getByRole('listbox').getByRole('option').first();
    const ownerName = (await firstOwner.locator('span').nth(1).textContent())!;
    await owners.fill(ownerName.slice(0, 4));
    await page.getByRole('listbox').getByRole('option', { name: ownerName }).first().click();
    await page.keyboard.press('Escape');
    await expect(
      page.getByRole('list', { name: 'Chosen owners' }).getByRole('listitem'),
    ).toHaveCount(1);
    await expect.poll(() => searches.at(-1)!.searchParams.get('ownerIds')).toMatch(/^acc_/);
    const rows = results(page).getByRole('row');
    await expect(rows.nth(1)).toBeVisible();
    for (const owner of await rows.locator('[role="cell"]:nth-child(2)').allTextContents()) {
      expect(owner).toBe(ownerName);
    }
    // Removing the chip searches every owner again.
    await page.getByRole('button', { name: `Remove ${ownerName}` }).click();
    await expect.poll(() => searches.at(-1)!.searchParams.get('ownerIds')).toBe('*');

    // Keyword suggestions complete the word being typed.
    const text = page.getByRole('combobox', { name: 'Search text' });
    await text.fill('dam');
    await page.getByRole('listbox').getByRole('option', { name: 'damage' }).click();
    await expect(text).toHaveValue('damage ');
    await expect.poll(() => searches.at(-1)!.searchParams.get('searchText')).toBe('damage');
    await expect(rows.nth(1)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The download button saves the file (a signed address of the own storage).
    const first = rows.nth(1);
    const filename = (await first.locator('[role="cell"]').first().textContent())!;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      first.getByRole('button', { name: `Download ${filename}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(filename);
    const bytes = await readFile((await download.path())!);
    expect(bytes.length).toBeGreaterThan(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('is not in the menu of a user without the documents permission', async ({ page }) => {
    await signIn(page, 'manager@demo.test');
    await expect(
      page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Policies' }),
    ).toBeVisible();
    await expect(
      page
        .getByRole('navigation', { name: 'Main menu' })
        .getByRole('link', { name: 'Documents', exact: true }),
    ).toHaveCount(0);
    await page.goto('/u/0/documents');
    await expect(page.getByRole('heading', { name: 'Error 403' })).toBeVisible();
  });
});

test.describe('/download/{s3Key}', () => {
  let doc: SeededClaimDocument;
  test.beforeAll(async ({ baseURL }) => {
    const api = await apiAs(baseURL!, READER);
    doc = await seededClaimDocument(api);
    await api.dispose();
  });

  test('downloads the file of the key without the shell, then offers to close', async ({
    page,
  }) => {
    await signIn(page, READER);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.goto(`/download/${encodeURIComponent(doc.s3Key)}`),
    ]);
    expect(download.suggestedFilename()).toBe(doc.filename);
    expect((await readFile((await download.path())!)).length).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Download' })).toBeVisible();
    await expect(page.getByText('You can close this window.')).toBeVisible();
    // No navigation bar, header or footer.
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('tries to close the window two seconds after the download started', async ({ page }) => {
    await signIn(page, READER);
    const popupPromise = page.waitForEvent('popup');
    // Opened by a script, as a link with target _blank would: only such a window may close.
    await page.evaluate(
      (key) => window.open(`/download/${encodeURIComponent(key)}`, '_blank'),
      doc.s3Key,
    );
    const popup = await popupPromise;
    const closed = popup.waitForEvent('close', { timeout: 8000 });
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  });

  test('signs in first and comes back with the key as it was', async ({ page }) => {
    const path = `/download/${encodeURIComponent(doc.s3Key)}`;
    await page.goto(path);
    await expect(page).toHaveURL(/\/login\?backUrl=/);
    expect(new URL(page.url()).searchParams.get('backUrl')).toBe(path);
    const downloading = page.waitForEvent('download');
    await page.getByLabel('E-mail address').fill(READER);
    await page.getByLabel('Password').fill('Demo1234!');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(doc.filename);
    expect(new URL(page.url()).pathname).toBe(path);
  });

  test("shows the danger alert for a key that is not the workspace's", async ({ page }) => {
    await signIn(page, READER);
    await page.goto(`/download/${encodeURIComponent('nordlicht/claims/clm_x/doc_x.pdf')}`);
    await expect(page.getByRole('alert')).toHaveText('Something went wrong. Please try again.');
    await expect(page.getByRole('link', { name: 'Back to the application' })).toBeVisible();
  });
});
