import { readFile } from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  apiAs,
  expect,
  expectNoSeriousA11yViolations,
  productThroughApi,
  signIn,
  signInGerman,
  signInSpeaking,
  test,
} from './fixtures.ts';
import { expectNoUntranslatedText } from './language-checks.ts';

/**
 * Static documents and the IPID (issue 19, decision 020), in German as the demo administrator:
 * the seeded static documents listed with their published version, one opened in the template
 * editor, changed, saved and published behind the confirm dialog (from the keyboard), the new
 * version listed and downloaded as a PDF with the new text; a product version activated on the
 * product page lists its product information sheet there at once, downloadable. The list in Polish has
 * no English left.
 */

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function pdfText(path: string): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(await readFile(path)) }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return pages.join('\n').replace(/\s+/g, ' ');
  } finally {
    await pdf.destroy();
  }
}

test('Statische Dokumente: ändern, veröffentlichen, Fassungen herunterladen', async ({ page }) => {
  test.setTimeout(120_000);
  await signInGerman(page, 'admin@demo.test');
  await page.goto('/u/0/editor/static-documents');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Statische Dokumente', exact: true }),
  ).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'privacy-notice' });
  await expect(row).toContainText('Datenschutzhinweise');
  await expect(row).toContainText('Statisches Dokument');
  await expect(row).toContainText(/Fassung \d+/);
  await expectNoSeriousA11yViolations(page);

  // Opened: the template editor with its body and preview, and "Veröffentlichen".
  await row.getByRole('link', { name: 'Datenschutzhinweise', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Datenschutzhinweise', exact: true }),
  ).toBeVisible();
  const versions = page.getByTestId('published-versions');
  // The header row and one per version: the next version is numbered as the rows are now
  // (counted once the seed's publication is listed).
  await expect(versions.getByRole('row').nth(1)).toBeVisible();
  const before = await versions.getByRole('row').count();
  const body = page.getByLabel('Vorlagentext (Liquid)');
  const line = `Gültig ab Lauf ${stamp()}`;
  await body.fill(`${await body.inputValue()}\n<p>${line}</p>`);
  // Unsaved changes are not published: the button waits for the save.
  const publish = page.getByRole('button', { name: 'Veröffentlichen', exact: true });
  await expect(publish).toBeDisabled();
  await page.getByRole('button', { name: 'Speichern', exact: true }).click();
  await expect(publish).toBeEnabled();

  // Published behind the confirm dialog, from the keyboard.
  await publish.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Dokument veröffentlichen?' });
  await expect(dialog).toContainText('Datenschutzhinweise');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Veröffentlichen', exact: true }).click();
  await expect(page.getByText('„Datenschutzhinweise“ wurde veröffentlicht.').first()).toBeVisible();
  await expect(versions.getByRole('row')).toHaveCount(before + 1);
  await expectNoSeriousA11yViolations(page);

  // The newest version downloads as a PDF with the new line.
  const newest = versions.getByRole('row').nth(1);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    newest.getByRole('button', { name: /^Herunterladen/ }).click(),
  ]);
  const path = (await download.path())!;
  expect((await readFile(path)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(await pdfText(path)).toContain(line);

  // Back to the list: the new version is the published one.
  await page.getByRole('link', { name: 'Zurück zu den statischen Dokumenten' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'privacy-notice' })).toContainText(
    `Fassung ${before}`,
  );

  // A new one under its own key: only the kinds of no record are offered; not published yet.
  const key = `widerruf-${stamp()}`;
  await page.getByRole('button', { name: 'Neues statisches Dokument' }).click();
  const create = page.getByRole('dialog', { name: 'Neues statisches Dokument' });
  await create.getByLabel('Schlüssel').fill(key);
  await create.getByLabel('Name').fill('Widerrufsbelehrung');
  const kind = create.getByLabel('Dokumentart');
  await expect(kind.getByRole('option', { name: 'Versicherungsschein' })).toHaveCount(0);
  await kind.selectOption({ label: 'Regelwerk' });
  await create.getByRole('button', { name: 'Anlegen' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Widerrufsbelehrung', exact: true }),
  ).toBeVisible();
  await expect(page.getByText('Noch nicht veröffentlicht.')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('document')).toBe(key);
});

test('Produktinformationsblatt: eine aktivierte Produktversion hat ihr IPID', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await apiAs(baseURL!, 'manager@demo.test');
  const name = `E2E IPID ${stamp()}`;
  const { productId, slug } = await productThroughApi(
    api,
    { name, category: 'device', description: 'Erste Fassung' },
    { group: 'Gerät', name: 'Diebstahl', expression: '120', unit: 'year' },
  );
  await api.dispose();

  await signInGerman(page, 'manager@demo.test');
  await page.goto(`/u/0/management/product/${productId}`);
  const section = page.getByRole('region', { name: 'Dokumente', exact: true });
  await expect(section.getByText('Dieses Produkt hat noch keine Dokumente.')).toBeVisible();
  // The draft goes live; its IPID is listed as soon as the document service issued it (the
  // socket tells the page: no reload).
  await page.getByRole('button', { name: 'Aktivieren: Version 1' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Aktivieren', exact: true }).click();
  await expect(page.getByText('Version 1 geändert.').first()).toBeVisible();
  const file = `IPID-${slug}-v1.pdf`;
  await expect(section.getByRole('button', { name: file, exact: true })).toBeVisible({
    timeout: 20_000,
  });
  const ipid = section.getByRole('row').filter({ hasText: file });
  await expect(ipid).toContainText('documentservice');
  await expect(ipid).toContainText('Version 1');
  await expectNoSeriousA11yViolations(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: file, exact: true }).click(),
  ]);
  const text = await pdfText((await download.path())!);
  expect(text).toContain('Produktinformationsblatt');
  expect(text).toContain(name);
  expect(text).toContain('Diebstahl');
});

test('the static documents list in Polish leaves nothing in English', async ({ page }) => {
  await signInSpeaking(page, 'admin@demo.test', 'pl');
  await page.goto('/u/0/editor/static-documents');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Dokumenty statyczne', exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'terms' })).toContainText(
    'Warunki ubezpieczenia',
  );
  await expectNoUntranslatedText(page, 'pl', ['templates', 'common']);
  await expectNoSeriousA11yViolations(page);
});

test('the static documents list says when it could not load, and loads on retry', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  let fail = true;
  await page.route('**/documentservice/v1/static-documents', (route) =>
    fail
      ? route.fulfill({ status: 502, json: { error: 'upstream_unavailable' } })
      : route.fallback(),
  );
  await page.goto('/u/0/editor/static-documents');
  await expect(page.getByText('The static documents could not be loaded.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  fail = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: 'Datenschutzhinweise', exact: true })).toBeVisible();
});
