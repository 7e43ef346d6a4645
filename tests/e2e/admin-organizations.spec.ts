import type { Page } from '@playwright/test';
import { apiAs, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// Seed rows no other spec changes: the organisation whose address is edited, and the seeded user
// who becomes a view-only organisations user.
const EDITED_ORG = 'Schadenservice Ost';
const VIEW_ONLY_USER = 'anna.albrecht0@demo.test';

async function openOrganizations(page: Page) {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Organisations' }).click();
  await expect(page).toHaveURL(/\/u\/0\/admin\/organizations/);
  await expect(page.getByRole('heading', { level: 1, name: 'Organisations' })).toBeVisible();
}

const orgTable = (page: Page) => page.getByRole('table', { name: 'Organisations' });
const invitationTable = (page: Page) =>
  page.getByRole('table', { name: 'Organisation invitations' });

async function outbox(page: Page, to: string) {
  const response = await page.request.get(`/sandbox/outbox?to=${encodeURIComponent(to)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { items: { subject: string; link: string | null }[] }).items;
}

test.describe('organisations administration', () => {
  test('admin searches, opens an organisation and edits its address', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await openOrganizations(page);
    await expect(orgTable(page).getByRole('row')).not.toHaveCount(1);

    await page.getByRole('searchbox', { name: 'Filter Name' }).fill('nothing-like-this');
    await expect(page.getByText('No organisations match.')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Filter Name' }).fill('Schadenservice');
    await expect(orgTable(page).getByRole('row')).toHaveCount(2);

    await page.getByRole('button', { name: /^Name/ }).click();
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await orgTable(page).getByRole('link', { name: EDITED_ORG }).click();
    await expect(page.getByRole('heading', { level: 1, name: EDITED_ORG })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${EDITED_ORG} \\|`));

    // Its users come from the users list filtered by organisation.
    const users = page.getByRole('table', { name: 'Users of the organisation' });
    await expect(users.getByRole('row').nth(1)).toBeVisible();

    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute(
      'readonly',
      '',
    );
    const street = page.getByRole('textbox', { name: 'Street', exact: true });
    await expect(street).toHaveValue('Elballee');
    await street.fill('');
    await page.getByRole('textbox', { name: 'City', exact: true }).fill('Dresden-Neustadt');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Street is required')).toBeVisible();
    await expect(street).toHaveAttribute('aria-invalid', 'true');

    await street.fill('Königsbrücker Straße');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('The organisation was saved.')).toBeVisible();
    await expect(page.getByText('Street is required')).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Street', exact: true })).toHaveValue(
      'Königsbrücker Straße',
    );
    await expect(page.getByRole('textbox', { name: 'City', exact: true })).toHaveValue(
      'Dresden-Neustadt',
    );
  });

  test('a row clicked while the filter is still being typed opens, however slow its page loads', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.test');
    await openOrganizations(page);
    // The record page's code arrives a second late, past the filter's typing pause.
    await page.route('**/assets/organization-page-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await expect(orgTable(page).getByRole('link', { name: EDITED_ORG })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Filter Name' }).fill(EDITED_ORG);
    await orgTable(page).getByRole('link', { name: EDITED_ORG }).click();
    await expect(page.getByRole('textbox', { name: 'House number', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/u\/0\/admin\/organizations\/[^/?]+$/);
  });

  test('a failed save keeps the input and shows the translated error', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await openOrganizations(page);
    await page.getByRole('searchbox', { name: 'Filter Name' }).fill(EDITED_ORG);
    // The filtered list has replaced the whole one: a click before might land on a row going away.
    await expect(orgTable(page).getByRole('row')).toHaveCount(2);
    await orgTable(page).getByRole('link', { name: EDITED_ORG }).click();
    await page.route('**/tenantservice/v1/organizations/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 403, json: { error: 'forbidden', message: 'no' } })
        : route.continue(),
    );
    await page.getByRole('textbox', { name: 'House number', exact: true }).fill('3b');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(/You do not have the permission for this\./);
    await expect(page.getByRole('textbox', { name: 'House number', exact: true })).toHaveValue(
      '3b',
    );
  });

  test('admin creates an organisation with the custom fields', async ({ page }) => {
    const name = `Agentur Test ${Date.now()}`;
    await signIn(page, 'admin@demo.test');
    await openOrganizations(page);
    await page.getByRole('link', { name: 'New organisation' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New organisation' })).toBeVisible();

    await page.getByRole('button', { name: 'Create organisation' }).click();
    for (const label of ['Name', 'Street', 'House number', 'Postcode', 'City', 'Country']) {
      await expect(page.getByText(`${label} is required`, { exact: true })).toBeVisible();
    }
    await expect(page.getByText('Registration number is required')).toBeVisible();

    // A name that exists: the service refuses, the form keeps everything.
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Agentur Nord');
    await page.getByRole('textbox', { name: 'Street', exact: true }).fill('Teststraße');
    await page.getByRole('textbox', { name: 'House number', exact: true }).fill('5');
    await page.getByRole('textbox', { name: 'Postcode', exact: true }).fill('10115');
    await page.getByRole('textbox', { name: 'City', exact: true }).fill('Berlin');
    await page.getByRole('textbox', { name: 'Country', exact: true }).fill('Deutschland');
    await page.getByRole('textbox', { name: 'Registration number', exact: true }).fill('HRB 4711');
    await page.getByRole('textbox', { name: 'Employees', exact: true }).fill('0');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page.getByText('The value must be at least 1')).toBeVisible();
    await page.getByRole('textbox', { name: 'Employees', exact: true }).fill('12');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      /An organisation with this name already exists\./,
    );
    await expect(page.getByRole('textbox', { name: 'Street', exact: true })).toHaveValue(
      'Teststraße',
    );

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/organizations\/\d+$/);
    await expect(page.getByText(`The organisation ${name} was created.`)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'City', exact: true })).toHaveValue('Berlin');
    await expect(page.getByText('HRB 4711')).toBeVisible();
    await expect(page.getByText('This organisation has no users yet.')).toBeVisible();
  });

  test('admin invites an organisation, re-invites and deletes the invitation', async ({ page }) => {
    const stamp = Date.now();
    const name = `Makler Öztürk ${stamp}`;
    const email = `org-${stamp}@example.test`;
    const corrected = `org-${stamp}-new@example.test`;
    await signIn(page, 'admin@demo.test');
    await openOrganizations(page);
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await expect(page).toHaveURL(/#tab=invitations/);
    await expect(invitationTable(page).getByRole('row').nth(1)).toBeVisible();

    await page.getByRole('button', { name: 'Invite an organisation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite an organisation' });
    await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(dialog.getByText('Contact e-mail is required')).toBeVisible();
    // Address and custom values are a proposal: no required message for them.
    await expect(dialog.getByText('Street is required')).toHaveCount(0);

    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await expect(
      dialog.getByRole('textbox', { name: 'Short name (slug)', exact: true }),
    ).toHaveValue(`makler-oeztuerk-${stamp}`);
    await dialog.getByRole('textbox', { name: 'Contact e-mail', exact: true }).fill(email);
    await dialog.getByRole('textbox', { name: 'City', exact: true }).fill('Leipzig');
    await dialog.getByRole('textbox', { name: 'Registration number', exact: true }).fill('HR');
    await dialog.getByRole('checkbox', { name: 'Show only' }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(dialog.getByText('Please enter at least 3 characters')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Registration number', exact: true }).fill('HRB 999');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`The invitation was sent to ${email}.`)).toBeVisible();
    await expect(dialog).toHaveCount(0);

    await page.getByRole('searchbox', { name: 'Filter Name' }).fill(String(stamp));
    const row = invitationTable(page).getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(email);
    await expect(row).toContainText('Show only');
    await expect(row).not.toContainText('Expired');

    const [first] = await outbox(page, email);
    // The demo tenant speaks German; the link is absolute.
    expect(first?.subject).toBe(`Registrieren Sie ${name}`);
    expect(first?.link).toMatch(/^http:\/\/localhost:\d+\/organization\/registration\?token=/);

    await page.getByRole('button', { name: `Re-invite ${name}` }).click();
    const reinvite = page.getByRole('dialog', { name: `Re-invite ${name}` });
    await expect(
      reinvite.getByRole('textbox', { name: 'Contact e-mail', exact: true }),
    ).toHaveValue(email);
    await reinvite.getByRole('textbox', { name: 'Contact e-mail', exact: true }).fill('broken');
    await reinvite.getByRole('button', { name: 'Send new link' }).click();
    await expect(reinvite.getByText('Please enter a valid e-mail address')).toBeVisible();
    await reinvite.getByRole('textbox', { name: 'Contact e-mail', exact: true }).fill(corrected);
    await reinvite.getByRole('button', { name: 'Send new link' }).click();
    await expect(page.getByText(`A new invitation link was sent to ${corrected}.`)).toBeVisible();
    await expect(row).toContainText(corrected);
    const [second] = await outbox(page, corrected);
    expect(second?.link).toMatch(/^http:\/\/localhost:\d+\/organization\/registration\?token=/);
    expect(second?.link).not.toBe(first?.link);

    await page.getByRole('button', { name: `Delete the invitation of ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the invitation?' });
    await expect(confirm).toContainText(corrected);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`The invitation of ${name} was deleted.`)).toBeVisible();
    await expect(page.getByText('No open organisation invitations.')).toBeVisible();
  });

  test('expired invitations are marked', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    // The service refuses an expiry in the past, so the list answer is aged instead.
    await page.route('**/tenantservice/v1/invitations/organizations?*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { items: { name: string; expiresAt: string }[] };
      body.items = body.items.map((item) =>
        item.name === 'Makler Müller GmbH' ? { ...item, expiresAt: '2020-01-01T00:00:00Z' } : item,
      );
      await route.fulfill({ response, json: body });
    });
    await page.goto('/u/0/admin/organizations#tab=invitations');
    const table = invitationTable(page);
    await expect(table.getByRole('row').filter({ hasText: 'Makler Müller GmbH' })).toContainText(
      'Expired',
    );
    await expect(
      table.getByRole('row').filter({ hasText: 'Versicherungsbüro Lange' }),
    ).not.toContainText('Expired');
  });

  test('a user who may only view organisations sees read-only forms', async ({ page, baseURL }) => {
    // Setup through the API as the administrator: a role with organisations.view only.
    const admin = await apiAs(baseURL!, 'admin@demo.test');
    const api = '/api/0/tenantservice/v1';
    const role = await admin.post(`${api}/roles`, {
      data: {
        code: `org-viewer-${Date.now()}`,
        label: 'Organisation viewer',
        permissions: [
          'ui.eis.view',
          'tenant-management.tenants.view',
          'tenant-management.settings.view',
          'tenant-management.organizations.view',
        ],
      },
    });
    expect(role.status()).toBe(201);
    const roleId = ((await role.json()) as { role: { id: number } }).role.id;
    const found = await admin.get(`${api}/users?filter=email=${VIEW_ONLY_USER}`);
    const userId = ((await found.json()) as { items: { id: number }[] }).items[0]!.id;
    const assigned = await admin.post(`${api}/users/${userId}/assign-roles`, {
      data: { roleIds: [roleId] },
    });
    expect(assigned.ok()).toBe(true);
    await admin.dispose();

    await signIn(page, VIEW_ONLY_USER);
    await openOrganizations(page);
    await expect(orgTable(page).getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByRole('link', { name: 'New organisation' })).toHaveCount(0);

    await page.getByRole('tab', { name: 'Invitations' }).click();
    await expect(invitationTable(page).getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Invite an organisation' })).toHaveCount(0);
    await expect(
      page.getByRole('button', { name: /^(Re-invite|Delete the invitation)/ }),
    ).toHaveCount(0);

    await page.getByRole('tab', { name: 'Organisations' }).click();
    await orgTable(page).getByRole('link', { name: 'Agentur West' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Agentur West' })).toBeVisible();
    await expect(page.getByText('You may view this organisation but not change it.')).toBeVisible();
    for (const label of ['Street', 'House number', 'Postcode', 'City', 'Country']) {
      await expect(page.getByRole('textbox', { name: label, exact: true })).toHaveAttribute(
        'readonly',
        '',
      );
    }
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    await expect(
      page.getByText('You need the permission to view users to see who belongs'),
    ).toBeVisible();

    // The create screen itself is guarded by the route table.
    await page.goto('/u/0/admin/organizations/new');
    await expect(page.getByRole('heading', { name: 'Error 403' })).toBeVisible();
  });

  test('an unknown organisation says so', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await page.goto('/u/0/admin/organizations/999999');
    await expect(
      page.getByText('This organisation does not exist or belongs to another workspace.'),
    ).toBeVisible();
  });

  test('the screens have no serious accessibility violations', async ({ page }) => {
    // Four full axe scans: on a loaded two-core machine they need more than the default 30 s.
    test.slow();
    await signIn(page, 'admin@demo.test');
    await openOrganizations(page);
    await expect(orgTable(page).getByRole('row').nth(1)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('tab', { name: 'Invitations' }).click();
    await expect(invitationTable(page).getByRole('row').nth(1)).toBeVisible();
    await page.getByRole('button', { name: 'Invite an organisation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite an organisation' });
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    // Focus goes back to the button that opened the dialog.
    await expect(page.getByRole('button', { name: 'Invite an organisation' })).toBeFocused();

    await page.goto('/u/0/admin/organizations/new');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.goto('/u/0/admin/organizations');
    await orgTable(page).getByRole('link', { name: 'Agentur Süd' }).click();
    await expect(page.getByRole('table', { name: 'Users of the organisation' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

/** The invitation dialog of a German-speaking administrator. */
async function germanInvitationDialog(page: Page) {
  await signIn(page, 'admin@demo.test');
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.goto('/u/0/admin/organizations#tab=invitations');
  await page.getByRole('button', { name: 'Organisation einladen' }).click();
  return page.getByRole('dialog', { name: 'Organisation einladen' });
}

test('eine Einladung für einen vergebenen Namen wird im Dialog am Namen abgelehnt', async ({
  page,
}) => {
  const stamp = Date.now();
  const dialog = await germanInvitationDialog(page);
  const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
  await expect(name).toHaveAttribute('maxlength', '200');
  await expect(dialog.getByRole('textbox', { name: 'Straße', exact: true })).toHaveAttribute(
    'maxlength',
    '200',
  );
  // A seeded organisation's name, in other letter case: the invitee could never register it.
  await name.fill(EDITED_ORG.toUpperCase());
  await dialog
    .getByRole('textbox', { name: 'Kontakt-E-Mail', exact: true })
    .fill(`dupe-${stamp}@example.test`);
  await dialog.getByRole('button', { name: 'Einladung senden' }).click();
  await expect(name.locator('xpath=..').getByRole('listitem')).toHaveText([
    'Eine Organisation mit diesem Namen gibt es bereits.',
  ]);
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toBeVisible();
  const mails = await outbox(page, `dupe-${stamp}@example.test`);
  expect(mails).toEqual([]);
});

test('eine Einladung an eine Adresse mit Konto wird im Dialog an der E-Mail abgelehnt', async ({
  page,
}) => {
  const stamp = Date.now();
  const dialog = await germanInvitationDialog(page);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(`Konto GmbH ${stamp}`);
  // A seeded user's address: the contact could never register with it (409 at the end).
  const email = dialog.getByRole('textbox', { name: 'Kontakt-E-Mail', exact: true });
  await email.fill('care@demo.test');
  await dialog.getByRole('button', { name: 'Einladung senden' }).click();
  await expect(email.locator('xpath=..').getByRole('listitem')).toHaveText([
    'Für diese E-Mail-Adresse gibt es bereits ein Konto. Laden Sie die Organisation mit einer anderen Kontaktadresse ein.',
  ]);
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toBeVisible();
});
