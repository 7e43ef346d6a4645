import { readFile } from 'node:fs/promises';
import { makePdf } from '#server/sandbox/services/document/demo-files.ts';
import {
  expect,
  expectNoSeriousA11yViolations,
  managersDeviceProduct,
  signInGerman,
  test,
} from './fixtures.ts';
import { expectNoUntranslatedText } from './language-checks.ts';

/**
 * The documents of a product (issue 19) as a German-speaking product manager: none at first, a
 * PDF uploaded through the signed form is listed with its name, downloads as the same PDF, and is
 * deleted after the confirmation; the section is accessible and all German.
 */
const PDF = makePdf('Bedingungen', ['Allgemeine Versicherungsbedingungen']);

test('Produktdokumente: hochladen, herunterladen, löschen, auf Deutsch', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { productId } = await managersDeviceProduct(baseURL!, 'E2E Dokumente');

  await signInGerman(page, 'manager@demo.test');
  await page.goto(`/u/0/management/product/${productId}`);
  const section = page.getByRole('region', { name: 'Dokumente', exact: true });
  await expect(section.getByText('Dieses Produkt hat noch keine Dokumente.')).toBeVisible();

  await section.getByLabel('Dokumente hochladen').setInputFiles({
    name: 'AVB.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  const link = section.getByRole('button', { name: 'AVB.pdf', exact: true });
  await expect(link).toBeVisible();
  await expect(section.getByRole('cell', { name: 'insuranceservice' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoUntranslatedText(page, 'de', ['products'], ['insuranceservice']);

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.equals(PDF)).toBe(true);

  await section.getByRole('button', { name: 'Löschen AVB.pdf' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText('Dokument AVB.pdf gelöscht').first()).toBeVisible();
  await expect(section.getByText('Dieses Produkt hat noch keine Dokumente.')).toBeVisible();
});
