import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// Users of the seed that no other spec signs in with, one per test, so tests do not interfere.
const TOGGLED = 'jonas.becker@demo.test';
const REROLED = 'lea.fischer@demo.test';

async function openUsers(page: Page) {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/u\/0\/admin\/users/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
}

const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });

async function search(page: Page, text: string) {
  // Wait for the search's own answer: with a filter that already leaves one row, the row count
  // alone would pass before the debounced reload, which then clears a selection made meanwhile.
  const searched = page.waitForResponse(
    (r) =>
      r.url().includes('/tenantservice/v1/users?') &&
      r.url().includes(`search=${encodeURIComponent(text)}`),
  );
  await page.getByLabel('Search users').fill(text);
  await searched;
  await expect(usersTable(page).getByRole('row')).toHaveCount(2);
  await expect(usersTable(page).getByRole('row').nth(1)).toContainText(text);
}

test.describe('users administration', () => {
  test('admin searches, filters by status, disables and re-enables a user', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await openUsers(page);
    await expect(usersTable(page).getByRole('row').nth(1)).toBeVisible();
    await search(page, TOGGLED);

    await page.getByLabel('Status').selectOption({ label: 'Disabled' });
    await expect(page.getByText('No users match.')).toBeVisible();
    await page.getByLabel('Status').selectOption({ label: 'Active' });
    const row = usersTable(page).getByRole('row').nth(1);
    await expect(row).toContainText('Active');

    await page.getByRole('button', { name: `Disable ${TOGGLED}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Disable Jonas Becker (${TOGGLED})? Their sessions end`);
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByText('1 done, 0 failed')).toBeVisible();
    await expect(page.getByText('No users match.')).toBeVisible();

    await page.getByLabel('Status').selectOption({ label: 'Disabled' });
    await expect(row).toContainText('Disabled');
    await page.getByRole('button', { name: `Enable ${TOGGLED}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByText('No users match.')).toBeVisible();
    await page.getByLabel('Status').selectOption({ label: 'All' });
    await expect(row).toContainText('Active');
  });

  test('admin assigns a role and sees the tooltip', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await openUsers(page);
    await search(page, REROLED);
    const row = usersTable(page).getByRole('row').nth(1);
    await expect(row).not.toContainText('Show only');

    await row.getByText(REROLED).focus();
    await expect(page.getByRole('tooltip')).toContainText('Lea Fischer');

    await page.getByRole('button', { name: `Roles of ${REROLED}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: 'Show only' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`The roles of ${REROLED} were saved.`)).toBeVisible();
    await expect(row).toContainText('Show only');

    // Back to what the seed had, so the run can be repeated on the same data.
    await page.getByRole('button', { name: `Roles of ${REROLED}` }).click();
    await dialog.getByRole('checkbox', { name: 'Show only' }).uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(row).not.toContainText('Show only');
  });

  test('the only administrator cannot take their own administrator role away', async ({ page }) => {
    // The Nordlicht workspace has one administrator and no spec changes its roles.
    const me = 'admin@nordlicht.test';
    await signIn(page, me);
    await openUsers(page);
    await search(page, me);
    const row = usersTable(page).getByRole('row').nth(1);
    await page.getByRole('button', { name: `Roles of ${me}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: 'Show only' }).check();
    await dialog.getByRole('checkbox', { name: 'Administrator' }).uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Said as a sentence of its own, with its frame.
    await expect(dialog.getByRole('alert')).toContainText(
      'Not saved: the workspace would be left without an administrator; give another user the Administrator role first.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Administrator');
    await expect(row).not.toContainText('Show only');
  });

  test('admin invites an e-mail, sees it in the invitations tab and deletes it', async ({
    page,
  }) => {
    const email = `invitee-${Date.now()}@example.test`;
    await signIn(page, 'admin@demo.test');
    await openUsers(page);
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await expect(page).toHaveURL(/#tab=invitations/);

    await page.getByRole('button', { name: 'Invite users' }).click();
    const dialog = page.getByRole('dialog');
    const emails = dialog.getByLabel('E-mail addresses');
    await emails.fill(`${email}, not-an-address; jürgen.müller@example.com`);
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(dialog).toContainText(
      'Not a valid e-mail address: not-an-address, jürgen.müller@example.com',
    );

    await emails.fill(`${email}\nviewer@demo.test`);
    await dialog
      .getByLabel('Organisation', { exact: true })
      .selectOption({ label: 'Agentur Nord' });
    await dialog.getByRole('checkbox', { name: 'Show only' }).check();
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    const results = dialog.getByTestId('invite-results');
    await expect(results).toContainText(`${email}: Invitation sent`);
    await expect(results).toContainText('viewer@demo.test: already a member of this workspace');
    await dialog.getByRole('button', { name: 'Close' }).click();

    const table = page.getByRole('table', { name: 'Pending invitations' });
    const row = table.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Agentur Nord');
    await expect(row).toContainText('Show only');

    await page.getByRole('button', { name: `Delete the invitation of ${email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('1 done, 0 failed')).toBeVisible();
    await expect(table.getByText(email)).toHaveCount(0);
  });

  test('admin sorts, filters by role and gets per-id failures of a bulk action', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.test');
    await openUsers(page);
    const firstEmail = usersTable(page).getByRole('row').nth(1).getByRole('cell').nth(1);
    await page.getByRole('button', { name: /^E-mail/ }).click();
    await expect(page.getByRole('columnheader', { name: /^E-mail/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    const ascending = await firstEmail.textContent();
    await page.getByRole('button', { name: /^E-mail/ }).click();
    await expect(page.getByRole('columnheader', { name: /^E-mail/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(firstEmail).not.toHaveText(ascending ?? '');
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );

    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Administrator' });
    await expect(usersTable(page).getByRole('row').nth(1)).toContainText('Administrator');
    // A toolbar filter keeps the chosen sort.
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );

    // The service refuses to disable oneself: the batch answers per id.
    await search(page, 'admin@demo.test');
    await usersTable(page).getByRole('checkbox', { name: 'Select admin@demo.test' }).check();
    await page.getByRole('button', { name: 'Disable selected' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await expect(
      page.getByText('0 done, 1 failed · admin@demo.test: you cannot disable yourself'),
    ).toBeVisible();
    // A partial failure keeps the dialog open with the failed rows; closing it shows the list.
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(usersTable(page).getByRole('row').nth(1)).toContainText('Active');
  });

  test('a 403 on the list warns about eis.users.view; an escalation is explained', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.test');
    // The account's permissions say yes, the service says no (e.g. a role changed meanwhile).
    await page.route('**/tenantservice/v1/users?*', (route) =>
      route.fulfill({ status: 403, json: { error: 'forbidden', message: 'no' } }),
    );
    await openUsers(page);
    await expect(
      page.getByText('You are missing the permission eis.users.view to see this list.'),
    ).toBeVisible();
    await page.unroute('**/tenantservice/v1/users?*');

    await page.route('**/tenantservice/v1/users/*/assign-roles', (route) =>
      route.fulfill({ status: 403, json: { error: 'escalation', message: 'no' } }),
    );
    await page.reload();
    await search(page, REROLED);
    await page.getByRole('button', { name: `Roles of ${REROLED}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: 'Administrator' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'You cannot grant or remove a role that holds permissions you do not have yourself.',
    );
  });

  test('the screen has no serious accessibility violations', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await openUsers(page);
    await expect(usersTable(page).getByRole('row').nth(1)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('a read-only user sees the list without action buttons', async ({ page }) => {
    await signIn(page, 'viewer@demo.test');
    await openUsers(page);
    await expect(usersTable(page).getByRole('row').nth(1)).toBeVisible();
    await expect(usersTable(page).getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^(Enable|Disable|Delete|Roles)/ })).toHaveCount(
      0,
    );
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await expect(page.getByRole('table', { name: 'Pending invitations' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Invite users' })).toHaveCount(0);
  });

  test('without users.view the entry is hidden and the URL shows the 403 page', async ({
    page,
  }) => {
    await signIn(page, 'care@demo.test');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await page.goto('/u/0/admin/users');
    await expect(page.getByRole('heading', { name: 'Error 403' })).toBeVisible();
  });
});
