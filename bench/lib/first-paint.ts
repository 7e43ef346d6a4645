import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import compression from 'compression';
import express from 'express';
import type { Browser } from '@playwright/test';
import { build } from 'vite';

/**
 * First paint of the sign-in page against an empty React page (issue 14): the empty page is built
 * here with the same Vite and React plugin in production mode, served gzip-compressed by Express
 * as the BFF serves the client, and both are opened alternately in fresh Chromium contexts (no
 * cache); the figure is the page's first-contentful-paint entry, from navigation start.
 */

export interface PaintFigures {
  runs: number;
  signIn: { minMs: number; medianMs: number };
  empty: { minMs: number; medianMs: number };
  /** Median sign-in over median empty page. */
  ratio: number;
}

const EMPTY_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Empty</title><link rel="icon" href="data:," /></head>
  <body><div id="root"></div><script type="module" src="./main.tsx"></script></body>
</html>
`;
const EMPTY_MAIN = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
createRoot(document.getElementById('root')!).render(<StrictMode><p>Empty React page</p></StrictMode>);
`;

/** Builds the empty page inside the project (so `react` resolves) and serves it; stop() cleans. */
async function serveEmptyPage(projectRoot: string) {
  const dir = join(projectRoot, '.tmp', `empty-react-${process.pid}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.html'), EMPTY_HTML);
  await writeFile(join(dir, 'main.tsx'), EMPTY_MAIN);
  await build({
    configFile: false,
    root: dir,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(dir, 'dist'), emptyOutDir: true },
  });
  const app = express();
  app.use(compression());
  app.use(express.static(join(dir, 'dist')));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function firstContentfulPaint(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    const handle = await page.waitForFunction(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export async function measureFirstPaint(
  browser: Browser,
  signInUrl: string,
  projectRoot: string,
  runs: number,
): Promise<PaintFigures> {
  const empty = await serveEmptyPage(projectRoot);
  try {
    // One unmeasured visit each warms the servers (and the disk cache of the built files).
    await firstContentfulPaint(browser, signInUrl);
    await firstContentfulPaint(browser, empty.url);
    const signIn: number[] = [];
    const blank: number[] = [];
    // Alternating, so that drift of the shared machine hits both alike.
    for (let i = 0; i < runs; i++) {
      signIn.push(await firstContentfulPaint(browser, signInUrl));
      blank.push(await firstContentfulPaint(browser, empty.url));
    }
    return {
      runs,
      signIn: { minMs: Math.min(...signIn), medianMs: median(signIn) },
      empty: { minMs: Math.min(...blank), medianMs: median(blank) },
      ratio: median(signIn) / median(blank),
    };
  } finally {
    await empty.stop();
  }
}
