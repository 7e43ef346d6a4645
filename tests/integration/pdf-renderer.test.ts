import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfRenderer } from '#server/sandbox/services/document/pdf-renderer.ts';
import { renderDocumentHtml } from '#server/sandbox/services/document/document-output.ts';
import { CHROMIUM_PATH } from '#tests/support/chromium.ts';
import { pdfPages } from '#tests/support/pdf.ts';

// Documents printed by headless Chromium (decision 018): fonts embedded so that umlauts and
// Polish letters read back, page numbers in the footer, no script and no request from a template.
const renderer = new PdfRenderer({ executablePath: CHROMIUM_PATH });
afterAll(() => renderer.close());

const FOOTER =
  '<div style="font-size:9px;width:100%;text-align:center">Seite <span class="pageNumber"></span> von <span class="totalPages"></span></div>';

describe('the PDF renderer', () => {
  it('prints umlauts and Polish letters as text, with "Seite x von y" on every page', async () => {
    const html = `<!doctype html><html><head><meta charset="utf-8"><style>
      body { font-family: 'DejaVu Sans', sans-serif; } .next { page-break-before: always; }
      </style></head><body>
      <h1>Versicherungsschein für Jürgen Größe</h1>
      <p>Wohnort: Łódź, ąęśćżźńół ĄĘŚĆŻŹŃÓŁ</p>
      <p class="next">Zweite Seite: Prämie 488,72 €</p>
      </body></html>`;
    const bytes = await renderer.render({
      html,
      headerHtml: '<div style="font-size:9px;margin-left:20mm">Nordlicht Versicherung</div>',
      footerHtml: FOOTER,
    });
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const pages = await pdfPages(bytes);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Versicherungsschein für Jürgen Größe');
    expect(pages[0]).toContain('Łódź, ąęśćżźńół ĄĘŚĆŻŹŃÓŁ');
    expect(pages[0]).toContain('Nordlicht Versicherung');
    expect(pages[0]).toContain('Seite 1 von 2');
    expect(pages[1]).toContain('Prämie 488,72 €');
    expect(pages[1]).toContain('Seite 2 von 2');
  });

  it('runs no script of a template and lets it fetch nothing', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const bytes = await renderer.render({
        html: `<html><head><link rel="stylesheet" href="${url}/style.css"></head><body>
          <p id="text">Nur Text</p><img src="${url}/logo.png">
          <script>document.getElementById('text').textContent = 'Skript lief';</script>
          </body></html>`,
      });
      const [page] = await pdfPages(bytes);
      expect(page).toContain('Nur Text');
      expect(page).not.toContain('Skript lief');
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });

  it('prints documents asked for at once (two at a time), each as asked', async () => {
    const all = await Promise.all(
      [1, 2, 3, 4].map((n) => renderer.render({ html: `<p>Dokument ${n}</p>` })),
    );
    const texts = await Promise.all(all.map(async (bytes) => (await pdfPages(bytes))[0]));
    expect(texts).toEqual(['Dokument 1', 'Dokument 2', 'Dokument 3', 'Dokument 4']);
    // Four asked for at once, two printed at a time: the others waited for a free page.
    expect(renderer.peakPrinting).toBe(2);
  });

  it('gives up on a document past its time limit with 504 pdf_timeout, and prints the next', async () => {
    const hasty = new PdfRenderer({ executablePath: CHROMIUM_PATH, timeLimitMs: 1 });
    try {
      await expect(hasty.render({ html: '<p>zu langsam</p>' })).rejects.toMatchObject({
        status: 504,
        code: 'pdf_timeout',
      });
    } finally {
      await hasty.close();
    }
    const next = await renderer.render({ html: '<p>danach</p>' });
    expect((await pdfPages(next))[0]).toBe('danach');
  });

  it('prints a customer named <script> as text: values are escaped, scripts never run', async () => {
    const doc = await renderDocumentHtml(
      {
        body: '<p>Kunde: {{ policy.holder.name }}</p>',
        layout: { header_template: '{{ tenant.name }}', footer_template: '' },
      },
      {
        tenant: { name: '<b>Nord & Licht</b>' },
        policy: { holder: { name: '<script>document.write("gehackt")</script> Jörg' } },
      },
      { title: 'Test <i>' },
    );
    expect(doc.html).toContain('&lt;script&gt;');
    expect(doc.html).not.toContain('<script>');
    const [page] = await pdfPages(await renderer.render(doc));
    expect(page).toContain('Kunde: <script>document.write("gehackt")</script> Jörg');
    expect(page).toContain('<b>Nord & Licht</b>');
  });

  it('says clearly when Chromium is missing', async () => {
    const missing = new PdfRenderer({ executablePath: '/nonexistent/chromium' });
    await expect(missing.render({ html: '<p>x</p>' })).rejects.toMatchObject({
      status: 503,
      code: 'pdf_unavailable',
      message: expect.stringContaining('Chromium not found at /nonexistent/chromium'),
    });
  });
});
