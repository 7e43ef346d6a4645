/**
 * What compressing the BFF's JSON answers costs and saves: real list pages of the demo workspace
 * (as the SPA asks for them), each compressed with the candidate settings, CPU time per answer
 * measured over many repetitions. The BFF compresses /api answers with the setting chosen here
 * (server/upstream/compress.ts); this prints the figures that choice rests on. No budget.
 * Usage: npx tsx bench/json-compression.ts [--json] [--repeat=200]
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { startStandaloneSandbox } from '#tests/support/upstream.ts';
import { bearerFromSandbox } from './lib/load.ts';
import { runWhenMain } from './lib/cli.ts';

const PAGES = {
  'policies, 30 rows': '/insuranceservice/v1/policies?pageSize=30&expand=premiumUnits',
  'customers, 30 rows': '/partnerservice/v1/partners?pageSize=30',
  'claims, 30 rows': '/claimservice/v1/claims?pageSize=30',
  'leads, 30 rows': '/insuranceservice/v1/leads?pageSize=30',
};

const SETTINGS: Record<string, (b: Buffer) => Buffer> = {
  'gzip 1': (b) => gzipSync(b, { level: 1 }),
  'gzip 6': (b) => gzipSync(b, { level: 6 }),
  'brotli 4': (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  'brotli 11': (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
};

export interface CompressionRow {
  page: string;
  rawBytes: number;
  settings: Record<string, { bytes: number; cpuMicros: number }>;
}

export async function measureCompression(repeat: number): Promise<CompressionRow[]> {
  const sandbox = await startStandaloneSandbox();
  try {
    const bearer = await bearerFromSandbox(sandbox.url);
    const rows: CompressionRow[] = [];
    for (const [page, path] of Object.entries(PAGES)) {
      const res = await fetch(sandbox.url + path, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      if (!res.ok) throw new Error(`${path} answered ${res.status}`);
      const raw = Buffer.from(await res.arrayBuffer());
      const settings: CompressionRow['settings'] = {};
      for (const [name, compress] of Object.entries(SETTINGS)) {
        // Brotli 11 is the slow end, shown for its size: fewer runs keep the bench short.
        const n = name === 'brotli 11' ? Math.max(5, Math.round(repeat / 20)) : repeat;
        compress(raw);
        const t0 = process.cpuUsage();
        let bytes = 0;
        for (let i = 0; i < n; i++) bytes = compress(raw).length;
        const t = process.cpuUsage(t0);
        settings[name] = { bytes, cpuMicros: (t.user + t.system) / n };
      }
      rows.push({ page, rawBytes: raw.length, settings });
    }
    return rows;
  } finally {
    await sandbox.close();
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const a = argv.find((x) => x.startsWith('--repeat='));
  const repeat = a ? Math.max(1, Number(a.slice(9))) : 200;
  const rows = await measureCompression(repeat);
  if (argv.includes('--json')) return console.log(JSON.stringify(rows, null, 2));
  console.log(`\nJSON compression of real list pages (CPU µs per answer, ${repeat} runs each)`);
  const names = Object.keys(SETTINGS);
  console.log(
    ['page'.padEnd(20), 'raw B'.padStart(8), ...names.map((n) => n.padStart(18))].join(''),
  );
  for (const r of rows) {
    const cells = names.map((n) => {
      const s = r.settings[n]!;
      return `${s.bytes} B ${s.cpuMicros.toFixed(0)} µs`.padStart(18);
    });
    console.log([r.page.padEnd(20), String(r.rawBytes).padStart(8), ...cells].join(''));
  }
}

runWhenMain(import.meta.url, main);
