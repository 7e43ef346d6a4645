/**
 * PDF output (issue 19, decision 018): policy schedules printed per second, and what one costs.
 *
 * Method: the document service's renderer in this process (headless Chromium through
 * playwright-core, two pages at a time as in the sandbox) prints `--documents` policy schedules
 * (default 1 000) from the workspace's seeded template and layout with the sample policy, each
 * with its own policy number, `--concurrency` (default 4) asked for at once. The first document
 * (the browser's launch) is timed apart; then each document's time from asked to bytes (median,
 * p95, max), the documents per second over the whole run, the mean size, and a check that every
 * PDF starts with `%PDF-`.
 *
 * Usage: npx tsx bench/pdf-output.ts [--json] [--documents=1000] [--concurrency=4]
 */
import { performance } from 'node:perf_hooks';
import { PdfRenderer } from '#server/sandbox/services/document/pdf-renderer.ts';
import { renderDocumentHtml } from '#server/sandbox/services/document/document-output.ts';
import {
  DEFAULT_LAYOUT,
  POLICY_SCHEDULE,
} from '#server/sandbox/services/document/doc-template-store.ts';
import { documentSampleOf } from '#server/sandbox/services/notification/index.ts';
import { CHROMIUM_PATH } from '#tests/support/chromium.ts';
import { countFlag, runWhenMain } from './lib/cli.ts';
import { median } from './lib/timing.ts';

export interface PdfOutputReport {
  options: { documents: number; concurrency: number };
  launchAndFirstMs: number;
  documentMs: { median: number; p95: number; max: number };
  documentsPerSecond: number;
  meanBytes: number;
  /** The most printed at once: the renderer's limit (2) holds however many are asked. */
  peakPrinting: number;
  failures: string[];
}

export async function measurePdfOutput(opts: {
  documents: number;
  concurrency: number;
}): Promise<PdfOutputReport> {
  const renderer = new PdfRenderer({ executablePath: CHROMIUM_PATH });
  const sources = {
    body: POLICY_SCHEDULE.body,
    layout: { header_template: DEFAULT_LAYOUT.header, footer_template: DEFAULT_LAYOUT.footer },
  };
  const docOf = (n: number) => {
    const values = documentSampleOf('policy', {
      tenantName: 'Demo Versicherung',
      title: POLICY_SCHEDULE.name,
      issuedAt: '2026-11-27',
    });
    const policy = values.policy as Record<string, unknown>;
    values.policy = { ...policy, number: `POL-${String(n).padStart(6, '0')}` };
    return renderDocumentHtml(sources, values, { title: POLICY_SCHEDULE.name });
  };
  const failures: string[] = [];
  try {
    const t0 = performance.now();
    const first = await renderer.render(await docOf(0));
    const launchAndFirstMs = performance.now() - t0;
    if (first.subarray(0, 5).toString() !== '%PDF-') failures.push('document 0 is no PDF');
    const times: number[] = [];
    let bytes = 0;
    let next = 1;
    const started = performance.now();
    const worker = async () => {
      for (let n = next++; n <= opts.documents; n = next++) {
        const asked = performance.now();
        const pdf = await renderer.render(await docOf(n));
        times.push(performance.now() - asked);
        bytes += pdf.length;
        if (pdf.subarray(0, 5).toString() !== '%PDF-') failures.push(`document ${n} is no PDF`);
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency }, worker));
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...times].sort((a, b) => a - b);
    return {
      options: opts,
      launchAndFirstMs,
      documentMs: {
        median: median(times),
        p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
        max: sorted.at(-1) ?? 0,
      },
      documentsPerSecond: times.length / seconds,
      meanBytes: bytes / Math.max(times.length, 1),
      peakPrinting: renderer.peakPrinting,
      failures,
    };
  } finally {
    await renderer.close();
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const report = await measurePdfOutput({
    documents: countFlag(argv, 'documents', 1000),
    concurrency: countFlag(argv, 'concurrency', 4),
  });
  if (argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
  else {
    const r = report;
    console.log(
      `PDF output: ${r.options.documents} policy schedules, ${r.options.concurrency} asked at once`,
    );
    console.log(`  browser launch and first document: ${r.launchAndFirstMs.toFixed(0)} ms`);
    console.log(
      `  one document, asked to bytes: median ${r.documentMs.median.toFixed(0)} ms, p95 ${r.documentMs.p95.toFixed(0)}, max ${r.documentMs.max.toFixed(0)}`,
    );
    console.log(
      `  ${r.documentsPerSecond.toFixed(2)} documents/s; ${(r.meanBytes / 1024).toFixed(1)} KB each on average; at most ${r.peakPrinting} printing at once`,
    );
  }
  if (report.failures.length) {
    for (const f of report.failures) console.error(`FAILED: ${f}`);
    process.exit(1);
  }
}

runWhenMain(import.meta.url, main);
