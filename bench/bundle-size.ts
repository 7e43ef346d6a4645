/**
 * JavaScript weight of the sign-in page and of the shell, as a real Chromium loads it from the
 * real BFF. Usage: npx tsx bench/bundle-size.ts [--check] [--json]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Response } from '@playwright/test';
import { PASSWORD, startStack } from '#tests/support/stack.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/support/chromium.ts';
import { checkBudgets, numberFlag, runWhenMain } from './lib/cli.ts';
import { measureFirstPaint, type PaintFigures } from './lib/first-paint.ts';

/** Budget of the sign-in page: gzip (level 9) bytes of all the JavaScript it loads. */
export const SIGN_IN_BUDGET_GZIP_BYTES = 110 * 1024;
/** Budget of the shell: gzip bytes of all the JavaScript of the sign-in page plus `/u/0`. */
export const SHELL_BUDGET_GZIP_BYTES = 180 * 1024;
/** The sign-in page's first paint over an empty React page's, medians (printed, not a check). */
export const FIRST_PAINT_GOAL_RATIO = 1.2;
/** bpmn-js belongs to the process screens only; neither sign-in nor the shell may pull it in. */
export const BPMN_BUDGET_BYTES = 0;

const USER = 'admin@demo.test';
// Strings that only bpmn-js (or its moddle schema) ships; a chunk holding any of them is counted
// whole, since a bundler may have merged bpmn-js with other code.
const BPMN_SIGNATURES = ['bpmn-js', 'BpmnJS', 'bpmn:Definitions'];

/**
 * The code of a chunk without the names of other chunks: a lazy route's preload list names its
 * files (`assets/bpmn-js-….js`), which is a name, not the library.
 */
const withoutAssetNames = (text: string) => text.replace(/assets\/[\w.-]+\.(?:js|css)/g, '');

const root = fileURLToPath(new URL('..', import.meta.url));
const clientDir = join(root, 'dist', 'client');

export interface Script {
  url: string;
  rawBytes: number;
  gzipBytes: number;
  /** Encoded body bytes on the wire (the BFF compresses), without headers. */
  transferredBytes: number;
  bpmn: boolean;
}

export interface ScriptSet {
  files: number;
  rawBytes: number;
  gzipBytes: number;
  transferredBytes: number;
  bpmnBytes: number;
  scripts: Script[];
}

export interface BundleReport {
  signIn: ScriptSet;
  /** What the shell loads on top of the sign-in page; null when signing in did not work. */
  shell: ScriptSet | null;
  total: ScriptSet;
  signInMethod: 'form' | 'request' | 'failed';
  pageErrors: string[];
  budgets: { signInGzipBytes: number; shellGzipBytes: number; bpmnBytes: number };
  /** Null when not measured (`--paint-runs=0` is refused; `--no-paint` skips it). */
  firstPaint: PaintFigures | null;
  failures: string[];
}

function summarise(scripts: Script[]): ScriptSet {
  const sum = (f: (s: Script) => number) => scripts.reduce((n, s) => n + f(s), 0);
  return {
    files: scripts.length,
    rawBytes: sum((s) => s.rawBytes),
    gzipBytes: sum((s) => s.gzipBytes),
    transferredBytes: sum((s) => s.transferredBytes),
    bpmnBytes: sum((s) => (s.bpmn ? s.rawBytes : 0)),
    scripts,
  };
}

function isJavaScript(res: Response): boolean {
  const type = res.headers()['content-type'] ?? '';
  return (
    res.request().resourceType() === 'script' ||
    /javascript|ecmascript/.test(type) ||
    /\.m?js(\?|$)/.test(new URL(res.url()).pathname)
  );
}

/** Records every JavaScript response of a page, keyed by URL (a module is fetched once). */
class ScriptRecorder {
  private readonly pending: Promise<void>[] = [];
  readonly seen = new Map<string, Script>();

  constructor(page: Page) {
    page.on('response', (res) => {
      if (!isJavaScript(res) || res.status() < 200 || res.status() >= 300) return;
      // The body has to be read while the page still holds it, so start right away.
      this.pending.push(this.record(res));
    });
  }

  private async record(res: Response) {
    const url = res.url();
    if (this.seen.has(url)) return;
    try {
      const body = await res.body();
      const sizes = await res.request().sizes();
      const text = body.toString('utf8');
      this.seen.set(url, {
        url,
        rawBytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        transferredBytes: sizes.responseBodySize,
        bpmn: BPMN_SIGNATURES.some((s) => withoutAssetNames(text).includes(s)),
      });
    } catch (err) {
      process.stderr.write(`warning: could not read ${url}: ${(err as Error).message}\n`);
    }
  }

  async settled() {
    await Promise.all(this.pending.splice(0));
  }
}

/** Network idle for a client-side navigation too: no request in flight for `quietMs`. */
async function networkIdle(page: Page, quietMs = 500, timeoutMs = 15_000) {
  let inFlight = 0;
  let last = Date.now();
  const up = () => {
    inFlight++;
    last = Date.now();
  };
  const down = () => {
    inFlight = Math.max(0, inFlight - 1);
    last = Date.now();
  };
  page.on('request', up);
  page.on('requestfinished', down);
  page.on('requestfailed', down);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline && (inFlight > 0 || Date.now() - last < quietMs)) {
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    page.off('request', up);
    page.off('requestfinished', down);
    page.off('requestfailed', down);
  }
}

async function signInThroughForm(page: Page): Promise<boolean> {
  try {
    await page.locator('input[name="username"]').fill(USER, { timeout: 5_000 });
    await page.locator('input[name="password"]').fill(PASSWORD, { timeout: 5_000 });
    await page.locator('input[name="password"]').press('Enter');
    await page.waitForURL(/\/u\/0(\/|$|\?)/, { timeout: 15_000 });
    return true;
  } catch {
    return false;
  }
}

async function signInThroughRequest(page: Page): Promise<boolean> {
  const res = await page.request.post('/bff/login', {
    headers: { 'x-csrf': '1' },
    data: { username: USER, password: PASSWORD },
  });
  if (!res.ok()) return false;
  await page.goto('/u/0', { waitUntil: 'networkidle' });
  return true;
}

export async function measureBundles(paintRuns = 7): Promise<BundleReport> {
  const stack = await startStack();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ baseURL: stack.url });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const recorder = new ScriptRecorder(page);

    await page.goto('/login', { waitUntil: 'networkidle' });
    await networkIdle(page);
    await recorder.settled();
    const signInUrls = new Set(recorder.seen.keys());

    let signInMethod: BundleReport['signInMethod'] = 'form';
    if (!(await signInThroughForm(page))) {
      signInMethod = (await signInThroughRequest(page)) ? 'request' : 'failed';
    }
    if (signInMethod !== 'failed') await networkIdle(page);
    await recorder.settled();
    await context.close();
    const firstPaint = paintRuns
      ? await measureFirstPaint(browser, `${stack.url}/login`, root, paintRuns)
      : null;

    const all = [...recorder.seen.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
    const signIn = summarise(all.filter((s) => signInUrls.has(s.url)));
    const shell =
      signInMethod === 'failed' ? null : summarise(all.filter((s) => !signInUrls.has(s.url)));
    const total = summarise(all);

    const failures: string[] = [];
    if (signIn.files === 0) failures.push('the sign-in page loaded no JavaScript at all');
    if (signIn.gzipBytes > SIGN_IN_BUDGET_GZIP_BYTES) {
      failures.push(
        `sign-in page JavaScript is ${kb(signIn.gzipBytes)} gzip, over the budget of ${kb(SIGN_IN_BUDGET_GZIP_BYTES)}`,
      );
    }
    if (!shell) failures.push('signing in failed, so the shell could not be measured');
    // The shell's figure is what a user has loaded once it shows: the sign-in page and `/u/0`.
    if (shell && total.gzipBytes > SHELL_BUDGET_GZIP_BYTES) {
      failures.push(
        `shell JavaScript (sign-in page and /u/0) is ${kb(total.gzipBytes)} gzip, over the budget of ${kb(SHELL_BUDGET_GZIP_BYTES)}`,
      );
    }
    if (total.bpmnBytes > BPMN_BUDGET_BYTES) {
      const chunks = total.scripts.filter((s) => s.bpmn).map((s) => new URL(s.url).pathname);
      failures.push(`bpmn-js is loaded (${total.bpmnBytes} bytes, in ${chunks.join(', ')})`);
    }
    return {
      signIn,
      shell,
      total,
      signInMethod,
      pageErrors,
      budgets: {
        signInGzipBytes: SIGN_IN_BUDGET_GZIP_BYTES,
        shellGzipBytes: SHELL_BUDGET_GZIP_BYTES,
        bpmnBytes: BPMN_BUDGET_BYTES,
      },
      firstPaint,
      failures,
    };
  } finally {
    await browser.close();
    await stack.stop();
  }
}

/** The report with paths instead of full URLs (the port changes on every run). */
export function bundlesJson(r: BundleReport) {
  const slim = (s: ScriptSet | null) =>
    s && { ...s, scripts: s.scripts.map((x) => ({ ...x, url: new URL(x.url).pathname })) };
  return { ...r, signIn: slim(r.signIn), shell: slim(r.shell), total: slim(r.total) };
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function printBundles(r: BundleReport) {
  const rows: [string, ScriptSet | null][] = [
    ['sign-in page (/login)', r.signIn],
    ['shell, in addition (/u/0)', r.shell],
    ['both', r.total],
  ];
  const line = (cells: string[]) =>
    console.log(cells.map((c, i) => (i === 0 ? c.padEnd(28) : c.padStart(13))).join(''));
  console.log('\nJavaScript loaded by the browser (gzip: level 9 over the bodies)');
  line(['', 'files', 'raw', 'gzip', 'transferred', 'bpmn-js']);
  for (const [name, s] of rows) {
    if (!s) {
      line([name, 'n/a', '', '', '', '']);
      continue;
    }
    line([
      name,
      String(s.files),
      kb(s.rawBytes),
      kb(s.gzipBytes),
      kb(s.transferredBytes),
      String(s.bpmnBytes),
    ]);
  }
  console.log(
    `budgets: sign-in <= ${kb(r.budgets.signInGzipBytes)} gzip (${((100 * r.signIn.gzipBytes) / r.budgets.signInGzipBytes).toFixed(0)}% used); shell (both) <= ${kb(r.budgets.shellGzipBytes)} gzip (${((100 * r.total.gzipBytes) / r.budgets.shellGzipBytes).toFixed(0)}% used); bpmn-js = 0 bytes`,
  );
  console.log('largest scripts (gzip):');
  for (const s of r.total.scripts.slice(0, 5)) {
    console.log(`  ${kb(s.gzipBytes).padStart(9)}  ${new URL(s.url).pathname}`);
  }
  const paint = r.firstPaint;
  if (paint) {
    const ms = (x: { minMs: number; medianMs: number }) =>
      `min ${x.minMs.toFixed(0)} ms, median ${x.medianMs.toFixed(0)} ms`;
    console.log(`first contentful paint in Chromium, ${paint.runs} runs each, alternating:`);
    console.log(`  sign-in page      ${ms(paint.signIn)}`);
    console.log(`  empty React page  ${ms(paint.empty)}`);
    console.log(
      `  ratio of medians  ${paint.ratio.toFixed(2)} (goal <= ${FIRST_PAINT_GOAL_RATIO})`,
    );
  }
  if (r.signInMethod === 'request') {
    console.log('note: the sign-in form did not lead to /u/0; signed in through POST /bff/login');
  }
  if (r.signInMethod === 'failed') console.log('note: signing in failed; no shell figures');
  if (r.pageErrors.length) {
    console.log(`note: ${r.pageErrors.length} page error(s), e.g. ${r.pageErrors[0]}`);
  }
}

/** Null when the client is built, else what to tell the user. */
export function missingBuildMessage(): string | null {
  return existsSync(join(clientDir, 'index.html'))
    ? null
    : `No client build in ${clientDir}. Build it first: npx vite build`;
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const missing = missingBuildMessage();
  if (missing) {
    console.error(missing);
    process.exit(1);
  }
  const report = await measureBundles(
    args.has('--no-paint') ? 0 : numberFlag([...args], 'paint-runs', 7),
  );
  if (args.has('--json')) {
    console.log(JSON.stringify(bundlesJson(report), null, 2));
  } else {
    printBundles(report);
  }
  checkBudgets([...args], report.failures);
}

runWhenMain(import.meta.url, main);
