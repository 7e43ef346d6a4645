import { readFile } from 'node:fs/promises';
import type { Page, Route } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, signInGerman, test } from './fixtures.ts';
import { expectNoUntranslatedText } from './language-checks.ts';
import { createHomePolicy } from './policy-setup.ts';

/**
 * The policy page's documents (issue 19): the schedule the document service issues for every
 * version in force, listed newest first with where it came from, downloaded as the PDF printed on
 * its first download; the empty and the failed list; the section in German.
 */

const INSURANCE = '/api/0/insuranceservice/v1';
const CSRF = { 'X-CSRF': '1' };
const ADMIN = 'admin@demo.test';

/** A policy of this spec's own (createHomePolicy): nobody else lists or changes its documents. */
const createPolicy = (page: Page) =>
  createHomePolicy(page, { firstName: 'Sina', lastName: `Scheinwerth ${Date.now()}` });

const schedule = (number: string, version: number) =>
  `Versicherungsschein ${number}, Version ${version}`;

/**
 * Waits until the schedule of `version` is issued: the document service writes it just after the
 * insurance service's answer (on its event), so a page opened at once might not list it yet.
 */
async function scheduleIssued(page: Page, policy: { code: string; number: string }, version = 1) {
  await expect
    .poll(async () => {
      const filter = encodeURIComponent(`policyCode=${policy.code}`);
      const res = await page.request.get(`/api/0/documentservice/v1/documents?filter=${filter}`);
      return ((await res.json()).items as { description: string }[]).map((d) => d.description);
    })
    .toContain(schedule(policy.number, version));
}

/** The draft of the current version, applied at once: version 2 comes in force. */
async function applyNewVersion(page: Page, code: string) {
  const read = await page.request.get(`${INSURANCE}/policies/${code}`);
  const { policy } = await read.json();
  const draft = await page.request.post(`${INSURANCE}/policies/${code}/draft`, {
    headers: CSRF,
    data: { basedOnVersionId: policy.currentVersionId },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  const { policy: drafted } = await draft.json();
  const applied = await page.request.put(`${INSURANCE}/policies/${code}`, {
    headers: CSRF,
    data: { basedOnVersionId: drafted.draftVersionId },
  });
  expect(applied.status(), await applied.text()).toBe(200);
}

const documentsSection = (page: Page, name: string) => page.getByRole('region', { name });

/** A new policy of the admin's, its page open once its first schedule is listed (one row). */
async function openWithFirstSchedule(page: Page) {
  await signIn(page, ADMIN);
  const policy = await createPolicy(page);
  await scheduleIssued(page, policy);
  await page.goto(`/u/0/policies/${policy.code}`);
  const section = documentsSection(page, 'Documents');
  const rows = section
    .getByRole('table', { name: `Documents of policy ${policy.number}` })
    .getByRole('row');
  await expect(rows).toHaveCount(2);
  return { policy, section, rows };
}

test.describe('policy documents', () => {
  test("the schedules of a policy's versions are listed newest first and download as PDFs", async ({
    page,
  }) => {
    // Printing the schedule starts the sandbox's Chromium on its first document.
    test.setTimeout(120_000);
    await signIn(page, ADMIN);
    const policy = await createPolicy(page);
    await scheduleIssued(page, policy);
    await applyNewVersion(page, policy.code);
    await scheduleIssued(page, policy, 2);

    await page.goto(`/u/0/policies/${policy.code}`);
    const section = documentsSection(page, 'Documents');
    const table = section.getByRole('table', { name: `Documents of policy ${policy.number}` });
    await expect(table).toBeVisible();
    const rows = table.getByRole('row');
    // The header, then version 2 above version 1.
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText(schedule(policy.number, 2));
    await expect(rows.nth(2)).toContainText(schedule(policy.number, 1));
    const first = rows.nth(2);
    await expect(first.getByRole('cell', { name: 'Issued by the system' })).toBeVisible();
    await expect(first.getByRole('cell', { name: 'PDF document' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // By keyboard: the file name is the download.
    const filename = `Versicherungsschein-${policy.number}-v1.pdf`;
    const download = first.getByRole('button', { name: `Download ${filename}` });
    await download.focus();
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.keyboard.press('Enter'),
    ]);
    expect(file.suggestedFilename()).toBe(filename);
    const bytes = await readFile((await file.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(section.getByRole('alert')).toHaveCount(0);
  });

  test('an open page lists a schedule as soon as it is issued, without a reload', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { policy, rows } = await openWithFirstSchedule(page);
    // Someone else's change (here through the API): the socket tells the page of the schedule.
    await applyNewVersion(page, policy.code);
    await expect(rows.nth(1)).toContainText(schedule(policy.number, 2));
  });

  test('a schedule issued again on request is listed beside the first, by keyboard', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { policy, section, rows } = await openWithFirstSchedule(page);
    await section.getByRole('button', { name: 'Issue a document…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Issue a document' });
    const template = dialog.getByLabel('Template');
    await expect(template.locator('option:checked')).toHaveText('Versicherungsschein');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Issue', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('“Versicherungsschein” issued.')).toBeVisible();
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText(schedule(policy.number, 1));
    await expect(rows.nth(2)).toContainText(schedule(policy.number, 1));
  });

  test('a list that fails offers to try again; an empty one says so', async ({ page }) => {
    await signIn(page, ADMIN);
    const policy = await createPolicy(page);
    await scheduleIssued(page, policy);
    const list = (url: URL) =>
      url.pathname.endsWith('/documentservice/v1/documents') &&
      (url.searchParams.get('filter') ?? '').startsWith(`policyCode=${policy.code}`);
    let answer: 'fail' | 'empty' = 'fail';
    const stand = (route: Route) =>
      answer === 'fail'
        ? route.fulfill({ status: 500, json: { error: 'internal', message: 'down' } })
        : route.fulfill({ json: { items: [], nextPageToken: null } });
    await page.route(list, stand);

    await page.goto(`/u/0/policies/${policy.code}`);
    const section = documentsSection(page, 'Documents');
    await expect(section.getByText('Something went wrong. Please try again.')).toBeVisible();
    answer = 'empty';
    await section.getByRole('button', { name: 'Try again' }).click();
    await expect(section.getByTestId('documents-empty')).toHaveText('No documents yet.');

    await page.unroute(list, stand);
    await page.reload();
    await expect(
      documentsSection(page, 'Documents').getByRole('button', {
        name: `Download Versicherungsschein-${policy.number}-v1.pdf`,
      }),
    ).toBeVisible();
  });

  test('the documents section in German', async ({ page }) => {
    await signInGerman(page, ADMIN);
    const policy = await createPolicy(page);
    await scheduleIssued(page, policy);

    await page.goto(`/u/0/policies/${policy.code}`);
    const section = documentsSection(page, 'Dokumente');
    const table = section.getByRole('table', { name: `Dokumente zum Vertrag ${policy.number}` });
    await expect(table.getByRole('row').nth(1)).toContainText(schedule(policy.number, 1));
    await expect(table.getByRole('cell', { name: 'Vom System ausgestellt' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Herkunft' })).toBeVisible();
    await expect(
      table.getByRole('button', {
        name: `Versicherungsschein-${policy.number}-v1.pdf herunterladen`,
      }),
    ).toBeVisible();
    await expectNoUntranslatedText(page, 'de', ['documents', 'policies']);
  });
});
