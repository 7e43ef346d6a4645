import { renderPart } from '#server/sandbox/services/notification/index.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import type { PdfDocument, PdfRenderer } from './pdf-renderer.ts';

/**
 * What every document prints besides its record: the workspace's name, the day it was issued
 * and its title (the template's name), as the document kinds' variables name them.
 */
export async function commonValues(db: Queryable, tenantId: number, title: string, now: Date) {
  const [tenant] = await db.query<{ name: string }>('SELECT name FROM tenants WHERE id = $1', [
    tenantId,
  ]);
  return { tenant: { name: tenant?.name ?? '' }, issuedAt: now.toISOString().slice(0, 10), title };
}

/**
 * A document template with its layout and a record's values as a PDF (issue 19): the body and
 * the layout's header and footer rendered by Liquid with every value escaped, the body set in
 * a page with the documents' styles, the whole printed by Chromium (pdf-renderer.ts).
 */

/**
 * The page's look unless the template's own `<style>` says otherwise. No ligatures: a reader's
 * search and copy (and pdf.js) would find "Haftp fl icht".
 */
const PAGE_STYLE = `
  body { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 10pt;
         line-height: 1.45; color: #111; margin: 0; font-variant-ligatures: none; }
  h1 { font-size: 17pt; margin: 0 0 12pt; }
  h2 { font-size: 12pt; margin: 16pt 0 6pt; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; vertical-align: top; padding: 3pt 6pt 3pt 0;
           border-bottom: 0.5pt solid #bbb; }
  .amount { text-align: right; white-space: nowrap; }
  .address { margin: 0 0 18pt; }
  tr.total th { border-top: 1pt solid #111; }`;

/** Chromium prints header and footer at a tiny default size, without the page's fonts. */
const frame = (html: string) =>
  `<div style="font-family:'DejaVu Sans','Liberation Sans',Arial,sans-serif;font-size:8pt;color:#333;font-variant-ligatures:none;width:100%;box-sizing:border-box;padding:0 20mm;">${html}</div>`;

const escapeText = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export interface DocumentSources {
  body: string;
  layout: { header_template: string; footer_template: string } | null;
}

/** The HTML the printer gets: what a test or a debugging author can look at. */
export async function renderDocumentHtml(
  sources: DocumentSources,
  values: Record<string, unknown>,
  meta: { title: string; language?: string },
): Promise<PdfDocument> {
  const body = await renderPart('html', sources.body, values);
  const [header, footer] = sources.layout
    ? await Promise.all([
        renderPart('html', sources.layout.header_template, values),
        renderPart('html', sources.layout.footer_template, values),
      ])
    : ['', ''];
  return {
    html: `<!doctype html><html lang="${meta.language ?? 'de'}"><head><meta charset="utf-8"><title>${escapeText(meta.title)}</title><style>${PAGE_STYLE}</style></head><body>${body}</body></html>`,
    ...(header.trim() ? { headerHtml: frame(header) } : {}),
    ...(footer.trim() ? { footerHtml: frame(footer) } : {}),
  };
}

/** The document as PDF bytes. */
export async function renderDocumentPdf(
  renderer: PdfRenderer,
  sources: DocumentSources,
  values: Record<string, unknown>,
  meta: { title: string; language?: string },
): Promise<Buffer> {
  return renderer.render(await renderDocumentHtml(sources, values, meta));
}
