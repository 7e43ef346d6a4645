import { readFile } from 'node:fs/promises';
import PizZip from 'pizzip';
import { makeDocx } from '#server/sandbox/services/document/docx-templates.ts';
import {
  expect,
  expectNoSeriousA11yViolations,
  signInGerman,
  signInSpeaking,
  test,
} from './fixtures.ts';
import { expectNoUntranslatedText } from './language-checks.ts';

/**
 * Docx templates (issue 19, decision 019) as a German-speaking administrator: the seeded letter
 * is listed; a Word file built here with a tag the policy does not have is refused with its
 * place; the corrected file is taken, filled with a policy and downloaded as DOCX and as PDF;
 * then it is deleted after the confirmation. The list reads all Polish in Polish.
 */
const USER = 'admin@demo.test';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const textOfDocx = (bytes: Buffer) =>
  new PizZip(bytes)
    .file('word/document.xml')!
    .asText()
    .replace(/<\/w:p>/g, '\n')
    .replace(/<[^>]+>/g, '');

test('Docx-Vorlagen: hochladen, Ablehnung mit Stelle, befüllen, herunterladen, löschen', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInGerman(page, USER);
  await page.goto('/u/0/editor/docx-documents');
  await expect(page.getByRole('heading', { level: 1, name: 'Docx-Vorlagen' })).toBeVisible();
  await expect(
    page.getByRole('cell', { name: 'Versicherungsbestätigung', exact: true }),
  ).toBeVisible();

  const name = `E2E Brief ${stamp()}`;
  await page.getByRole('button', { name: 'Docx-Vorlage hochladen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Docx-Vorlage hochladen' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Befüllt mit' }).selectOption({ label: 'Vertrag' });
  // The tags a policy letter may use, to look up.
  await dialog.getByText('Platzhalter für Vertrag').click();
  await expect(dialog.getByText('{policy.holder.name}', { exact: true })).toBeVisible();
  await expect(
    dialog.getByText('{#policy.premiumItems}…{/policy.premiumItems}', { exact: true }),
  ).toBeVisible();
  const file = dialog.getByLabel('Word-Datei (.docx)');
  await file.setInputFiles({
    name: 'brief.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: makeDocx(['Sehr geehrte Damen und Herren,', 'Vertrag {policy.nummer}']),
  });
  await dialog.getByRole('button', { name: 'Hochladen' }).click();
  const problems = dialog.getByTestId('docx-problems');
  await expect(problems).toContainText('Die Datei wurde abgelehnt:');
  await expect(problems).toContainText(
    'Absatz 2, Zeichen 9: Dieser Platzhalter ist kein Feld der Datensatzart. ({policy.nummer})',
  );
  await expect(file).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousA11yViolations(page);

  await file.setInputFiles({
    name: 'brief.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: makeDocx([
      'Sehr geehrte/r {policy.holder.name},',
      'Vertrag {policy.number} über {policy.productName}',
    ]),
  });
  await dialog.getByRole('button', { name: 'Hochladen' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Die Docx-Vorlage wurde hochgeladen.').first()).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('brief.docx');
  await expect(row).toContainText('Vertrag');
  await expectNoSeriousA11yViolations(page);
  await expectNoUntranslatedText(
    page,
    'de',
    ['templates'],
    ['brief.docx', 'versicherungsbestaetigung.docx'],
  );

  // The original downloads as uploaded.
  const [original] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: /^brief\.docx/ }).click(),
  ]);
  expect(textOfDocx(await readFile((await original.path())!))).toContain('{policy.number}');

  // Filled with the first policy the picker offers, as DOCX, then as PDF.
  await row.getByRole('button', { name: `Mit Datensatz befüllen ${name}` }).click();
  const fill = page.getByRole('dialog', { name: `„${name}“ befüllen` });
  const picker = fill.getByRole('combobox', { name: 'Vertrag' });
  await picker.click();
  const option = page.getByTestId('docx-record-options').getByRole('option').first();
  await expect(option).toBeVisible();
  const policyNumber = /POL-\d+/.exec(await option.innerText())![0];
  await option.click();
  await expectNoSeriousA11yViolations(page);
  const [docx] = await Promise.all([
    page.waitForEvent('download'),
    fill.getByRole('button', { name: 'Herunterladen' }).click(),
  ]);
  const filled = textOfDocx(await readFile((await docx.path())!));
  expect(filled).toContain(`Vertrag ${policyNumber} über`);
  expect(filled).not.toContain('{');
  expect(docx.suggestedFilename()).toMatch(/\.docx$/);

  await row.getByRole('button', { name: `Mit Datensatz befüllen ${name}` }).click();
  await fill.getByRole('combobox', { name: 'Vertrag' }).click();
  await page.getByTestId('docx-record-options').getByRole('option').first().click();
  await fill.getByRole('radio', { name: 'PDF' }).check();
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    fill.getByRole('button', { name: 'Herunterladen' }).click(),
  ]);
  const pdfBytes = await readFile((await pdf.path())!);
  expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  await row.getByRole('button', { name: `Löschen ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText(`Die Docx-Vorlage „${name}“ wurde gelöscht.`).first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
});

test('po polsku: lista szablonów docx bez tekstów nieprzetłumaczonych', async ({ page }) => {
  await signInSpeaking(page, USER, 'pl');
  await page.goto('/u/0/editor/docx-documents');
  await expect(page.getByRole('heading', { level: 1, name: 'Szablony docx' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'versicherungsbestaetigung.docx' });
  await expect(row).toContainText('Polisa');
  await expectNoSeriousA11yViolations(page);
  await expectNoUntranslatedText(page, 'pl', ['templates'], ['versicherungsbestaetigung.docx']);
});
