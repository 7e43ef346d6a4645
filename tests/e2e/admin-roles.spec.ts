import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// Seed users that no other spec uses: one gets the new role, one becomes a limited role editor.
const HOLDER = 'emma.weber@demo.test';
const LIMITED = 'noah.wolf@demo.test';
const T = '/api/0/tenantservice/v1';

async function openRoles(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Roles' })
    .click();
  await expect(page).toHaveURL(/\/u\/0\/admin\/roles$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Roles' })).toBeVisible();
}

const rolesTable = (page: Page) => page.getByRole('table', { name: 'Roles' });
const cell = (page: Page, module: string, resource: string, action: string) =>
  page.getByRole('checkbox', { name: `${module} / ${resource}: ${action}`, exact: true });

async function setRoles(page: Page, email: string, role: string, on: boolean) {
  await page.goto('/u/0/admin/users');
  await page.getByLabel('Search users').fill(email);
  const users = page.getByRole('table', { name: 'Users' });
  await expect(users.getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: `Roles of ${email}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('checkbox', { name: role }).setChecked(on);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`The roles of ${email} were saved.`)).toBeVisible();
}

test.describe('roles administration', () => {
  test('admin filters by module, creates, edits, sees who holds it and deletes a role', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const code = `claims-auditor-${stamp}`;
    const name = `Claims auditor ${stamp}`;
    await signIn(page, 'admin@demo.test');
    await openRoles(page);
    const table = rolesTable(page);
    await expect(table.getByRole('link', { name: 'Product manager' })).toBeVisible();
    await expect(table).toContainText('All permissions (administrator)');
    await expectNoSeriousA11yViolations(page);

    // The module filter asks the service: roles reaching into claims, wildcards included.
    await page.getByLabel('Module').selectOption({ label: 'Claim management' });
    await expect(table.getByRole('link', { name: 'Customer care' })).toBeVisible();
    await expect(table.getByRole('link', { name: 'Administrator' })).toBeVisible();
    await expect(table.getByRole('link', { name: 'Product manager' })).toHaveCount(0);
    await page.getByLabel('Module').selectOption({ label: 'All modules' });
    await expect(table.getByRole('link', { name: 'Product manager' })).toBeVisible();

    // Create.
    await page.getByRole('link', { name: 'New role' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New role' })).toBeVisible();
    await page.getByLabel('Code').fill('Not Valid');
    await page.getByRole('button', { name: 'Save role' }).click();
    await expect(page.getByText('The value is invalid')).toBeVisible();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expect(page.getByText('Choose at least one permission')).toBeVisible();
    await page.getByLabel('Code').fill(code);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await page
      .getByRole('textbox', { name: 'Description', exact: true })
      .fill('Reads claims and their dashboards');
    await cell(page, 'Claim management', 'Claims', 'View').check();
    await cell(page, 'Reporting', 'Dashboards', 'View').check();
    await cell(page, 'User interface', 'Insurance suite', 'View').check();
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Save role' }).click();
    await expect(page.getByText(`The role ${name} was saved.`)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/roles$/);
    const row = table.getByRole('row').filter({ hasText: code });
    await expect(row).toContainText('Permissions: 3');
    await expect(row).toContainText('Claim management (1)');

    // The same code again is refused by the service; what was typed stays.
    await page.getByRole('link', { name: 'New role' }).click();
    await page.getByLabel('Code').fill(code);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Duplicate');
    await cell(page, 'Reporting', 'Dashboards', 'View').check();
    await page.getByRole('button', { name: 'Save role' }).click();
    await expect(page.getByText('A role with this code exists already.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Duplicate');
    await expect(cell(page, 'Reporting', 'Dashboards', 'View')).toBeChecked();
    await page.getByRole('link', { name: 'Back to roles' }).click();

    // Edit: "All" of claims includes the single actions, which show as included.
    await table.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Role: ${name}` })).toBeVisible();
    await expect(page.getByLabel('Code')).toHaveAttribute('readonly', '');
    await expect(cell(page, 'Claim management', 'Claims', 'View')).toBeChecked();
    await cell(page, 'Claim management', 'Claims', 'All').check();
    const included = page.getByRole('checkbox', {
      name: 'Claim management / Claims: Delete (included in claim-management.claims.*)',
    });
    await expect(included).toBeChecked();
    await expect(included).toBeDisabled();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`${name} II`);
    await page.getByRole('button', { name: 'Save role' }).click();
    await expect(page.getByText(`The role ${name} II was saved.`)).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: code })).toContainText(`${name} II`);

    // A user holding it: the effective permissions say which role grants what.
    await setRoles(page, HOLDER, `${name} II`, true);
    await page.getByRole('link', { name: `Effective permissions of ${HOLDER}` }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Effective permissions' }),
    ).toBeVisible();
    await expect(page.getByText(`(${HOLDER})`)).toBeVisible();
    const permissionRow = page.getByRole('row', { name: /claim-management\.claims\.\*/ });
    await expect(permissionRow).toContainText(`${name} II`);
    await expect(page.getByRole('row', { name: /^ui\.eis\.view/ })).toContainText('Show only');
    await expectNoSeriousA11yViolations(page);

    // Delete: refused while assigned, with the reason; then done after unassigning.
    await permissionRow.getByRole('link', { name: `${name} II` }).click();
    await page.getByRole('button', { name: 'Delete role' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete role' }).click();
    await expect(dialog).toContainText('This role is still assigned to users.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Delete role' })).toBeFocused();

    await setRoles(page, HOLDER, `${name} II`, false);
    await page.goto('/u/0/admin/roles');
    await rolesTable(page)
      .getByRole('link', { name: `${name} II` })
      .click();
    await page.getByRole('button', { name: 'Delete role' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete role' }).click();
    await expect(page.getByText(`The role ${name} II was deleted.`)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/roles$/);
    await expect(rolesTable(page).getByRole('link', { name: 'Customer care' })).toBeVisible();
    await expect(rolesTable(page).getByText(code)).toHaveCount(0);
  });

  test('a user who may view roles but not change them sees them read-only', async ({ page }) => {
    await signIn(page, 'viewer@demo.test');
    await openRoles(page);
    await expect(page.getByRole('link', { name: 'New role' })).toHaveCount(0);
    await rolesTable(page).getByRole('link', { name: 'Customer care' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Role: Customer care' }),
    ).toBeVisible();
    await expect(page.getByText('You may view this role but not change it.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save role' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete role' })).toHaveCount(0);
    const claims = cell(page, 'Claim management', 'Claims', 'All');
    await expect(claims).toBeChecked();
    await expect(claims).toBeDisabled();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute(
      'readonly',
      '',
    );
    await expectNoSeriousA11yViolations(page);

    // A permission outside the catalogue is listed on its own; the boxes it includes show so.
    await page.getByRole('link', { name: 'Back to roles' }).click();
    await rolesTable(page).getByRole('link', { name: 'Administrator' }).click();
    const wildcard = page.getByRole('checkbox', { name: '*.*.*', exact: true });
    await expect(wildcard).toBeChecked();
    await expect(wildcard).toBeDisabled();
    await expect(
      page.getByRole('checkbox', { name: 'Claim management / Claims: View (included in *.*.*)' }),
    ).toBeChecked();
  });

  test('a role editor grants only what they hold; the service refuses the rest', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const stamp = Date.now();
    const keeper = `Role keeper ${stamp}`;
    await signIn(page, 'admin@demo.test');
    // Set up through the same API the screens use: a role editor with few permissions.
    const headers = { 'X-CSRF': '1' };
    const created = await page.request.post(`${T}/roles`, {
      headers,
      data: {
        code: `role-keeper-${stamp}`,
        label: keeper,
        // Without tenant-management (which every seeded role has), so the list gets shorter.
        permissions: ['ui.eis.view', 'identity-management.roles.*', 'reporting.dashboards.view'],
      },
    });
    expect(created.status()).toBe(201);
    const roleId = (await created.json()).role.id as number;
    const users = await page.request.get(`${T}/users?search=${encodeURIComponent(LIMITED)}`);
    const userId = (await users.json()).items[0].id as number;
    const assigned = await page.request.post(`${T}/users/${userId}/assign-roles`, {
      headers,
      data: { roleIds: [roleId] },
    });
    expect(assigned.status()).toBe(200);

    const context = await browser.newContext();
    const limited = await context.newPage();
    await limited.addInitScript(() => localStorage.setItem('bo.language', 'en'));
    await signIn(limited, LIMITED);
    await limited.goto('/u/0/admin/roles');
    // Only roles of the modules this user sees: reporting and identity management.
    await expect(
      limited.getByText(/Only roles of the modules you can see are listed/),
    ).toBeVisible();
    await expect(rolesTable(limited).getByRole('link', { name: keeper })).toBeVisible();
    await expect(rolesTable(limited).getByRole('link', { name: 'Customer care' })).toHaveCount(0);

    // A role holding more than the editor: shown, not changeable.
    await rolesTable(limited).getByRole('link', { name: 'Administrator' }).click();
    await expect(
      limited.getByText(/holds permissions you do not have \(\*\.\*\.\*\)/),
    ).toBeVisible();
    await expect(limited.getByRole('button', { name: 'Save role' })).toHaveCount(0);

    await limited.goto('/u/0/admin/roles/new');
    await expect(cell(limited, 'Claim management', 'Claims', 'View')).toBeDisabled();
    await expect(cell(limited, 'Claim management', 'Claims', 'View')).toHaveAccessibleDescription(
      /nobody can grant or remove a permission they do not have/,
    );
    await expect(cell(limited, 'Reporting', 'Dashboards', 'View')).toBeEnabled();
    await expect(cell(limited, 'Reporting', 'Dashboards', 'Update')).toBeDisabled();

    // Permissions taken away after the page opened: the service answers escalation, translated,
    // and what was entered stays.
    await limited.getByLabel('Code').fill(`reporter-${stamp}`);
    await limited.getByRole('textbox', { name: 'Name', exact: true }).fill('Reporter');
    await cell(limited, 'Reporting', 'Dashboards', 'View').check();
    const narrowed = await page.request.put(`${T}/roles/${roleId}`, {
      headers,
      data: {
        label: keeper,
        permissions: ['ui.eis.view', 'identity-management.roles.*'],
      },
    });
    expect(narrowed.status()).toBe(200);
    await limited.getByRole('button', { name: 'Save role' }).click();
    await expect(
      limited.getByText('You cannot grant or remove a permission you do not hold yourself.'),
    ).toBeVisible();
    await expect(limited.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(
      'Reporter',
    );
    await expect(cell(limited, 'Reporting', 'Dashboards', 'View')).toBeChecked();
    await expectNoSeriousA11yViolations(limited);
    await context.close();

    // Leave the seed as it was.
    await page.request.post(`${T}/users/${userId}/assign-roles`, {
      headers,
      data: { roleCodes: ['show-only'] },
    });
    await page.request.delete(`${T}/roles/${roleId}`, { headers });
  });
});
