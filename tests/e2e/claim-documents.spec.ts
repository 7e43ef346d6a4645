import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { isoToday } from '#common/claims.ts';
import { makePdf, makePng } from '#server/sandbox/services/document/demo-files.ts';
import { apiAs, expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

/**
 * The claim documents panel on a claim's documents tab, in the browser against the real BFF and
 * sandbox: uploads by drag and drop with a progress bar each, the list, a download, a delete
 * behind the confirm dialog, the refusal of an .exe; a show-only user without delete icon.
 *
 * The claim screens (client/features/claims) arrive on their own branch: until /u/{i}/claims/{code}
 * exists here, these tests skip themselves (the not-found page shows instead of the claim).
 */

// Users no other spec signs in with: a claims handler (customer care) and a show-only reader.
const HANDLER = 'sophie.klein@demo.test';
const READER = 'mia.schneider@demo.test';
const ZONE = 'Europe/Berlin';

interface Claim {
  id: number;
  code: string;
}
interface Doc {
  code: string;
  filename: string;
  requester: string;
  templateSlug: string | null;
}

/** A new claim of the handler's workspace, on an active policy that started before today. */
async function newClaim(api: APIRequestContext): Promise<Claim> {
  const policies = await api.get(
    '/api/0/insuranceservice/v1/policies?pageSize=20&filter=status%3DACTIVE&order=id:ASC',
  );
  expect(policies.ok()).toBe(true);
  const today = isoToday(ZONE);
  const policy = (
    (await policies.json()).items as { code: string; policyStartDate: string }[]
  ).find((p) => isoToday(ZONE, new Date(p.policyStartDate)) < today)!;
  const created = await api.post('/api/0/claimservice/v1/claims', {
    data: {
      policyCode: policy.code,
      title: `Documents e2e ${Date.now().toString(36)}`,
      claimType: 'damage',
      damageDate: today,
      customFields: { damageLocation: 'Hamburg, Hafenweg 12' },
    },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).claim as Claim;
}

async function allDocumentsOf(api: APIRequestContext, claimId: number): Promise<Doc[]> {
  const filter = encodeURIComponent(`entityType=ClaimDocument&entityId=${claimId}`);
  const res = await api.get(`/api/0/documentservice/v1/documents?pageSize=100&filter=${filter}`);
  expect(res.ok()).toBe(true);
  return (await res.json()).items as Doc[];
}

/** The claim's uploaded documents: without the acknowledgement the sandbox issues (issue 19). */
async function documentsOf(api: APIRequestContext, claimId: number): Promise<Doc[]> {
  return (await allDocumentsOf(api, claimId)).filter((d) => d.requester !== 'documentservice');
}

/** The acknowledgement's name, once the document service has issued it on the claim's event. */
async function acknowledgementOf(api: APIRequestContext, claimId: number): Promise<string> {
  let name = '';
  await expect
    .poll(async () => {
      const ack = (await allDocumentsOf(api, claimId)).find(
        (d) => d.templateSlug === 'claim-acknowledgement',
      );
      name = ack?.filename ?? '';
      return name;
    })
    .not.toBe('');
  return name;
}

/** Opens the claim's documents tab, or skips when the claim screens are not merged yet. */
async function openDocumentsTab(page: Page, claim: Claim) {
  await page.goto(`/u/0/claims/${claim.code}#tab=documents`);
  const panel = page.getByRole('region', { name: 'Documents' });
  // The claim screens are here: a missing panel is a failure, never a skip.
  await expect(panel).toBeVisible();
  return panel;
}

/** The handler's new claim, its documents tab in German, and the handler's API session. */
async function germanDocumentsTab(page: Page, baseURL: string) {
  const api = await apiAs(baseURL, HANDLER);
  const claim = await newClaim(api);
  await signIn(page, HANDLER);
  await page.evaluate(() => localStorage.setItem('bo.language', 'de'));
  await page.goto(`/u/0/claims/${claim.code}#tab=documents`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const panel = page.getByRole('region', { name: 'Dokumente' });
  await expect(panel).toBeVisible();
  return { api, claim, panel };
}

const PDF = makePdf('Damage report', ['Rear bumper, scratches']);
const PNG = makePng(64, [200, 40, 40]);
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(512)]);

test.describe('claim documents tab', () => {
  test('uploads two dropped files, lists, downloads and deletes them, refuses an .exe', async ({
    page,
    baseURL,
  }) => {
    const api = await apiAs(baseURL!, HANDLER);
    const claim = await newClaim(api);
    // A new claim has one document: its acknowledgement, which the sandbox issues (issue 19).
    const acknowledgement = await acknowledgementOf(api, claim.id);
    await signIn(page, HANDLER);
    const panel = await openDocumentsTab(page, claim);
    await expect(
      panel
        .getByRole('list', { name: 'Claim documents' })
        .getByRole('button', { name: acknowledgement, exact: true }),
    ).toBeVisible();

    // Two files dropped at once: one upload statechart each, a progress bar each, and each file
    // posted to the signed storage address.
    const posted: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/storage/documents') {
        posted.push(r.url());
      }
    });
    const dataTransfer = await page.evaluateHandle(
      ({ pdf, png }) => {
        const transfer = new DataTransfer();
        transfer.items.add(
          new File([new Uint8Array(pdf)], 'damage report.pdf', { type: 'application/pdf' }),
        );
        transfer.items.add(new File([new Uint8Array(png)], 'sketch.png', { type: 'image/png' }));
        return transfer;
      },
      { pdf: [...PDF], png: [...PNG] },
    );
    // The storage answers only once both bars were seen: on a fast machine both uploads finish
    // (and leave the list) before a look could find them.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/storage/documents', async (route) => {
      await held;
      await route.continue();
    });
    await panel.getByTestId('claim-documents-dropzone').dispatchEvent('drop', { dataTransfer });
    const uploads = panel.getByRole('list', { name: 'Uploads' });
    await expect(uploads.getByRole('progressbar')).toHaveCount(2);
    release();
    const list = panel.getByRole('list', { name: 'Claim documents' });
    await expect(
      list.getByRole('button', { name: 'damage report.pdf', exact: true }),
    ).toBeVisible();
    await expect(list.getByRole('button', { name: 'sketch.png', exact: true })).toBeVisible();
    // Finished uploads leave the upload list once the documents are listed.
    await expect(uploads).toHaveCount(0);
    expect(posted).toHaveLength(2);
    expect((await documentsOf(api, claim.id)).map((d) => d.filename).sort()).toEqual([
      'damage report.pdf',
      'sketch.png',
    ]);
    await expectNoSeriousA11yViolations(page);

    // The download is the file as uploaded.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      list.getByRole('button', { name: 'damage report.pdf', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('damage report.pdf');
    expect((await readFile((await download.path())!)).equals(PDF)).toBe(true);

    // Delete behind the confirm dialog; cancelling keeps it.
    await list.getByRole('button', { name: 'Delete sketch.png' }).click();
    let dialog = page.getByRole('dialog', { name: 'Delete document' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(list.getByRole('button', { name: 'sketch.png', exact: true })).toBeVisible();
    await list.getByRole('button', { name: 'Delete sketch.png' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete document' });
    await expect(dialog).toContainText('sketch.png');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(list.getByRole('button', { name: 'sketch.png', exact: true })).toHaveCount(0);
    expect((await documentsOf(api, claim.id)).map((d) => d.filename)).toEqual([
      'damage report.pdf',
    ]);

    // An .exe is refused by its name before anything is asked, with the translated message.
    const input = panel.locator('input[type="file"]');
    await input.setInputFiles({
      name: 'tool.exe',
      mimeType: 'application/x-msdownload',
      buffer: EXE,
    });
    await expect(panel.getByRole('alert')).toHaveText(
      /Only PNG, JPEG, JPG and PDF files can be uploaded\. Not uploaded: tool\.exe/,
    );
    // Renamed .pdf: its first bytes are no PDF, refused before sending with the precise message.
    await input.setInputFiles({ name: 'tool.pdf', mimeType: 'application/pdf', buffer: EXE });
    await expect(uploads.getByTestId('upload-problem')).toHaveText(
      '“tool.pdf” was not uploaded: the content is not a PDF.',
    );
    await expect(uploads.getByText('Refused')).toBeVisible();
    expect((await documentsOf(api, claim.id)).map((d) => d.filename)).toEqual([
      'damage report.pdf',
    ]);
    await api.dispose();
  });

  test('in German: a file over 10 MB and a fake PDF are refused before sending, precisely', async ({
    page,
    baseURL,
  }) => {
    const { api, claim, panel } = await germanDocumentsTab(page, baseURL!);
    const input = panel.locator('input[type="file"]');

    // One byte over 10 MiB, a real PDF otherwise: refused by its size.
    const large = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 + 1 - PDF.length)]);
    await input.setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: large });
    const problems = panel.getByTestId('upload-problem');
    await expect(problems).toHaveText([
      '„scan.pdf“ ist größer als 10 MB und wird nicht hochgeladen.',
    ]);
    // Text named .pdf: refused by its content, not its name.
    await input.setInputFiles({
      name: 'rechnung.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('Hallo, ich bin keine PDF-Datei.\n'),
    });
    await expect(problems).toHaveText([
      '„scan.pdf“ ist größer als 10 MB und wird nicht hochgeladen.',
      '„rechnung.pdf“ wird nicht hochgeladen: Der Inhalt ist kein PDF.',
    ]);
    await expectNoSeriousA11yViolations(page);
    // Nothing was asked of the services, nothing stored.
    expect(await documentsOf(api, claim.id)).toEqual([]);
    await api.dispose();
  });

  test('shows a show-only user no delete icon and no upload; the API refuses the delete', async ({
    page,
    baseURL,
  }) => {
    const handler = await apiAs(baseURL!, HANDLER);
    const claims = await handler.get(
      '/api/0/claimservice/v1/claims?pageSize=10&order=createdAt:ASC',
    );
    let claim: Claim | undefined;
    let docs: Doc[] = [];
    for (const c of (await claims.json()).items as Claim[]) {
      docs = await documentsOf(handler, c.id);
      if (docs.length) {
        claim = c;
        break;
      }
    }
    expect(claim).toBeDefined();
    await handler.dispose();

    await signIn(page, READER);
    const panel = await openDocumentsTab(page, claim!);
    const list = panel.getByRole('list', { name: 'Claim documents' });
    await expect(list.getByRole('button', { name: docs[0]!.filename, exact: true })).toBeVisible();
    await expect(list.getByRole('button', { name: /^Delete / })).toHaveCount(0);
    await expect(panel.getByText('Upload documents')).toHaveCount(0);

    const refused = await page.request.delete(
      `/api/0/documentservice/v1/documents/${docs[0]!.code}`,
      { headers: { 'X-CSRF': '1' } },
    );
    expect(refused.status()).toBe(403);
  });

  test('auf Deutsch: lehnt der Speicher selbst die Datei ab, steht dieselbe genaue Meldung wie bei der Prüfung vorher', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const { api, claim, panel } = await germanDocumentsTab(page, baseURL!);
    const input = panel.locator('input[type="file"]');
    const problems = panel.getByTestId('upload-problem');

    // A real PDF passes the checks here; on its way the bytes the storage gets are changed, so
    // that the real storage refuses them itself (its S3 codes), as it would a file changed after
    // the check.
    const tamper: ((body: Buffer) => Buffer)[] = [];
    await page.route('**/storage/documents', async (route) => {
      const body = route.request().postDataBuffer()!;
      await route.continue({ postData: tamper.shift()!(body) });
    });

    // Its first bytes no PDF any more: the storage answers InvalidContent.
    tamper.push((body) => {
      const at = body.indexOf('%PDF-');
      return Buffer.concat([body.subarray(0, at), Buffer.from('XPDF-'), body.subarray(at + 5)]);
    });
    await input.setInputFiles({ name: 'bericht.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(problems).toHaveText([
      '„bericht.pdf“ wird nicht hochgeladen: Der Inhalt ist kein PDF.',
    ]);

    // No bytes at all: the storage answers EntityTooSmall, which reads as an empty file's check.
    tamper.push((body) => {
      const part = body.indexOf('name="file"');
      const start = body.indexOf('\r\n\r\n', part) + 4;
      const end = body.indexOf('\r\n--', start);
      return Buffer.concat([body.subarray(0, start), body.subarray(end)]);
    });
    await input.setInputFiles({ name: 'leer.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(problems).toHaveText([
      '„bericht.pdf“ wird nicht hochgeladen: Der Inhalt ist kein PDF.',
      '„leer.pdf“ wird nicht hochgeladen: Der Inhalt ist kein PDF.',
    ]);
    // Refused for good: no retry is offered, nothing is stored.
    await expect(panel.getByText('Fehlgeschlagen', { exact: true })).toHaveCount(2);
    await expect(panel.getByRole('button', { name: 'Wiederholen' })).toHaveCount(0);
    expect(await documentsOf(api, claim.id)).toEqual([]);
    await api.dispose();
  });
});
