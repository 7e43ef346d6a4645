/**
 * Diagnostic (no budget): what the long tasks of a list's opening are. Opens a list like
 * bench/list-long-tasks.ts (fresh context, signed in, CPU throttled by `--rate`), traces it with
 * Chromium's timeline categories and samples JavaScript with CDP's Profiler, then prints for the
 * longest tasks of the page's main thread their CPU time and what they held (script evaluation,
 * function calls by script, style, layout, paint, parsing), and the functions with the most self
 * time inside those tasks. Read it over an unminified build (`npx vite build --minify=false`).
 * Usage: npx tsx bench/list-profile.ts [--list=policies] [--rate=4] [--tasks=5] [--runs=1]
 */
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/support/chromium.ts';
import { PASSWORD, startStack } from '#tests/support/stack.ts';
import { numberFlag } from './lib/cli.ts';
import { USER } from './lib/load.ts';
import { LISTS } from './list-long-tasks.ts';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: {
    name?: string;
    data?: { url?: string; functionName?: string; frame?: string; type?: string };
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const argv = process.argv.slice(2);
const list = (argv.find((a) => a.startsWith('--list='))?.slice(7) ??
  'policies') as keyof typeof LISTS;
const rate = numberFlag(argv, 'rate', 4);
const taskCount = numberFlag(argv, 'tasks', 5);
const runs = numberFlag(argv, 'runs', 1);

// Every LCP candidate in order, with its size: what the table's cells compete with.
const LCP_PROBE = `
  window.__lcp = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const el = e.element;
      const label = !el ? '(gone)' : el.tagName.toLowerCase() +
        (el.getAttribute('role') ? '[role=' + el.getAttribute('role') + ']' : '') +
        ' "' + (el.textContent || '').trim().slice(0, 40) + '"' +
        (el.closest('[role="table"]') ? ' (table)' : '');
      window.__lcp.push(Math.round(e.startTime) + ' ms  ' + e.size + '  ' + label);
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

const shortUrl = (url = '') => url.replace(/^.*\/(assets|src)\//, '').slice(0, 60) || '(none)';

const stack = await startStack();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const signIn = await browser.newContext();
  await signIn.request.post(stack.url + '/bff/login', {
    headers: { 'x-csrf': '1' },
    data: { username: USER, password: PASSWORD },
  });
  const cookies = await signIn.cookies();
  await signIn.close();
  for (let run = 0; run <= runs; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.addCookies(cookies);
    await context.addInitScript(() => localStorage.setItem('bo.language', 'en'));
    await context.addInitScript(LCP_PROBE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'],
    });
    await page.goto(stack.url + LISTS[list]);
    await page.locator('[data-testid="table-body"] [role="row"]').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate(
      () => new Promise<void>((d) => requestAnimationFrame(() => requestAnimationFrame(() => d()))),
    );
    const lcp = await page.evaluate(() => (window as unknown as { __lcp: string[] }).__lcp);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const trace = JSON.parse((await browser.stopTracing()).toString()) as {
      traceEvents: TraceEvent[];
    };
    await context.close();
    if (run === 0) continue; // warm-up
    report(trace.traceEvents, profile);
    console.log('  LCP candidates (time, size, element):');
    for (const line of lcp) console.log(`    ${line}`);
  }
} finally {
  await browser.close();
  await stack.stop();
}

function report(events: TraceEvent[], profile: CpuProfile) {
  const mains = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  let best: TraceEvent[] = [];
  for (const main of mains) {
    const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
    const busy = mine.filter((e) => e.name === 'RunTask').reduce((s, e) => s + (e.tdur ?? 0), 0);
    if (busy > best.filter((e) => e.name === 'RunTask').reduce((s, e) => s + (e.tdur ?? 0), 0))
      best = mine;
  }
  const tasks = best
    .filter((e) => e.name === 'RunTask')
    .sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))
    .slice(0, taskCount);
  const t0 = Math.min(...best.map((e) => e.ts));
  // Profile sample times (µs, same clock as the trace's ts on one machine).
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const sampleTimes: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) sampleTimes.push((t += d));
  console.log(`\n${list} at ${rate}x: the ${tasks.length} longest tasks (CPU ms, wall ms)`);
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = best.filter(
      (e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && e.name !== 'RunTask',
    );
    const parts = new Map<string, number>();
    for (const e of inside) {
      const what =
        e.name === 'EvaluateScript' || e.name === 'v8.compileModule' || e.name === 'FunctionCall'
          ? `${e.name} ${shortUrl(e.args?.data?.url)} ${e.args?.data?.functionName ?? ''}`
          : e.name;
      parts.set(what, (parts.get(what) ?? 0) + (e.tdur ?? e.dur ?? 0));
    }
    console.log(
      `  task at ${((task.ts - t0) / 1000).toFixed(0)} ms: ${((task.tdur ?? 0) / 1000).toFixed(1)} CPU, ${((task.dur ?? 0) / 1000).toFixed(1)} wall`,
    );
    for (const [what, us] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, 10)) {
      console.log(`      ${(us / 1000).toFixed(1).padStart(7)}  ${what}`);
    }
    const self = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const at = sampleTimes[i]!;
      if (at < task.ts || at > end) return;
      const node = byId.get(id)!;
      const f = node.callFrame;
      const key = `${f.functionName || '(anon)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
    });
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 12);
    for (const [what, us] of top)
      console.log(`        self ${(us / 1000).toFixed(1).padStart(6)}  ${what}`);
  }
}
