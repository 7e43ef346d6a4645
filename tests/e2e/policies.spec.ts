import type { Page, Route } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { createHomePolicy, displayDay, isoDay, shownStartOf } from './policy-setup.ts';

// Seeded policies (server/sandbox/seed-policies.ts is deterministic). The read-only checks run as
// the viewer, who cannot change anything, so they never collide with another spec's writes.
const TRAVEL = { number: 'POL-000124', holder: 'Florian Hofmann', product: 'Reiseschutz Welt' };

const INSURANCE = '/api/0/insuranceservice/v1';
const CSRF = { 'X-CSRF': '1' };
// David (customer care) writes only to policies this spec creates for itself.
const WRITER = 'david.vogel3@demo.test';

/** A home-contents policy of this spec's own (see createHomePolicy). */
const createPolicy = (page: Page) =>
  createHomePolicy(page, { firstName: 'Erik', lastName: `Zweitenberg ${Date.now()}` });

const policyTable = (page: Page) => page.getByRole('table', { name: 'Policies', exact: true });

async function openPolicyList(page: Page) {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Policies' }).click();
  await expect(page).toHaveURL(/\/u\/0\/policies$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Policies' })).toBeVisible();
}

test.describe('policies', () => {
  test('the list shows each row with its current premium from the trimmed rows the BFF answers', async ({
    page,
  }) => {
    await signIn(page, 'viewer@demo.test');
    await openPolicyList(page);
    const rowsAnswer = page.waitForResponse(
      (res) => res.url().includes('/policies?') && res.url().includes(`search=${TRAVEL.number}`),
    );
    await page.getByRole('searchbox', { name: 'Search policies' }).fill(TRAVEL.number);
    const answer = await rowsAnswer;
    // The rows (docs/decisions/004-list-rows.md): the premium in force, never the timeline.
    expect(new URL(answer.url()).searchParams.get('view')).toBe('row');
    const page1 = (await answer.json()) as {
      items: { timeline?: unknown; premium: { grandTotal: number; currency: string } | null }[];
    };
    expect(page1.items).toHaveLength(1);
    expect(page1.items[0]).not.toHaveProperty('timeline');
    const premium = page1.items[0]!.premium!;
    const amount = new Intl.NumberFormat('en', {
      style: 'currency',
      currency: premium.currency,
    }).format(premium.grandTotal);
    const row = policyTable(page).getByRole('row').nth(1);
    await expect(row).toContainText(TRAVEL.number);
    await expect(row).toContainText(TRAVEL.holder);
    await expect(row).toContainText(TRAVEL.product);
    await expect(row.getByRole('cell').nth(5)).toContainText(amount);
    await expect(page.getByRole('button', { name: 'Retry' })).toBeHidden();
  });

  test('the list filters by status and search, keeps its filters in the address and opens a policy', async ({
    page,
  }) => {
    // Three axe runs and a reload: more than the default on a busy machine.
    test.setTimeout(60_000);
    await signIn(page, 'viewer@demo.test');
    await openPolicyList(page);
    // Newest first: policies sold by other specs of this run may come before the seeded ones, so
    // the first row is the newest number there is, at least the last seeded one.
    await expect(policyTable(page).getByRole('row').nth(1)).toContainText('POL-');
    const first = await policyTable(page).getByRole('row').nth(1).textContent();
    expect(Number(/POL-(\d{6})/.exec(first ?? '')?.[1])).toBeGreaterThanOrEqual(2000);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('checkbox', { name: 'Terminated' }).check();
    await expect(page).toHaveURL(/\?status=TERMINATED$/);
    await expect(policyTable(page).getByRole('row').nth(1)).toBeVisible();
    await expect(policyTable(page).getByRole('cell', { name: 'Terminated' }).first()).toBeVisible();
    for (const other of ['Active', 'Withdrawn', 'Suspended']) {
      await expect(policyTable(page).getByRole('cell', { name: other, exact: true })).toHaveCount(
        0,
      );
    }

    // The search waits for a pause in typing; a terminated POL-000124 does not exist.
    await page.getByRole('searchbox', { name: 'Search policies' }).fill(TRAVEL.number);
    await expect(page).toHaveURL(new RegExp(`status=TERMINATED&q=${TRAVEL.number}$`));
    await expect(page.getByText('No policies match the filters.')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Terminated' }).uncheck();
    await expect(policyTable(page).getByRole('row')).toHaveCount(2);
    const row = policyTable(page).getByRole('row').nth(1);
    await expect(row.getByRole('cell', { name: 'Active', exact: true })).toBeVisible();
    await expect(row.getByRole('link', { name: TRAVEL.holder })).toBeVisible();
    await expect(row.getByRole('cell', { name: TRAVEL.product })).toBeVisible();
    await expect(
      row.getByRole('cell', { name: await shownStartOf(page, TRAVEL.number) }),
    ).toBeVisible();

    // A link reproduces the list.
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search policies' })).toHaveValue(
      TRAVEL.number,
    );
    await expect(policyTable(page).getByRole('row')).toHaveCount(2);

    await policyTable(page).getByRole('link', { name: TRAVEL.number }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: `Policy ${TRAVEL.number}` }),
    ).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^Policy ${TRAVEL.number} \\|`));
    await expect(page.getByRole('link', { name: TRAVEL.product })).toHaveAttribute(
      'href',
      /\/u\/0\/management\/product\/\d+$/,
    );
    await expect(page.getByRole('link', { name: TRAVEL.holder })).toHaveAttribute(
      'href',
      /\/u\/0\/customers\/acc_/,
    );

    // Versions newest first; the applied one is shown. Version 3 is the renewal run's (the seeded
    // term ended; the sandbox renews it at start, docs/decisions/006).
    const versions = page.getByRole('table', { name: 'Versions' });
    await expect(versions.getByRole('row').nth(1)).toContainText('Version 3');
    await expect(versions.getByRole('row').nth(1)).toContainText('Applied');
    await expect(versions.getByRole('row').nth(2)).toContainText('Version 2');
    await expect(versions.getByRole('row').nth(2)).toContainText('Superseded');
    await expect(
      page.getByRole('heading', { level: 2, name: 'Timeline of version 3' }),
    ).toBeVisible();
    const premium = page.getByRole('table', { name: /^Premium, / }).first();
    await expect(premium.getByRole('rowheader', { name: 'Cancellation cover' })).toBeVisible();
    await expect(premium.getByRole('rowheader', { name: 'Travel health cover' })).toBeVisible();
    await expect(premium.getByRole('cell', { name: 'One-time payment' }).first()).toBeVisible();
    await expect(premium.getByRole('rowheader', { name: 'Total' })).toBeVisible();
    await expect(page.getByText('Days of travel').first()).toBeVisible();
    // The viewer may not change policies: no action at all on an active one.
    for (const name of ['Terminate', 'Withdraw', 'Create draft', 'Restore version 1']) {
      await expect(page.getByRole('button', { name })).toHaveCount(0);
    }
    await expectNoSeriousA11yViolations(page);

    // An earlier version's timeline, by its button; the choice lives in the hash.
    await page.getByRole('button', { name: 'Show version 1' }).click();
    await expect(
      page.getByRole('heading', { level: 2, name: 'Timeline of version 1' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/#version=\d+$/);
    await expect(page.getByRole('button', { name: 'Show version 1' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // Back on the list the filters are as they were left.
    await page.getByRole('link', { name: 'Back to policies' }).click();
    await expect(page).toHaveURL(new RegExp(`/u/0/policies\\?q=${TRAVEL.number}$`));
    await expect(policyTable(page).getByRole('row')).toHaveCount(2);
  });

  test('an unknown policy says that it does not exist', async ({ page }) => {
    await signIn(page, 'viewer@demo.test');
    await page.goto('/u/0/policies/pol_0000000000000000');
    await expect(page.getByRole('heading', { level: 1, name: 'Policy' })).toBeVisible();
    await expect(page.getByText('Policy does not exist.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('customer care drafts, applies, restores and terminates a policy of its own', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, WRITER);
    const policy = await createPolicy(page);
    await page.goto(`/u/0/policies?q=${policy.number}`);
    await policyTable(page).getByRole('link', { name: policy.number }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: `Policy ${policy.number}` }),
    ).toBeVisible();
    const versions = page.getByRole('table', { name: 'Versions' });
    const livingArea = (value: string) =>
      page
        .getByRole('definition')
        .filter({ hasText: new RegExp(`^${value}$`) })
        .first();
    await expect(livingArea('80')).toBeVisible();

    // A draft, behind the confirm dialog.
    await page.getByRole('button', { name: 'Create draft' }).click();
    const confirmDialog = page.getByRole('dialog', { name: 'Create draft' });
    await expect(confirmDialog).toContainText(
      `Create a draft of policy ${policy.number} from version 1?`,
    );
    await expectNoSeriousA11yViolations(page);
    await confirmDialog.getByRole('button', { name: 'Create draft' }).click();
    await expect(page.getByText(`Draft of policy ${policy.number} created.`)).toBeVisible();
    await expect(versions.getByRole('row').nth(1)).toContainText('Draft');

    // Edit it: the form checks like the service, then saves only what changed.
    await page.getByRole('button', { name: 'Edit draft' }).click();
    const draftDialog = page.getByRole('dialog', { name: `Draft of policy ${policy.number}` });
    const area = draftDialog.getByRole('textbox', { name: 'Living area (m²)' });
    await expect(area).toHaveValue('80');
    // The fields of a policy sale; the contract term is shown, not offered for change.
    const term = draftDialog.getByRole('region', { name: 'Policy', exact: true });
    await expect(term.getByText('Policy start date')).toBeVisible();
    await expect(term.getByRole('textbox')).toHaveCount(0);
    await expect(term.getByRole('combobox')).toHaveCount(0);
    await area.fill('abc');
    await draftDialog.getByRole('button', { name: 'Save draft' }).click();
    await expect(draftDialog.getByText('Please enter a number')).toBeVisible();
    await area.fill('120');
    await expectNoSeriousA11yViolations(page);
    await draftDialog.getByRole('button', { name: 'Save draft' }).click();
    await page
      .getByRole('dialog', { name: 'Edit draft' })
      .getByRole('button', { name: 'Edit draft' })
      .click();
    await expect(page.getByText(`Draft of policy ${policy.number} saved.`)).toBeVisible();
    await expect(
      page.getByRole('heading', { level: 2, name: 'Timeline of version 2' }),
    ).toBeVisible();
    await expect(livingArea('120')).toBeVisible();

    // Apply it: version 2 becomes the current one.
    await page.getByRole('button', { name: 'Apply draft' }).click();
    await page
      .getByRole('dialog', { name: 'Apply draft' })
      .getByRole('button', { name: 'Apply draft' })
      .click();
    await expect(page.getByText(`Draft of policy ${policy.number} applied.`)).toBeVisible();
    await expect(versions.getByRole('row').nth(1)).toContainText('Applied');
    await expect(versions.getByRole('row').nth(2)).toContainText('Superseded');

    // Restore version 1: its data becomes version 3.
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    const restoreDialog = page.getByRole('dialog', { name: 'Restore' });
    await expect(restoreDialog).toContainText('Its data becomes the current version 3.');
    await restoreDialog.getByRole('button', { name: 'Restore' }).click();
    await expect(
      page.getByText(`Earlier version of policy ${policy.number} restored.`),
    ).toBeVisible();
    await expect(
      page.getByRole('heading', { level: 2, name: 'Timeline of version 3' }),
    ).toBeVisible();
    await expect(livingArea('80')).toBeVisible();

    // Somebody restores version 2 meanwhile: the termination, based on version 3, meets a
    // conflict that says what changed and keeps what was typed.
    const current = await page.request.get(`${INSURANCE}/policies/${policy.code}`);
    const { policy: fresh } = await current.json();
    const versionTwo = fresh.versions.find((v: { versionNumber: number }) => v.versionNumber === 2);
    const behind = await page.request.post(
      `${INSURANCE}/policies/${policy.code}/restore-policy-version`,
      {
        headers: CSRF,
        data: { basedOnVersionId: fresh.currentVersionId, versionId: versionTwo.id },
      },
    );
    expect(behind.status()).toBe(200);
    await page.getByRole('button', { name: 'Terminate' }).click();
    const terminateDialog = page.getByRole('dialog', { name: `Terminate policy ${policy.number}` });
    const date = terminateDialog.getByRole('textbox', { name: 'Termination date' });
    await date.fill(displayDay(isoDay(-30)));
    await terminateDialog.getByRole('button', { name: 'Terminate' }).click();
    await expect(
      terminateDialog.getByText(
        `The policy cannot end before it starts (${displayDay(isoDay(-10))}).`,
      ),
    ).toBeVisible();
    await date.fill(displayDay(isoDay(1)));
    await terminateDialog.getByRole('textbox', { name: 'Reason' }).fill('Moved abroad');
    await terminateDialog.getByRole('button', { name: 'Terminate' }).click();
    const sure = page.getByRole('dialog', { name: 'Terminate' });
    await expect(sure).toContainText(
      `Terminate policy ${policy.number} as of ${displayDay(isoDay(1))}? This cannot be undone.`,
    );
    await sure.getByRole('button', { name: 'Terminate' }).click();
    await expect(terminateDialog.getByText('Somebody else changed this policy')).toBeVisible();
    const changes = terminateDialog.getByRole('table', { name: 'What changed in the meantime' });
    await expect(
      changes.getByRole('row', { name: 'Current version Version 3 Version 4' }),
    ).toBeVisible();
    await expect(terminateDialog.getByRole('textbox', { name: 'Reason' })).toHaveValue(
      'Moved abroad',
    );
    await expectNoSeriousA11yViolations(page);
    await terminateDialog.getByRole('button', { name: 'Load the current policy' }).click();
    await expect(terminateDialog).toBeHidden();
    await expect(versions.getByRole('row').nth(1)).toContainText('Version 4');
    await expect(
      page.getByRole('heading', { level: 2, name: 'Timeline of version 4' }),
    ).toBeVisible();

    // On the current policy the termination goes through.
    await page.getByRole('button', { name: 'Terminate' }).click();
    await terminateDialog
      .getByRole('textbox', { name: 'Termination date' })
      .fill(displayDay(isoDay(1)));
    await terminateDialog.getByRole('button', { name: 'Terminate' }).click();
    await sure.getByRole('button', { name: 'Terminate' }).click();
    await expect(page.getByText(`Policy ${policy.number} terminated.`)).toBeVisible();
    const header = page
      .getByRole('heading', { level: 1, name: `Policy ${policy.number}` })
      .locator('..');
    await expect(header.getByText('Terminated', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Terminate' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Withdraw' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create draft' })).toHaveCount(0);

    // The list shows the new status.
    await page.getByRole('link', { name: 'Back to policies' }).click();
    await expect(
      policyTable(page).getByRole('row').nth(1).getByRole('cell', { name: 'Terminated' }),
    ).toBeVisible();
  });

  test('a save that fails keeps what was typed and can be tried again', async ({ page }) => {
    test.setTimeout(60_000);
    await signIn(page, WRITER);
    const policy = await createPolicy(page);
    await page.goto(`/u/0/policies/${policy.code}`);
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page
      .getByRole('dialog', { name: 'Create draft' })
      .getByRole('button', { name: 'Create draft' })
      .click();
    await expect(page.getByText(`Draft of policy ${policy.number} created.`)).toBeVisible();

    // The service is unreachable for the save.
    const outage = (route: Route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 502,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'upstream_unavailable', message: 'down' }),
          })
        : route.fallback();
    await page.route('**/insuranceservice/v1/policies/*/draft', outage);
    await page.getByRole('button', { name: 'Edit draft' }).click();
    const draftDialog = page.getByRole('dialog', { name: `Draft of policy ${policy.number}` });
    await draftDialog.getByRole('checkbox', { name: 'Bicycles included' }).check();
    await draftDialog.getByRole('button', { name: 'Save draft' }).click();
    await page
      .getByRole('dialog', { name: 'Edit draft' })
      .getByRole('button', { name: 'Edit draft' })
      .click();
    await expect(
      draftDialog.getByText('The change could not be saved. Please try again.'),
    ).toBeVisible();
    await expect(draftDialog.getByRole('checkbox', { name: 'Bicycles included' })).toBeChecked();
    await expectNoSeriousA11yViolations(page);

    await page.unroute('**/insuranceservice/v1/policies/*/draft', outage);
    await draftDialog.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText(`Draft of policy ${policy.number} saved.`)).toBeVisible();
    await expect(draftDialog).toBeHidden();
    await expect(page.getByRole('definition').filter({ hasText: /^Yes$/ })).toBeVisible();
  });
});
