/** Debian's Chromium, started the way these machines need it: no sandbox (root), and no
 * background networking (the network is closed; those connections would only fail). Shared by
 * the Playwright config and the benchmarks. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
