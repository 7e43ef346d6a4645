import type { Page } from '@playwright/test';
import { apiAs, expect, openProfileMenu, signIn, test } from './fixtures.ts';

// Issue 16, defect 10: the administration at the widths it was tried at (400 and 1366 px).

test('at 400 px the profile menu is on screen and switches the workspace', async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await signIn(page, 'admin@demo.test');
  const trigger = page.getByRole('button', { name: /^Account menu for / });
  const box = (await trigger.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(400);
  // Nothing pushes the page sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);

  await openProfileMenu(page);
  const sandbox = page.getByRole('menuitem', { name: /Demo Sandbox/ });
  await expect(sandbox).toBeInViewport();
  await sandbox.click();
  await page
    .getByRole('dialog', { name: 'Switch workspace' })
    .getByRole('button', { name: 'Switch' })
    .click();
  await expect(page.getByTestId('home-workspace')).toHaveText('demo-sandbox');
});

// German's words are the longest of the three languages: the same checks hold in both.
const USERS_TABLE = {
  en: {
    table: 'Users',
    actions: 'Actions',
    single: 'Status',
    headers: ['Organisation', 'Roles', 'Created', 'Actions'],
  },
  de: {
    table: 'Benutzer',
    actions: 'Aktionen',
    single: 'Status',
    headers: ['Organisation', 'Rollen', 'Angelegt', 'Aktionen'],
  },
  pl: {
    table: 'Użytkownicy',
    actions: 'Akcje',
    single: 'Status',
    headers: ['Organizacja', 'Role', 'Utworzono', 'Akcje'],
  },
} as const;

/** The administrator at a screen `width` wide, in `language`. */
async function adminAt(page: Page, width: number, language: string) {
  await page.setViewportSize({ width, height: 900 });
  await signIn(page, 'admin@demo.test');
  await page.evaluate((l) => localStorage.setItem('bo.language', l), language);
}

for (const [language, texts] of Object.entries(USERS_TABLE)) {
  test(`at 1366 px the users table shows its whole actions column and unbroken headers (${language})`, async ({
    page,
  }) => {
    await adminAt(page, 1366, language);
    await page.goto('/u/0/admin/users');
    const table = page.getByRole('table', { name: texts.table, exact: true });
    const firstRow = table.getByRole('row').nth(1);
    await expect(firstRow).toBeVisible();

    const frame = (await table.boundingBox())!;
    const right = frame.x + frame.width;
    const actions = (await page.getByRole('columnheader', { name: texts.actions }).boundingBox())!;
    expect(actions.x + actions.width).toBeLessThanOrEqual(right + 0.5);
    // Every control of the row's actions lies inside the table, none cut off at its edge.
    const controls = firstRow.getByRole('cell').last().locator('button, a');
    expect(await controls.count()).toBe(4);
    for (const control of await controls.all()) {
      const b = (await control.boundingBox())!;
      expect(b.x + b.width, await control.innerText()).toBeLessThanOrEqual(right);
    }
    // The table does not scroll sideways to reach them.
    const scroller = table.locator(
      'xpath=ancestor-or-self::*[contains(@class,"overflow-auto")][1]',
    );
    expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);

    // Headers break between words only: each is one line high like "Status".
    const lineHeight = async (name: string) =>
      page.getByRole('columnheader', { name, exact: true }).evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getClientRects().length
          ? Math.round(
              Math.max(...[...range.getClientRects()].map((r) => r.bottom)) -
                Math.min(...[...range.getClientRects()].map((r) => r.top)),
            )
          : 0;
      });
    const single = await lineHeight(texts.single);
    for (const name of texts.headers) {
      expect(await lineHeight(name), name).toBeLessThanOrEqual(single + 2);
    }
  });
}

// At 400 px in German and Polish (the longest words), pages with wide parts scroll those parts,
// never the whole page sideways: the settings tabs, the new role's permission tables and a
// policy's versions table (with a restore button per older version it made the German page
// 415 px wide, found in a walk).
const NARROW_PAGES = {
  de: { settings: 'Einstellungen', role: 'Neue Rolle', tab: 'Chat-Widget', versions: 'Versionen' },
  pl: { settings: 'Ustawienia', role: 'Nowa rola', tab: 'Widżet czatu', versions: 'Wersje' },
} as const;

/** A seeded policy of the demo workspace with two versions: the older one can be restored. */
async function policyWithVersions(baseURL: string): Promise<string> {
  const admin = await apiAs(baseURL, 'admin@demo.test');
  try {
    const list = await admin.get('/api/0/insuranceservice/v1/policies?pageSize=30');
    expect(list.ok()).toBe(true);
    for (const { code } of ((await list.json()) as { items: { code: string }[] }).items) {
      const versions = await admin.get(`/api/0/insuranceservice/v1/policies/${code}/versions`);
      const { items } = (await versions.json()) as { items: unknown[] };
      if (items.length === 2) return code;
    }
    throw new Error('no seeded policy with two versions among the first 30');
  } finally {
    await admin.dispose();
  }
}

for (const [language, texts] of Object.entries(NARROW_PAGES)) {
  test(`at 400 px settings, the role editor and a policy do not push the page sideways (${language})`, async ({
    page,
    baseURL,
  }) => {
    await adminAt(page, 400, language);
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);

    await page.goto('/u/0/settings');
    await expect(page.getByRole('heading', { level: 1, name: texts.settings })).toBeVisible();
    expect(await pageWidth()).toBeLessThanOrEqual(400);
    // The tab strip scrolls by itself; a tab's name stays on one line.
    const tab = page.getByRole('tab', { name: texts.tab });
    await tab.scrollIntoViewIfNeeded();
    await expect(tab).toBeInViewport();
    const box = (await tab.boundingBox())!;
    expect(box.height).toBeLessThan(45);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');

    await page.goto('/u/0/admin/roles/new');
    await expect(page.getByRole('heading', { level: 1, name: texts.role })).toBeVisible();
    await expect(page.getByRole('table').first()).toBeVisible();
    expect(await pageWidth()).toBeLessThanOrEqual(400);

    // A policy with an older version, which the administrator may restore: its versions table
    // scrolls inside its own frame.
    const code = await policyWithVersions(baseURL!);
    await page.goto(`/u/0/policies/${code}`);
    const versions = page.getByRole('table', { name: texts.versions, exact: true });
    await expect(versions.getByRole('row')).toHaveCount(3);
    expect(await pageWidth()).toBeLessThanOrEqual(400);
  });
}

// The seeded roles' names and descriptions in the user's language, not English (issue 16,
// Keycloak list), in the roles list, the users list and its role filter.
const ROLE_DESCRIPTIONS = {
  de: {
    table: 'Rollen',
    name: 'Kundenbetreuung',
    description: 'Betreut Kunden, Verträge und Schäden',
    users: 'Benutzer',
    filter: 'Rolle',
  },
  pl: {
    table: 'Role',
    name: 'Obsługa klienta',
    description: 'Obsługuje klientów, polisy i szkody',
    users: 'Użytkownicy',
    filter: 'Rola',
  },
} as const;

for (const [language, texts] of Object.entries(ROLE_DESCRIPTIONS)) {
  test(`the roles list describes the seeded roles in the user's language (${language})`, async ({
    page,
  }) => {
    await adminAt(page, 1366, language);
    await page.goto('/u/0/admin/roles');
    const table = page.getByRole('table', { name: texts.table, exact: true });
    await expect(table.getByRole('cell', { name: texts.description })).toBeVisible();
    await expect(table.getByRole('link', { name: texts.name, exact: true })).toBeVisible();
    await expect(table).not.toContainText('Looks after customers');
    await expect(table).not.toContainText('Customer care');

    await page.goto('/u/0/admin/users');
    const users = page.getByRole('table', { name: texts.users, exact: true });
    await expect(users.getByRole('cell', { name: texts.name, exact: true }).first()).toBeVisible();
    await expect(page.getByLabel(texts.filter, { exact: true })).toContainText(texts.name);
    await expect(users).not.toContainText('Customer care');
  });
}

/** A computed colour (Tailwind writes oklch) as sRGB, through a 1-pixel canvas. */
const rgbOf = (el: Element) => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const context = canvas.getContext('2d')!;
  context.fillStyle = getComputedStyle(el).backgroundColor;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
  return { r: r!, g: g!, b: b!, cursor: getComputedStyle(el).cursor };
};

test('a disabled destructive button looks disabled', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/u/0/admin/users');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const remove = page.getByRole('button', { name: 'Delete selected' });
  await expect(remove).toBeDisabled();
  // Grey, not (pale) red: the channels stay close together; and the pointer says no.
  const off = await remove.evaluate(rgbOf);
  expect(Math.abs(off.r - off.g), JSON.stringify(off)).toBeLessThan(30);
  expect(Math.abs(off.g - off.b), JSON.stringify(off)).toBeLessThan(30);
  expect(off.cursor).toBe('not-allowed');

  // With a user selected it is the red destructive button again.
  await table.getByRole('row').nth(2).getByRole('checkbox').check();
  await expect(remove).toBeEnabled();
  // Read once the button's colour transition has run (read at once, it was half-way).
  await expect
    .poll(async () => {
      const on = await remove.evaluate(rgbOf);
      return on.r - on.g;
    })
    .toBeGreaterThan(80);
});

// A role of the tenant's own named in German and Polish in the role editor: the list shows the
// name of the reader's language (issue 16).
test('a role named per language in the role editor (de)', async ({ page, baseURL }) => {
  const api = await apiAs(baseURL!, 'admin@demo.test');
  const created = await api.post('/api/0/tenantservice/v1/roles', {
    data: {
      code: `assessor-${Date.now()}`,
      label: 'Assessor',
      permissions: ['claim-management.claims.view'],
    },
  });
  expect(created.status()).toBe(201);
  const { id } = ((await created.json()) as { role: { id: number } }).role;
  await api.dispose();

  await adminAt(page, 1366, 'de');
  await page.goto(`/u/0/admin/roles/${id}`);
  await page.getByRole('textbox', { name: 'Name auf Deutsch' }).fill('Gutachter');
  await page.getByRole('textbox', { name: 'Name auf Polnisch' }).fill('Rzeczoznawca');
  await page.getByRole('button', { name: 'Rolle speichern' }).click();
  await expect(page.getByText('Die Rolle Gutachter wurde gespeichert.')).toBeVisible();
  const table = page.getByRole('table', { name: 'Rollen', exact: true });
  await expect(table.getByRole('link', { name: 'Gutachter', exact: true })).toBeVisible();

  // In Polish, the Polish name. (English, which has none, shows the tenant's language's name.)
  await page.evaluate(() => localStorage.setItem('bo.language', 'pl'));
  await page.reload();
  await expect(
    page
      .getByRole('table', { name: 'Role', exact: true })
      .getByRole('link', { name: 'Rzeczoznawca' }),
  ).toBeVisible();
});
