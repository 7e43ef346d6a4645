import type { Page, Route } from '@playwright/test';
import { colleague, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

// Users no other spec writes with (customer care); each test files its own application with a
// unique name, so that reruns and other specs never meet its rows.
const CARE = 'ida.kowalska8@demo.test';
const COLLEAGUE = 'leon.iwanowski11@demo.test';
const SEEDED_APPROVED = 'LEA-100395';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const leadTable = (page: Page) => page.getByRole('table', { name: 'Leads' });

async function openLeads(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Leads' })
    .click();
  await expect(page).toHaveURL(/\/u\/0\/leads$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
}

/** Files a home contents application for a prospect through the form; returns its lead number. */
async function fileApplication(page: Page, lastName: string): Promise<string> {
  await openLeads(page);
  await page.getByRole('button', { name: 'New application' }).click();
  const dialog = page.getByRole('dialog', { name: 'New application' });
  await dialog
    .getByRole('combobox', { name: 'Product' })
    .selectOption({ label: 'Hausrat Zuhause' });
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'New application · Hausrat Zuhause' }),
  ).toBeVisible();

  await page
    .getByRole('combobox', { name: 'The application is for' })
    .selectOption({ label: 'a prospect without customer account' });
  await page.getByRole('textbox', { name: 'First name' }).fill('Edda');
  await page.getByRole('textbox', { name: 'Last name' }).fill(lastName);
  // The application form of a policy sale: the policy section first, then the household.
  await expect(
    page.getByRole('region', { name: 'Policy', exact: true }).getByRole('combobox', {
      name: 'Policy duration unit',
    }),
  ).toHaveValue('year');
  const household = page.getByRole('region', { name: 'Household' });
  const sum = household.getByRole('textbox', { name: 'Sum insured' });
  await household.getByRole('textbox', { name: 'Living area (m²)' }).fill('85');
  await household.getByRole('textbox', { name: 'Postcode' }).fill('20095');
  await sum.fill('1000');
  await household.getByRole('checkbox', { name: 'Bicycles included' }).check();
  // The form checks the product's rules before the server is asked; nothing typed is lost.
  await page.getByRole('button', { name: 'Create application' }).click();
  await expect(household.getByText('The value must be at least 5,000')).toBeVisible();
  await expect(sum).toBeFocused();
  await expect(page.getByText('Please correct the marked fields (1).')).toBeVisible();
  await expect(household.getByRole('textbox', { name: 'Postcode' })).toHaveValue('20095');
  await sum.fill('60000');
  // The live premium of a policy sale: sum insured × 0.0011 + × 0.0002 with bicycles.
  await expect(
    page.getByRole('region', { name: 'Premium' }).getByTestId('premium-total'),
  ).toHaveText('€78.00 per year');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Create application' }).click();

  const heading = page.getByRole('heading', { level: 1, name: /^Lead LEA-\d+$/ });
  await expect(heading).toBeVisible();
  const number = (await heading.textContent())!.replace('Lead ', '');
  await expect(page.getByText(`Application ${number} created.`)).toBeVisible();
  return number;
}

async function move(page: Page, status: string) {
  await page.getByRole('button', { name: `Move to ${status}` }).click();
  const dialog = page.getByRole('dialog', { name: `Move to ${status}?` });
  await dialog.getByRole('button', { name: `Move to ${status}` }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('lead-status')).toHaveText(status);
  // Focus stays with the moves (the next one, or their heading when none is left), not the body.
  await expect(page.locator('[aria-labelledby="lead-moves"] :focus')).toHaveCount(1);
}

test.describe('leads', () => {
  test('customer care files an application and moves it through its statuses', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const lastName = `Probe ${stamp()}`;
    await signIn(page, CARE);
    await openLeads(page);
    await expect(leadTable(page).getByRole('row').nth(1)).toBeVisible();
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Quoted' });
    await expect(leadTable(page).getByRole('cell', { name: 'New', exact: true })).toHaveCount(0);
    await expect(
      leadTable(page).getByRole('cell', { name: 'Quoted', exact: true }).first(),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const number = await fileApplication(page, lastName);
    await expect(page.getByTestId('lead-status')).toHaveText('New');
    await expect(page.getByRole('tab', { name: 'Versions (1)' })).toBeVisible();
    // The data tab shows the insured data by field label and the premium (60 000 * 0.0011 + 12).
    await expect(page.getByRole('region', { name: 'Household' }).getByText('60,000')).toBeVisible();
    await expect(page.getByTestId('premium-total')).toHaveText('€78.00');
    await expectNoSeriousA11yViolations(page);

    // The rules allow Contacted or Declined from New; a confirm dialog guards the move.
    await expect(page.getByTestId('lead-moves').getByRole('button')).toHaveText([
      'Move to Contacted',
      'Move to Declined',
    ]);
    await move(page, 'Contacted');
    await expect(page.getByRole('tab', { name: 'Versions (2)' })).toBeVisible();

    // A colleague declines the lead meanwhile: moving on from the stale page is refused.
    const other = await colleague(browser, COLLEAGUE);
    try {
      await other.page.goto(page.url());
      await move(other.page, 'Declined');
    } finally {
      await other.close();
    }
    await page.getByRole('button', { name: 'Move to Quoted' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to Quoted?' });
    await dialog.getByRole('button', { name: 'Move to Quoted' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Not moved: this lead is “Declined” now and cannot move to “Quoted”. The page shows the saved lead.',
    );
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('lead-status')).toHaveText('Declined');
    await expect(page.getByTestId('lead-moves').getByRole('button')).toHaveText(['Move to New']);

    // Reopened, it goes the whole way; every move is a version.
    for (const status of ['New', 'Contacted', 'Quoted', 'Approved']) await move(page, status);
    // Converting is no plain move: an approved lead becomes converted by its policy.
    await expect(page.getByTestId('lead-moves').getByRole('button')).toHaveText([
      'Create policy',
      'Move to Declined',
    ]);
    await page.getByRole('tab', { name: 'Versions (7)' }).click();
    await expect(page).toHaveURL(/#tab=versions$/);
    const versions = page.getByTestId('lead-versions').getByRole('row');
    await expect(versions).toHaveCount(7);
    await expect(versions.first().getByRole('cell').nth(1)).toHaveText('Approved');
    await page.getByRole('button', { name: 'Open version 3' }).click();
    const version = page.getByRole('region', { name: 'Version 3 (read-only)' });
    await expect(version.getByText('Declined')).toBeVisible();
    await expect(version.getByText('60,000')).toBeVisible();
    await expect(page).toHaveURL(/#tab=versions&version=3$/);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('tab', { name: 'Documents' }).click();
    await expect(page.getByText('This lead has no documents yet.')).toBeVisible();

    // The list finds it by the prospect's name.
    await openLeads(page);
    await page.getByRole('searchbox', { name: 'Search leads' }).fill(lastName);
    await expect(leadTable(page).getByRole('row')).toHaveCount(2);
    await expect(leadTable(page).getByRole('link', { name: number })).toBeVisible();
    await expect(
      leadTable(page).getByRole('cell', { name: 'Approved', exact: true }),
    ).toBeVisible();

    // A colleague has the approved lead open while it becomes a policy here.
    await leadTable(page).getByRole('link', { name: number }).click();
    const late = await colleague(browser, COLLEAGUE);
    try {
      await late.page.goto(page.url());
      await expect(late.page.getByRole('button', { name: 'Create policy' })).toBeVisible();

      await page.getByRole('button', { name: 'Create policy' }).click();
      const create = page.getByRole('dialog', { name: 'Create the policy?' });
      await expect(create).toContainText(
        `A policy for Hausrat Zuhause is created from lead ${number} with the lead’s data`,
      );
      await expectNoSeriousA11yViolations(page);
      await create.getByRole('button', { name: 'Create policy' }).click();
      await expect(page).toHaveURL(/\/u\/0\/policies\/pol_[0-9a-f]+$/);
      const policy = page.getByRole('heading', { level: 1, name: /^Policy POL-\d+$/ });
      await expect(policy).toBeVisible();
      const policyNumber = (await policy.textContent())!.replace('Policy ', '');
      await expect(
        page.getByText(`Policy ${policyNumber} created from lead ${number}.`),
      ).toBeVisible();
      await expect(page.getByText('Active', { exact: true }).first()).toBeVisible();

      // The colleague's page still offered it: the service refuses a second policy.
      await late.page.getByRole('button', { name: 'Create policy' }).click();
      const refused = late.page.getByRole('dialog', { name: 'Create the policy?' });
      await refused.getByRole('button', { name: 'Create policy' }).click();
      await expect(refused.getByRole('alert')).toHaveText(
        'No policy created: this lead has become a policy already. The page shows the saved lead.',
      );
      await refused.getByRole('button', { name: 'Cancel' }).click();
      await expect(late.page.getByTestId('lead-status')).toHaveText('Converted');
      await expect(
        late.page.getByText('This lead is in a final status; it cannot move on.'),
      ).toBeVisible();
      await expect(late.page.getByRole('button', { name: 'Create policy' })).toHaveCount(0);
    } finally {
      await late.close();
    }
  });

  test('customer care edits the application, then payment and notes, meeting a colleague’s save', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, CARE);
    await fileApplication(page, `Zahler ${stamp()}`);
    // The application is edited in its form (a new version with a new premium) and viewed.
    await page.getByRole('link', { name: 'Edit application' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Edit application · Hausrat Zuhause' }),
    ).toBeVisible();
    const household = page.getByRole('region', { name: 'Household' });
    await expect(household.getByRole('textbox', { name: 'Sum insured' })).toHaveValue('60000');
    const sum = household.getByRole('textbox', { name: 'Sum insured' });
    await sum.fill('100000');
    // The service's 400 lands at the field it names (with its bound), the rest is listed; the
    // input is kept. (The form checks with the same rules first, so the refusal is staged.)
    const refuse = (route: Route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            json: {
              error: 'validation_error',
              message: 'policy.policyObjects: household.sumInsured: above_maximum (90000)',
              issues: [
                { path: 'household.sumInsured', code: 'above_maximum', limit: 90000 },
                { path: 'policyObjects.2.insuredObjectId', code: 'unknown_insured_object' },
              ],
            },
          })
        : route.fallback();
    await page.route('**/insuranceservice/v1/leads/*', refuse);
    await page.getByRole('button', { name: 'Save application' }).click();
    await expect(page.getByText(/^The application was not saved\./)).toBeVisible();
    await expect(page.getByText('The product has changed in the meantime')).toBeVisible();
    await expect(household.getByText('The value must be at most 90,000')).toBeVisible();
    await expect(sum).toBeFocused();
    await expect(sum).toHaveValue('100000');
    await page.unroute('**/insuranceservice/v1/leads/*', refuse);
    await page.getByRole('button', { name: 'Save application' }).click();
    await expect(page.getByText('Application saved.')).toBeVisible();
    await expect(page.getByTestId('premium-total')).toHaveText('€130.00');
    await expect(page.getByRole('tab', { name: 'Versions (2)' })).toBeVisible();
    await page.getByRole('link', { name: 'View application' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Application · Hausrat Zuhause' }),
    ).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Household' }).getByText('100,000'),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Back to the lead' }).click();

    const extras = page.getByRole('form', { name: 'Payment and notes' });
    await extras
      .getByRole('combobox', { name: 'Payment method' })
      .selectOption({ label: 'SEPA direct debit' });
    await extras.getByRole('textbox', { name: 'IBAN' }).fill('DE89 3704 0044 0532 0130 01');
    await extras.getByRole('button', { name: 'Save' }).click();
    await expect(extras.getByText('This is not a valid IBAN.')).toBeVisible();
    await extras.getByRole('textbox', { name: 'IBAN' }).fill('DE89 3704 0044 0532 0130 00');
    await extras.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Lead saved.')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Versions (3)' })).toBeVisible();

    // A colleague adds a note while this form is open.
    const other = await colleague(browser, COLLEAGUE);
    try {
      await other.page.goto(page.url());
      const theirs = other.page.getByRole('form', { name: 'Payment and notes' });
      await theirs.getByRole('button', { name: 'Add a note' }).click();
      await theirs.getByRole('textbox', { name: 'Name 1' }).fill('callback');
      await theirs.getByRole('textbox', { name: 'Value 1' }).fill('Friday');
      await theirs.getByRole('button', { name: 'Save' }).click();
      await expect(other.page.getByText('Lead saved.')).toBeVisible();
    } finally {
      await other.close();
    }

    await extras.getByRole('textbox', { name: 'Account holder' }).fill('Edda Zahler');
    await extras.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Somebody else changed this lead' });
    await expect(alert).toBeFocused();
    await expect(page.getByTestId('conflict-customData').getByRole('cell')).toHaveText([
      'callback: Friday',
      '—',
    ]);
    await expect(extras.getByRole('textbox', { name: 'Account holder' })).toHaveValue(
      'Edda Zahler',
    );
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Load the saved data' }).click();
    await expect(alert).toBeHidden();
    await expect(extras.getByRole('textbox', { name: 'Value 1' })).toHaveValue('Friday');
    await expect(extras.getByRole('textbox', { name: 'Account holder' })).toHaveValue('');
    await extras.getByRole('textbox', { name: 'Account holder' }).fill('Edda Zahler');
    await extras.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Lead saved.').first()).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Versions (5)' })).toBeVisible();
  });

  test('the filters say when their options failed to load, and load them again on request', async ({
    page,
  }) => {
    await signIn(page, 'viewer@demo.test');
    // The statuses fail once; the second request goes through.
    let failures = 1;
    await page.route('**/api/0/insuranceservice/v1/lead-statuses', (route) =>
      failures-- > 0
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'upstream_unavailable' }),
          })
        : route.continue(),
    );
    await openLeads(page);
    const problem = page
      .getByRole('alert')
      .filter({ hasText: 'The statuses and products to filter by could not be loaded.' });
    await expect(problem).toBeVisible();
    // Not an empty choice that looks like a tenant without statuses: the filters wait.
    await expect(page.getByRole('combobox', { name: 'Status' })).toBeDisabled();
    await expect(page.getByRole('combobox', { name: 'Product' })).toBeDisabled();
    // The list itself does not depend on them.
    await expect(leadTable(page).getByRole('row').nth(1)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(problem).toBeHidden();
    const status = page.getByRole('combobox', { name: 'Status' });
    await expect(status).toBeEnabled();
    await status.selectOption({ label: 'Approved' });
    await expect(page).toHaveURL(/status=approved/);
    await expect(
      leadTable(page).getByRole('cell', { name: 'Approved', exact: true }).first(),
    ).toBeVisible();
  });

  test('a read-only user sees leads, versions and documents but no buttons', async ({ page }) => {
    await signIn(page, 'viewer@demo.test');
    await openLeads(page);
    await expect(page.getByRole('button', { name: 'New application' })).toHaveCount(0);
    // A seeded approved lead of a customer (server/sandbox/seed-leads.ts is deterministic).
    await page.getByRole('searchbox', { name: 'Search leads' }).fill(SEEDED_APPROVED);
    await expect(leadTable(page).getByRole('row')).toHaveCount(2);
    await leadTable(page).getByRole('link', { name: SEEDED_APPROVED }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Lead LEA-\d+$/ })).toBeVisible();
    await expect(page.getByTestId('lead-status')).toHaveText('Approved');
    await expect(page.getByRole('button', { name: /^Move to / })).toHaveCount(0);
    await expect(page.getByTestId('read-only-note')).toHaveText(
      'You can view this lead but not change it.',
    );
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('tab', { name: 'Documents' }).click();
    const quote = page.getByRole('button', { name: /^Download quote-LEA-\d+\.pdf$/ });
    await expect(quote).toBeVisible();
    // The seeded file is a real PDF, downloaded through its signed address.
    const [file] = await Promise.all([page.waitForEvent('download'), quote.click()]);
    expect(file.suggestedFilename()).toMatch(/^quote-LEA-\d+\.pdf$/);
    await expect(page.getByRole('cell', { name: 'PDF document' }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // The documents time filter: the seeded files are older than today.
    await page.getByRole('button', { name: /All dates/ }).click();
    await page.getByRole('radio', { name: 'Today' }).check();
    await page.getByRole('button', { name: 'Apply' }).first().click();
    await expect(page.getByTestId('documents-empty')).toHaveText('No documents in this period.');

    // The customer's page lists the customer's leads.
    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByRole('region', { name: 'Applicant' }).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/customers\/acc_/);
    await page.getByRole('tab', { name: 'Leads' }).click();
    const leads = page.getByRole('table', { name: 'Leads of the customer' });
    await expect(leads.getByRole('link', { name: SEEDED_APPROVED })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
