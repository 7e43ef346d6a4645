import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';

/**
 * Documents as real PDFs (issue 19, docs/decisions/018-pdf-output.md): the rendered HTML of a
 * template printed by headless Chromium, which the tests have on every machine already and the
 * runtime image installs (`chromium fonts-dejavu-core`). One browser per sandbox, started on the
 * first document (about 3 s) and closed with the sandbox; each document gets a context of its
 * own with JavaScript off and every request refused, so a template can neither run code nor
 * fetch anything (images must be inline `data:` URLs). At most MAX_PAGES documents print at
 * once, each within TIME_LIMIT_MS.
 */

/** Root in containers, no GPU, no background connections (the network is closed anyway). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const MAX_PAGES = 2;
const TIME_LIMIT_MS = 20_000;

export interface PdfDocument {
  /** The whole page: `<html>` with its styles, the body already rendered and escaped. */
  html: string;
  /**
   * Chromium's header and footer templates (HTML with inline styles, their own 0 font size
   * unless set); `<span class="pageNumber">` and `<span class="totalPages">` are filled in.
   */
  headerHtml?: string;
  footerHtml?: string;
  /** Page margins in CSS units; the header and footer print inside the top and bottom ones. */
  margin?: { top?: string; bottom?: string; left?: string; right?: string };
}

const DEFAULT_MARGIN = { top: '30mm', bottom: '25mm', left: '20mm', right: '20mm' };

export const pdfUnavailable = (detail: string) =>
  new HttpError(503, 'pdf_unavailable', `PDF output is unavailable: ${detail}`);

export interface PdfRendererOptions {
  /** The Chromium to start: the sandbox's `chromiumPath` (CHROMIUM_PATH in the config). */
  executablePath: string;
  maxPages?: number;
  timeLimitMs?: number;
}

export class PdfRenderer {
  private browser: Promise<Browser> | null = null;
  private closed = false;
  private running = 0;
  private mostAtOnce = 0;
  private readonly queue: (() => void)[] = [];
  private readonly executablePath: string;
  private readonly maxPages: number;
  private readonly timeLimitMs: number;

  constructor(options: PdfRendererOptions) {
    this.executablePath = options.executablePath;
    this.maxPages = options.maxPages ?? MAX_PAGES;
    this.timeLimitMs = options.timeLimitMs ?? TIME_LIMIT_MS;
  }

  /** The browser, launched on first use; a failed launch is tried again by the next document. */
  private launch(): Promise<Browser> {
    if (this.closed) return Promise.reject(pdfUnavailable('the sandbox is closing'));
    if (!this.browser) {
      if (!existsSync(this.executablePath))
        return Promise.reject(
          pdfUnavailable(
            `Chromium not found at ${this.executablePath} (install the packages chromium and fonts-dejavu-core, or set CHROMIUM_PATH)`,
          ),
        );
      const launching = chromium
        .launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS, headless: true })
        .catch((err: unknown) => {
          this.browser = null;
          throw pdfUnavailable(`Chromium did not start: ${String((err as Error).message ?? err)}`);
        });
      this.browser = launching;
    }
    return this.browser;
  }

  private async slot(): Promise<() => void> {
    if (this.running >= this.maxPages)
      await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    return () => {
      this.running--;
      this.queue.shift()?.();
    };
  }

  /** The most documents printing at the same time so far: never above `maxPages` (tests, bench). */
  get peakPrinting(): number {
    return this.mostAtOnce;
  }

  /** Prints one document to A4 PDF bytes (fonts embedded); 503 when Chromium is unavailable. */
  async render(doc: PdfDocument): Promise<Buffer> {
    const release = await this.slot();
    try {
      const browser = await this.launch();
      const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
      let timer: NodeJS.Timeout | undefined;
      try {
        const page = await context.newPage();
        // Nothing leaves the page: no fonts, images or styles from anywhere.
        await page.route('**/*', (route) => route.abort());
        const printing = (async () => {
          // No timeout of its own: the race below is the one time limit, answered as 504.
          await page.setContent(doc.html, { waitUntil: 'load', timeout: 0 });
          return page.pdf({
            format: 'A4',
            printBackground: true,
            displayHeaderFooter: Boolean(doc.headerHtml || doc.footerHtml),
            // Chromium prints its own date and title where a template is empty.
            headerTemplate: doc.headerHtml || '<span></span>',
            footerTemplate: doc.footerHtml || '<span></span>',
            margin: { ...DEFAULT_MARGIN, ...doc.margin },
          });
        })();
        // Past the time limit the context's closing fails the print: nobody waits for it then.
        printing.catch(() => {});
        const timeout = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new HttpError(504, 'pdf_timeout', 'the document took too long to print')),
            this.timeLimitMs,
          );
        });
        return await Promise.race([printing, timeout]);
      } finally {
        clearTimeout(timer);
        await context.close().catch(() => {});
      }
    } finally {
      release();
    }
  }

  /** Closes the browser if one was started; documents asked for afterwards are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close().catch(() => {});
  }
}

/** Each sandbox's renderer (two sandboxes in one test process print apart), made on first use. */
const renderers = new WeakMap<object, PdfRenderer>();

export function pdfRendererOf(ctx: Pick<SandboxContext, 'chromiumPath'>): PdfRenderer {
  let renderer = renderers.get(ctx);
  if (!renderer) {
    renderer = new PdfRenderer({ executablePath: ctx.chromiumPath });
    renderers.set(ctx, renderer);
  }
  return renderer;
}

/** Closes the sandbox's renderer (its browser) when the sandbox closes: the service's stop. */
export async function closePdfRenderer(ctx: object): Promise<void> {
  await renderers.get(ctx)?.close();
  renderers.delete(ctx);
}
