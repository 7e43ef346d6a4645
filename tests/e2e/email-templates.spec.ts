import {
  expect,
  expectNoSeriousA11yViolations,
  signIn,
  signInGerman,
  signInSpeaking,
  test,
} from './fixtures.ts';
import { expectNoUntranslatedText } from './language-checks.ts';
import { expectRefusedThenSaved } from './template-editing.ts';

const NAMESPACES = ['templates', 'common'] as const;
// The lead follow-up's variables, shown as they are written in a template.
const VARIABLES = ['tenant.name', 'recipient.email', 'lead.number'];

/**
 * The e-mail template editor (issue 19), in German, as the demo administrator: a variable
 * inserted at the caret, the preview with the kind's sample record, a refused source naming line
 * and column, the saved version with its author, and a test e-mail read back from the outbox.
 * Only the HTML body of "Lead follow-up" changes: subjects and texts other specs read stay.
 */

const USER = 'admin@demo.test';

test('edit, preview, refuse, save and test-mail the lead follow-up template', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await signInGerman(page, USER);
  await page.goto('/u/0/editor/emails');
  await expect(page.getByRole('heading', { name: 'E-Mail-Vorlagen' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'lead-follow-up' });
  await expect(row).toContainText('Systemvorlage');
  await row.getByRole('link', { name: 'Lead nachfassen' }).click();
  await expect(page.getByRole('heading', { name: 'Lead nachfassen' })).toBeVisible();
  const versionInfo = page.getByTestId('template-version');
  await expect(versionInfo).toContainText('Schlüssel lead-follow-up');
  const before = Number(/Version (\d+)/.exec((await versionInfo.textContent()) ?? '')![1]);

  // A variable goes where the caret is: at the end of the HTML body.
  const html = page.getByLabel('HTML-Text', { exact: true });
  await html.click();
  await html.press('Control+End');
  const original = await html.inputValue();
  await page.getByRole('button', { name: 'lead.number einfügen' }).click();
  await expect(html).toHaveValue(`${original}{{ lead.number }}`);
  await expect(versionInfo).toContainText('Ungespeicherte Änderungen');

  // Leaving with unsaved changes asks first; staying keeps them.
  await page.getByRole('link', { name: 'Zurück zu den E-Mail-Vorlagen' }).click();
  const leave = page.getByRole('dialog', { name: 'Änderungen verwerfen?' });
  await leave.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(leave).toHaveCount(0);
  await expect(html).toHaveValue(`${original}{{ lead.number }}`);

  // The preview renders the unsaved sources with the sample lead.
  await page.getByRole('button', { name: 'Vorschau', exact: true }).click();
  await expect(page.getByTestId('preview-subject')).toContainText('LEA-000412');
  const frame = page.getByTitle('HTML-Vorschau');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame).toHaveAttribute('srcdoc', /LEA-000412/);
  await expect(page.locator('pre')).toContainText('LEA-000412');

  // An unclosed output is refused with its place; fixed, the save makes the next version.
  await expectRefusedThenSaved(page, html, {
    where: 'Deutsch · HTML-Text',
    variable: 'lead.number',
    before,
  });

  // The test e-mail goes to the user's own address, with the saved HTML.
  await page.getByRole('button', { name: 'Test-E-Mail an mich senden' }).click();
  await expect(page.getByText(`Eine Test-E-Mail wurde an ${USER} gesendet.`)).toBeVisible();
  const res = await request.get(`/sandbox/outbox?to=${encodeURIComponent(USER)}`);
  expect(res.status()).toBe(200);
  const { items } = (await res.json()) as {
    items: { subject: string; text: string; html: string }[];
  };
  const mail = items.find((item) => item.subject === 'Lead LEA-000412 nachfassen');
  expect(mail, 'the test e-mail in the outbox').toBeDefined();
  expect(mail!.html).toContain('LEA-000412');
  expect(mail!.text).toContain('LEA-000412');

  // axe waits for every frame to answer; the preview's empty sandbox runs no script, so it never
  // would: the check runs with the preview closed.
  await page.getByRole('button', { name: 'Vorschau schließen' }).click();
  await expectNoSeriousA11yViolations(page);
});

test('po polsku: lista szablonów, edytor i podgląd bez tekstów nieprzetłumaczonych', async ({
  page,
}) => {
  await signInSpeaking(page, USER, 'pl');
  await page.goto('/u/0/editor/emails');
  await expect(page.getByRole('heading', { level: 1, name: 'Szablony e-mail' })).toBeVisible();
  const templates = page.getByRole('table', { name: 'Szablony e-mail' });
  for (const name of ['Nazwa', 'Klucz', 'Pochodzenie', 'Wersja', 'Ostatnia zmiana'])
    await expect(templates.getByRole('columnheader', { name, exact: true })).toBeVisible();
  // The layouts below the templates, in Polish too.
  await expect(page.getByRole('table', { name: 'Układy' })).toContainText('Standard');
  const row = page.getByRole('row').filter({ hasText: 'lead-follow-up' });
  await expect(row).toContainText('Szablon systemowy');
  await expectNoUntranslatedText(page, 'pl', NAMESPACES);

  // The sandbox's own e-mails are named in the reader's language.
  await expect(row.getByRole('link', { name: 'Kontakt w sprawie leada' })).toBeVisible();
  await row.getByRole('link').first().click();
  await expect(page.getByTestId('template-version')).toContainText('klucz lead-follow-up');
  await expect(page.getByLabel('Nazwa', { exact: true })).toHaveValue('Kontakt w sprawie leada');
  for (const language of ['Niemiecki', 'Angielski', 'Polski'])
    await expect(page.getByText(language, { exact: true }).first()).toBeVisible();
  await expect(page.getByLabel('Treść HTML', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Zmienne' })).toBeVisible();
  await expectNoUntranslatedText(page, 'pl', NAMESPACES, VARIABLES);

  await page.getByRole('button', { name: 'Podgląd', exact: true }).click();
  await expect(page.getByTestId('preview-subject')).toContainText('LEA-000412');
  await expect(page.getByText('Wersja tekstowa')).toBeVisible();
  await expectNoUntranslatedText(page, 'pl', NAMESPACES, VARIABLES);
  await page.getByRole('button', { name: 'Zamknij podgląd' }).click();
  await expectNoSeriousA11yViolations(page);
});

test('creates an own template, refuses a taken key, and deletes it behind the confirm dialog', async ({
  page,
}) => {
  await signIn(page, USER);
  await page.goto('/u/0/editor/emails');
  const slug = `welcome-${Date.now().toString(36)}`;
  const open = async () => {
    await page.getByRole('button', { name: 'New e-mail template' }).click();
    return page.getByRole('dialog', { name: 'New e-mail template' });
  };

  // A key the service would refuse is said at once, at its field.
  let dialog = await open();
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await dialog.getByLabel('Name').fill('Welcome letter');
  await dialog.getByLabel('Key').fill('Welcome Letter');
  await dialog.getByLabel('About').selectOption({ label: 'Letter about a policy' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Use lower-case letters, digits and hyphens')).toBeVisible();
  await dialog.getByLabel('Key').fill(slug);
  await dialog.getByRole('button', { name: 'Create' }).click();

  // The editor of the new template opens, with the policy letter's variables.
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome letter' })).toBeVisible();
  await expect(page.getByTestId('template-version')).toContainText(`key ${slug}`);
  await expect(page.getByRole('button', { name: 'Insert policy.number' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete template' })).toBeVisible();

  // The same key again is refused by the service; the dialog keeps what was typed.
  await page.getByRole('link', { name: 'Back to the e-mail templates' }).click();
  await expect(page.getByRole('row').filter({ hasText: slug })).toContainText('Own template');
  dialog = await open();
  await dialog.getByLabel('Name').fill('Welcome letter 2');
  await dialog.getByLabel('Key').fill(slug);
  await dialog.getByLabel('About').selectOption({ label: 'Letter about a policy' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('has a template with this key already').first()).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveValue('Welcome letter 2');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // Deleted behind the confirm dialog, back on the list, gone from it; system ones cannot be.
  await page.getByRole('row').filter({ hasText: slug }).getByRole('link').click();
  await page.getByRole('button', { name: 'Delete template' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this template?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail templates' })).toBeVisible();
  await expect(page.getByText('“Welcome letter” was deleted.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: slug })).toHaveCount(0);
  await page.getByRole('row').filter({ hasText: 'lead-follow-up' }).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lead follow-up' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete template' })).toHaveCount(0);
});

test('layouts: a frame without its content place is refused at the field; one in use stays, an unused one goes', async ({
  page,
}) => {
  await signIn(page, USER);
  await page.goto('/u/0/editor/emails');
  const layouts = page.getByRole('table', { name: 'Layouts' });
  await expect(layouts.getByRole('row').nth(1)).toContainText('(standard)');
  const name = `Letterhead ${Date.now().toString(36)}`;

  // A new layout starts from the standard one's sources; without {{ content }} it is refused.
  await page.getByRole('button', { name: 'New layout' }).click();
  let dialog = page.getByRole('dialog', { name: 'New layout' });
  await expect(dialog.getByLabel('HTML frame')).toHaveValue(/\{\{ *content *\}\}/);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('HTML frame').fill('<div>no place for the e-mail</div>');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('The layout was not saved.')).toBeVisible();
  await expect(dialog.getByLabel('HTML frame')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('HTML frame').fill('<div class="letterhead">{{ content }}</div>');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`Layout “${name}” saved.`)).toBeVisible();
  await expect(layouts.getByRole('row').filter({ hasText: name })).toContainText('Ada Admin');
  await expectNoSeriousA11yViolations(page);

  // A second layout of that name is refused at the name, the dialog kept open with the input.
  await page.getByRole('button', { name: 'New layout' }).click();
  dialog = page.getByRole('dialog', { name: 'New layout' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'The layout was not saved: please choose another name.',
  );
  await expect(dialog.getByText('This workspace has a layout of this name already.')).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Name')).toHaveValue(name);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(layouts.getByRole('row').filter({ hasText: name })).toHaveCount(1);

  // A template sits in it: the layout is not deleted, and the dialog says why.
  await page.getByRole('row').filter({ hasText: 'lead-follow-up' }).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lead follow-up' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Layout', exact: true }).selectOption({ label: name });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('template-version')).not.toContainText('Unsaved changes');
  await page.getByRole('link', { name: 'Back to the e-mail templates' }).click();
  await layouts.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this layout?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByText('One template uses this layout')).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  // Back in the standard layout, the template lets the layout go; then it is deleted.
  await page.getByRole('row').filter({ hasText: 'lead-follow-up' }).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lead follow-up' })).toBeVisible();
  await page
    .getByRole('combobox', { name: 'Layout', exact: true })
    .selectOption({ label: 'Standard' });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('template-version')).not.toContainText('Unsaved changes');
  await page.getByRole('link', { name: 'Back to the e-mail templates' }).click();
  await layouts.getByRole('button', { name: `Delete ${name}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete this layout?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText(`Layout “${name}” deleted.`)).toBeVisible();
  await expect(layouts.getByRole('row').filter({ hasText: name })).toHaveCount(0);

  // The standard layout opens with its sources and offers no delete.
  await expect(layouts.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await layouts
    .getByRole('button', { name: /^Edit / })
    .first()
    .click();
  dialog = page.getByRole('dialog', { name: 'Layout' });
  await expect(dialog.getByLabel('Text frame')).toHaveValue(/content/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});
