import type { Page } from '@playwright/test';
import { colleague, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';
import { createHomePolicy, displayDay, isoDay } from './policy-setup.ts';

// Customer care users no other spec signs in with: each test makes its own policy and claims,
// so that reruns and other specs never meet its rows. The show-only user only reads.
const CARE = 'lukas.schulz@demo.test';
const COLLEAGUE = 'lina.schroeder@demo.test';
const VIEWER = 'elias.richter@demo.test';

const CLAIMS = '/api/0/claimservice/v1';
const CSRF = { 'X-CSRF': '1' };

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A home-contents policy of this spec's own, held by Greta Schadenfroh (see createHomePolicy). */
const createPolicy = (page: Page) =>
  createHomePolicy(page, { firstName: 'Greta', lastName: `Schadenfroh ${stamp()}` });

/** A claim on a new policy of its own, through the BFF; returns its code and number. */
async function createClaim(page: Page): Promise<{ code: string; number: string }> {
  const policy = await createPolicy(page);
  const created = await page.request.post(`${CLAIMS}/claims`, {
    headers: CSRF,
    data: {
      policyCode: policy.code,
      title: `Storm damage ${stamp()}`,
      claimType: 'damage',
      damageDate: isoDay(-3),
      customFields: { damageLocation: 'Dachboden' },
    },
  });
  expect(created.status()).toBe(201);
  const { claim } = await created.json();
  return { code: claim.code, number: claim.claimNumber };
}

const claimTable = (page: Page) => page.getByRole('table', { name: 'Claims', exact: true });

async function openClaims(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Claims' })
    .click();
  await expect(page).toHaveURL(/\/u\/0\/claims$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Claims' })).toBeVisible();
}

/** Moves the claim on through the status select and the confirm dialog. */
async function move(page: Page, status: string) {
  await page.getByRole('combobox', { name: 'Move to status' }).selectOption({ label: status });
  await page.getByRole('button', { name: 'Change status' }).click();
  const dialog = page.getByRole('dialog', { name: `Move to ${status}?` });
  await dialog.getByRole('button', { name: `Move to ${status}` }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('claim-status')).toHaveText(status);
  // Focus stays in the status section (the next choice, or its heading when none is left).
  await expect(page.locator('[aria-labelledby="claim-status-move"] :focus')).toHaveCount(1);
}

/** Moves a claim to approved through the BFF, on top of the version it has now. */
async function approve(page: Page, code: string) {
  for (const status of ['in-review', 'approved']) {
    const current = await (await page.request.get(`${CLAIMS}/claims/${code}`)).json();
    const moved = await page.request.patch(`${CLAIMS}/claims/${code}`, {
      headers: CSRF,
      data: { version: current.claim.version, status },
    });
    expect(moved.status()).toBe(200);
  }
}

const moveOptions = (page: Page) =>
  page.getByRole('combobox', { name: 'Move to status' }).getByRole('option');

test.describe('claims', () => {
  test('the list filters by status and type, sorts, keeps it all in the address and opens a claim; a show-only user changes nothing', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, VIEWER);
    await openClaims(page);
    await expect(claimTable(page).getByRole('row').nth(1)).toBeVisible();
    // Reading only: no way to a new claim.
    await expect(page.getByRole('link', { name: 'New claim' })).toHaveCount(0);

    // Statuses come from the server, by name; several can be chosen.
    const statuses = page.getByRole('group', { name: 'Status' }).getByRole('checkbox');
    await expect(statuses).toHaveCount(7);
    // The address holds the choice: a click, then the checkbox follows the address.
    await page.getByRole('checkbox', { name: 'Approved' }).click();
    await expect(page.getByRole('checkbox', { name: 'Approved' })).toBeChecked();
    await expect(page).toHaveURL(/[?&]status=approved(&|$)/);
    await expect(claimTable(page).getByRole('cell', { name: 'Open', exact: true })).toHaveCount(0);
    await expect(
      claimTable(page).getByRole('cell', { name: 'Approved', exact: true }).first(),
    ).toBeVisible();
    await page.getByRole('combobox', { name: 'Claim type' }).selectOption({ label: 'Theft' });
    await expect(page).toHaveURL(/[?&]type=theft(&|$)/);
    await page.getByRole('button', { name: /^Damage date/ }).click();
    await expect(page.getByRole('columnheader', { name: /^Damage date/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(page).toHaveURL(/[?&]sort=damage%3Aasc(&|$)/);
    // The export repeats the list's query.
    const exportHref = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const exported = new URL(exportHref!, page.url());
    expect(exported.pathname).toBe('/api/0/export/claims.csv');
    expect(exported.searchParams.get('filter')).toBe('status=approved&claimType=theft');
    expect(exported.searchParams.get('order')).toBe('damageDate:ASC');
    await expectNoSeriousA11yViolations(page);

    // A reload keeps the filters and the sort.
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Approved' })).toBeChecked();
    await expect(page.getByRole('combobox', { name: 'Claim type' })).toHaveValue('theft');
    const dates = claimTable(page).getByRole('row').locator('[role=cell]:nth-child(6)');
    await expect(dates.first()).toHaveText(/^\d{2}\.\d{2}\.\d{4}$/);
    const shown = (await dates.allTextContents()).map((d) => d.split('.').reverse().join('-'));
    expect(shown).toEqual([...shown].sort());

    // The search narrows it to one claim, which opens.
    await page.getByRole('checkbox', { name: 'Approved' }).click();
    await expect(page.getByRole('checkbox', { name: 'Approved' })).not.toBeChecked();
    await page.getByRole('combobox', { name: 'Claim type' }).selectOption({ label: 'All' });
    await page.getByRole('searchbox', { name: 'Search claims' }).fill('S-000007');
    await expect(claimTable(page).getByRole('row')).toHaveCount(2);
    await claimTable(page).getByRole('link', { name: 'S-000007' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Claim S-000007' })).toBeVisible();
    await expect(page.getByRole('link', { name: /^POL-\d{6}$/ })).toBeVisible();

    // Show only: the data to read, and no control that changes anything.
    await expect(page.getByTestId('read-only-note')).toHaveText(
      'Your role may read this claim but not change it.',
    );
    await expect(page.getByTestId('claim-fields')).toContainText('Damage location');
    await expect(page.getByRole('combobox', { name: 'Move to status' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete claim' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('tab', { name: 'Settlements' }).click();
    await expect(page).toHaveURL(/#tab=settlements$/);
    await expect(page.getByTestId('settlement-totals')).toContainText('Totals');
    await expect(page.getByRole('button', { name: 'Add settlement' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Partners' }).click();
    await expect(page.getByTestId('claim-partners')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Link partner' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Documents' }).click();
    await expect(page).toHaveURL(/#tab=documents$/);
    await expectNoSeriousA11yViolations(page);

    // An unknown claim does not exist, and says so without offering to retry.
    await page.goto('/u/0/claims/clm_doesnotexist');
    await expect(page.getByText('Claim does not exist.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  });

  test('customer care creates a claim for a policy with its custom fields and takes it through its statuses', async ({
    page,
    browser,
  }) => {
    test.setTimeout(150_000);
    await signIn(page, CARE);
    const policy = await createPolicy(page);
    const title = `Burst pipe ${stamp()}`;
    await openClaims(page);
    await page.getByRole('link', { name: 'New claim' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New claim' })).toBeVisible();

    // Nothing filled in: every required field says so, the tenant's custom field too. Focus
    // moves to the first of them, the policy picker, which opens as it does on any focus.
    const picker = page.getByRole('combobox', { name: 'Policy' });
    const firstPage = page.waitForResponse((r) =>
      r.url().includes('/insuranceservice/v1/policies?'),
    );
    await page.getByRole('button', { name: 'Create claim' }).click();
    await expect(page.getByText('This field is required.')).toHaveCount(4);
    await expect(page.getByText('Damage location is required')).toBeVisible();
    await expect(picker).toBeFocused();

    // The policy picker searches the policies, 10 at a time, with number and holder.
    await picker.click();
    expect(new URL((await firstPage).url()).searchParams.get('pageSize')).toBe('10');
    await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(10);
    await picker.fill(policy.number);
    const option = page.getByRole('option', { name: new RegExp(`^${policy.number}`) });
    await expect(option).toContainText('Greta Schadenfroh');
    await option.click();
    await expect(picker).toHaveValue(policy.number);

    await page.getByRole('textbox', { name: 'Title' }).fill(title);
    await page.getByRole('combobox', { name: 'Claim type' }).selectOption({ label: 'Damage' });
    // The policy started ten days ago: an older damage is refused before the service is asked.
    const damage = page.getByRole('textbox', { name: 'Date of damage' });
    await damage.fill(displayDay(isoDay(-20)));
    await page.getByRole('textbox', { name: 'Damage location' }).fill('Keller');
    await page.getByRole('textbox', { name: 'Estimated damage (EUR)' }).fill('1200');
    await page.getByRole('button', { name: 'Create claim' }).click();
    await expect(page.getByText('The damage cannot be before the policy started.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue(title);
    await damage.fill(displayDay(isoDay(-2)));
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Create claim' }).click();

    // The new claim opens, open, with its custom fields.
    await expect(page).toHaveURL(/\/u\/0\/claims\/clm_[A-Za-z0-9]+$/);
    const heading = page.getByRole('heading', { level: 1, name: /^Claim S-\d{6}$/ });
    await expect(heading).toBeVisible();
    const number = (await heading.textContent())!.replace('Claim ', '');
    await expect(page.getByText(`Claim ${number} created.`)).toBeVisible();
    await expect(page.getByTestId('claim-title')).toHaveText(title);
    await expect(page.getByTestId('claim-status')).toHaveText('Open');
    await expect(page.getByRole('link', { name: policy.number })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Damage location' })).toHaveValue('Keller');
    await expect(page.getByRole('textbox', { name: 'Estimated damage (EUR)' })).toHaveValue('1200');

    // Only the moves the tenant's rules allow are offered, by name.
    await expect(moveOptions(page)).toHaveText(['Choose a status', 'In review', 'Rejected']);
    await move(page, 'In review');
    await expect(moveOptions(page)).toHaveText([
      'Choose a status',
      'Approved',
      'Rejected',
      'Waiting for documents',
    ]);

    // A colleague rejects it meanwhile: the move from the stale page is refused, translated.
    const other = await colleague(browser, COLLEAGUE);
    try {
      await other.page.goto(page.url());
      await move(other.page, 'Rejected');
    } finally {
      await other.close();
    }
    await page
      .getByRole('combobox', { name: 'Move to status' })
      .selectOption({ label: 'Approved' });
    await page.getByRole('button', { name: 'Change status' }).click();
    const refused = page.getByRole('dialog', { name: 'Move to Approved?' });
    await refused.getByRole('button', { name: 'Move to Approved' }).click();
    await expect(refused.getByRole('alert')).toHaveText(
      'Not moved: a claim in “Rejected” cannot move to “Approved”. The page shows the saved claim.',
    );
    await expectNoSeriousA11yViolations(page);
    await refused.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('claim-status')).toHaveText('Rejected');
    await expect(moveOptions(page)).toHaveText(['Choose a status', 'Closed', 'Open']);

    // Reopened, it goes the whole way to closed.
    for (const status of ['Open', 'In review', 'Approved', 'Settled', 'Closed']) {
      await move(page, status);
    }
    await expect(page.getByText('No status change is possible from “Closed”.')).toBeVisible();
    await expect(page.getByTestId('read-only-note')).toHaveText(
      'This claim is closed: its data can no longer change.',
    );
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Settlements' }).click();
    await expect(page.getByTestId('settlements-note')).toHaveText(
      'A claim in status “Closed” takes no settlement changes.',
    );
    await page.getByRole('tab', { name: 'Data' }).click();

    // Any status may be deleted, behind the confirm dialog.
    const claimUrl = page.url();
    await page.getByRole('button', { name: 'Delete claim' }).click();
    const remove = page.getByRole('dialog', { name: `Delete claim ${number}?` });
    await remove.getByRole('button', { name: 'Delete claim' }).click();
    await expect(page).toHaveURL(/\/u\/0\/claims$/);
    await expect(page.getByText(`Claim ${number} deleted.`)).toBeVisible();
    await page.goto(claimUrl);
    await expect(page.getByText('Claim does not exist.')).toBeVisible();
  });

  test('customer care edits a claim, settles it with totals and links and removes a partner', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, CARE);
    const claim = await createClaim(page);
    await page.goto(`/u/0/claims/${claim.code}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Claim ${claim.number}` }),
    ).toBeVisible();

    // The data saves on top of its version: a title saved meanwhile meets this user's input in
    // the conflict panel, which saves it over the other knowingly.
    const meanwhile = await page.request.patch(`${CLAIMS}/claims/${claim.code}`, {
      headers: CSRF,
      data: { version: 1, title: 'Storm damage, renamed meanwhile' },
    });
    expect(meanwhile.status()).toBe(200);
    await page.getByRole('textbox', { name: 'Description' }).fill('Roof tiles blown off.');
    await page.getByRole('textbox', { name: 'Police report number' }).fill('PR-2025-1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // Saved through this user's own session, so the panel says it was them, in another tab.
    const conflict = page.getByRole('alert', { name: 'This record was changed in another tab' });
    await expect(conflict.getByRole('row')).toHaveCount(2);
    await expect(conflict.getByRole('row').nth(1)).toContainText('Storm damage, renamed meanwhile');
    await expectNoSeriousA11yViolations(page);
    await conflict.getByRole('button', { name: 'Save my input over it' }).click();
    await expect(page.getByText('Claim saved.')).toBeVisible();
    await expect(page.getByTestId('claim-version')).toContainText('Version 3');
    await expect(page.getByTestId('claim-version')).toContainText('by Lukas Schulz');
    await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue(
      'Roof tiles blown off.',
    );

    // Payments are booked on approved claims only (issue 15): approved meanwhile, then read.
    await approve(page, claim.code);
    await page.reload();
    await page.getByRole('tab', { name: 'Settlements' }).click();
    await expect(page).toHaveURL(/#tab=settlements$/);
    await expect(page.getByText('This claim has no settlements yet.')).toBeVisible();
    const totals = page.getByTestId('settlement-totals');

    // The first: amounts as English writes them; a German one is refused, the input kept.
    await page.getByRole('button', { name: 'Add settlement' }).click();
    let dialog = page.getByRole('dialog', { name: 'New settlement' });
    await dialog
      .getByRole('combobox', { name: 'Insured object' })
      .selectOption({ label: 'Household' });
    await dialog.getByRole('textbox', { name: 'Reserve' }).fill('1.500,50');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(
      dialog.getByText('Please enter an amount of at most 100,000,000 with at most two decimals.'),
    ).toBeVisible();
    // Focus is on what to fix.
    await expect(dialog.getByRole('textbox', { name: 'Reserve' })).toBeFocused();
    await dialog.getByRole('textbox', { name: 'Reserve' }).fill('1,500.50');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Settlement saved.')).toBeVisible();
    await expect(totals).toContainText('€1,500.50');

    // The second: a reserve and a payment; the totals and the claim's paid amount follow.
    await page.getByRole('button', { name: 'Add settlement' }).click();
    dialog = page.getByRole('dialog', { name: 'New settlement' });
    await dialog
      .getByRole('combobox', { name: 'Insured object' })
      .selectOption({ label: 'Household' });
    await dialog.getByRole('textbox', { name: 'Reserve' }).fill('500');
    await dialog.getByRole('textbox', { name: 'Payment' }).fill('250.25');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('settlements').locator('tbody tr')).toHaveCount(2);
    await expect(totals.getByRole('cell')).toHaveText(['€2,000.50', '€250.25', '€0.00', '']);
    await expect(page.getByTestId('claim-paid')).toHaveText('€250.25');

    // Edited: the first one's payment.
    await page.getByRole('button', { name: 'Edit the settlement of Household' }).first().click();
    dialog = page.getByRole('dialog', { name: 'Edit settlement' });
    await expect(dialog.getByRole('textbox', { name: 'Reserve' })).toHaveValue('1500.50');
    await dialog.getByRole('textbox', { name: 'Payment' }).fill('1,000');
    await dialog.getByRole('textbox', { name: 'Recourse' }).fill('99.99');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(totals.getByRole('cell')).toHaveText(['€2,000.50', '€1,250.25', '€99.99', '']);

    // Money is never deleted: neither paid settlement offers a delete.
    await expect(
      page.getByRole('button', { name: 'Delete the settlement of Household' }),
    ).toHaveCount(0);
    await expect(page.getByTestId('claim-paid')).toHaveText('€1,250.25');

    // Partners: one chosen with the partner selector, in a role of the tenant.
    await page.getByRole('tab', { name: 'Partners' }).click();
    await expect(page.getByText('No partner is linked to this claim.')).toBeVisible();
    const partner = page.getByRole('combobox', { name: 'Partner' });
    await partner.fill('Kfz-Werkstatt');
    // The list opens with the first partners, then shows the matches once typing paused.
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /Kfz-Werkstatt/ })
      .first()
      .click();
    const name = await partner.inputValue();
    expect(name).toContain('Kfz-Werkstatt');
    await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Workshop' });
    await page.getByRole('button', { name: 'Link partner' }).click();
    await expect(page.getByText(`${name} linked as Workshop.`)).toBeVisible();
    const links = page.getByTestId('claim-partners').locator('tbody tr');
    await expect(links).toHaveCount(1);
    await expect(links.first()).toContainText(name);
    await expect(links.first()).toContainText('Workshop');
    await expectNoSeriousA11yViolations(page);

    // The same partner in the same role twice is refused.
    await partner.fill(name);
    await page
      .getByRole('listbox')
      .getByRole('option', { name: new RegExp(`^${escapeRegExp(name)}`) })
      .first()
      .click();
    await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Workshop' });
    await page.getByRole('button', { name: 'Link partner' }).click();
    await expect(page.getByText('This partner is linked in this role already.')).toBeVisible();

    await page.getByRole('button', { name: `Remove ${name} (Workshop)` }).click();
    const unlink = page.getByRole('dialog', { name: 'Remove the partner?' });
    await unlink.getByRole('button', { name: 'Remove partner' }).click();
    await expect(unlink).toBeHidden();
    await expect(page.getByText('No partner is linked to this claim.')).toBeVisible();
  });

  test('Schadenbearbeitung auf Deutsch: Deckung, Zahlung über dem Limit mit Freigabe durch eine zweite Person, Stornieren statt Löschen', async ({
    page,
    browser,
  }) => {
    test.setTimeout(150_000);
    await signIn(page, CARE);
    await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
    await page.addInitScript(() => localStorage.setItem('bo.language', 'de'));
    const claim = await createClaim(page);
    await page.goto(`/u/0/claims/${claim.code}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Schaden ${claim.number}` }),
    ).toBeVisible();

    // Cover: a home contents policy covers no health loss; the refusal shows at the field.
    await page.getByRole('combobox', { name: 'Schadenart' }).selectOption({ label: 'Gesundheit' });
    await page.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(
      page.getByText('Diese Schadenart ist vom Produkt des Vertrags nicht gedeckt.'),
    ).toBeVisible();
    await page.reload();

    // Payments wait until the claim is approved, and never exceed the reserve.
    await page.getByRole('tab', { name: 'Regulierung' }).click();
    await page.getByRole('button', { name: 'Regulierung hinzufügen' }).click();
    let dialog = page.getByRole('dialog', { name: 'Neue Regulierung' });
    await dialog
      .getByRole('combobox', { name: 'Versichertes Objekt' })
      .selectOption({ label: 'Haushalt' });
    await dialog.getByRole('textbox', { name: 'Reserve' }).fill('10000');
    await dialog.getByRole('textbox', { name: 'Zahlung' }).fill('100');
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(
      dialog.getByText('Zahlungen sind erst möglich, wenn der Schaden anerkannt ist.'),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();

    await approve(page, claim.code);
    await page.reload();
    await page.getByRole('button', { name: 'Regulierung hinzufügen' }).click();
    dialog = page.getByRole('dialog', { name: 'Neue Regulierung' });
    await dialog
      .getByRole('combobox', { name: 'Versichertes Objekt' })
      .selectOption({ label: 'Haushalt' });
    await dialog.getByRole('textbox', { name: 'Reserve' }).fill('10000');
    await dialog.getByRole('textbox', { name: 'Zahlung' }).fill('12000');
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(dialog.getByText(/verbleibende Reserve: 10\.000,00\s€/)).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Zahlung' })).toBeFocused();

    // 6 000 € is above customer care's limit of 5 000 €: recorded as awaiting approval.
    await dialog.getByRole('textbox', { name: 'Zahlung' }).fill('6000');
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/wartet auf die Freigabe durch eine zweite Person/)).toBeVisible();
    const pending = page.getByTestId('pending-payment');
    await expect(pending).toContainText(/Wartet auf Freigabe: 6\.000,00\s€/);
    await expect(pending).toContainText('Von Ihnen angewiesen: eine andere Person gibt frei.');
    await expect(page.getByTestId('claim-paid')).toHaveText(/0,00\s€/);
    await expectNoSeriousA11yViolations(page);

    // The administrator, at another desk, approves it.
    const admin = await colleague(browser, 'admin@demo.test');
    await admin.page.goto(`/u/0/claims/${claim.code}#tab=settlements`);
    await admin.page.getByRole('button', { name: 'Approve payment for Household' }).click();
    const approval = admin.page.getByRole('dialog', { name: 'Approve payment?' });
    await approval.getByRole('button', { name: 'Approve payment' }).click();
    await expect(approval).toBeHidden();
    await expect(admin.page.getByTestId('claim-paid')).toHaveText('€6,000.00');
    await admin.close();

    await page.reload();
    await expect(page.getByTestId('claim-paid')).toHaveText(/6\.000,00\s€/);
    await expect(page.getByTestId('pending-payment')).toHaveCount(0);

    // A booked payment is never lowered (zeroed, it could be deleted after): the dialog says why.
    await page.getByRole('button', { name: 'Regulierung zu Haushalt bearbeiten' }).click();
    dialog = page.getByRole('dialog', { name: 'Regulierung bearbeiten' });
    await dialog.getByRole('textbox', { name: 'Zahlung' }).fill('0');
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(
      dialog.getByText('Diese Zahlung ist bereits gebucht und kann nicht herabgesetzt werden'),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(page.getByTestId('claim-paid')).toHaveText(/6\.000,00\s€/);

    // A claim holding money is cancelled with a reason, never deleted.
    await page.getByRole('tab', { name: 'Daten' }).click();
    await expect(page.getByRole('button', { name: 'Schaden löschen' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Mit Begründung stornieren' }).click();
    const cancel = page.getByRole('dialog', { name: `Schaden ${claim.number} stornieren` });
    await cancel.getByRole('button', { name: 'Schaden stornieren' }).click();
    await expect(cancel.getByText('Dieses Feld ist erforderlich.')).toBeVisible();
    await cancel.getByRole('textbox', { name: 'Begründung' }).fill('Doppelt gemeldet');
    await cancel.getByRole('button', { name: 'Schaden stornieren' }).click();
    await expect(cancel).toBeHidden();
    await expect(page.getByTestId('claim-cancellation')).toContainText(
      'von Lukas Schulz: Doppelt gemeldet',
    );
    await expect(page.getByTestId('claim-paid')).toHaveText(/6\.000,00\s€/);
  });

  test('the claim list and a claim speak German', async ({ page }) => {
    await signIn(page, VIEWER);
    await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
    await page.addInitScript(() => localStorage.setItem('bo.language', 'de'));
    // A common laptop width with the side menu open: the list must fit without scrolling sideways.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/u/0/claims?search=S-000007');
    await expect(page.getByRole('heading', { level: 1, name: 'Schäden' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Schäden' }),
    ).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Schäden durchsuchen' })).toHaveValue(
      'S-000007',
    );
    await expect(page.getByRole('combobox', { name: 'Schadenart' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Schäden' });
    await expect(table.getByRole('columnheader')).toHaveText([
      /^Nummer/,
      /^Titel/,
      // The policy and the holder sort too now (issue 15, point 15).
      /^Vertrag/,
      /^Versiche\u00ADrungs\u00ADnehmer/,
      /^Status/,
      /^Schaden\u00ADdatum/,
      /^Angelegt/,
    ]);
    await expect(table.getByRole('link', { name: 'S-000007' })).toBeVisible();
    expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await table.getByRole('link', { name: 'S-000007' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Schaden S-000007' })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText([
      'Daten',
      'Regulierung',
      'Partner',
      'Dokumente',
      'Verlauf',
    ]);
    await expect(page.getByTestId('read-only-note')).toHaveText(
      'Ihre Rolle darf diesen Schaden lesen, aber nicht ändern.',
    );
    // A seeded claim was saved by no one: the audit line says so instead of showing a code.
    await expect(page.getByTestId('claim-version')).toContainText('von dem System');
    await expect(page.getByText('Zurück zu den Schäden')).toBeVisible();
    await page.getByRole('tab', { name: 'Regulierung' }).click();
    await expect(page.getByTestId('settlement-totals')).toContainText('Summen');
    await expect(page.getByTestId('settlement-totals')).toContainText('€');
    await expectNoSeriousA11yViolations(page);
  });

  test('the claim list and a claim speak Polish', async ({ page }) => {
    await signIn(page, VIEWER);
    await page.evaluate(() => localStorage.setItem('bo.language', 'pl'));
    await page.addInitScript(() => localStorage.setItem('bo.language', 'pl'));
    await page.goto('/u/0/claims?search=S-000007');
    await expect(page.getByRole('heading', { level: 1, name: 'Szkody' })).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Szukaj szkód' })).toHaveValue('S-000007');
    await expect(page.getByRole('combobox', { name: 'Rodzaj szkody' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Szkody' });
    await expect(table.getByRole('columnheader')).toHaveText([
      /^Numer/,
      /^Tytuł/,
      /^Polisa/,
      /^Ubezpie\u00ADczający/,
      /^Status/,
      /^Data szkody/,
      /^Utworzono/,
    ]);
    await table.getByRole('link', { name: 'S-000007' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /S-000007/ })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText([
      'Dane',
      'Likwidacja',
      'Partnerzy',
      'Dokumenty',
      'Historia',
    ]);
    await expect(page.getByTestId('claim-version')).toContainText('przez system');
    await expect(page.getByText('Powrót do szkód')).toBeVisible();
    await page.getByRole('tab', { name: 'Likwidacja' }).click();
    await expect(page.getByTestId('settlement-totals')).toContainText('Sumy');
    await page.getByRole('tab', { name: 'Dokumenty' }).click();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: /Dowolny czas/ }).click();
    await expect(page.getByRole('tablist', { name: 'Rodzaj zakresu czasu' })).toBeVisible();
  });
});
