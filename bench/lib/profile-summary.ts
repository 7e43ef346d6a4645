/**
 * Reads a V8 .cpuprofile (node --cpu-prof; `proxy-throughput.ts --profile` writes one of the
 * proxies' process) and prints where the time went: self time by package or source file, and
 * inclusive time of the heaviest functions, per request when the request count is given.
 * Usage: npx tsx bench/lib/profile-summary.ts <file.cpuprofile> [requests] [--filter=text]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/<pkg> (scoped too), a repository file, or a node: built-in. */
function owner(url: string): string {
  if (!url) return '(native/VM)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return url;
  const repo = /\/(server|bench|tests|common|machines)\/.*$/.exec(url);
  return repo ? repo[0].slice(1) : url;
}

function main() {
  const [file, requestsArg, ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [requests]');
  const filter = rest.find((a) => a.startsWith('--filter='))?.slice('--filter='.length);
  const requests = Number(requestsArg) || 0;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
      // These have no stack, so a filter cannot claim them.
      if (filter) return;
      if (name !== '(idle)') self.set(name, (self.get(name) ?? 0) + dt);
      if (name === '(garbage collector)') busy += dt;
      return;
    }
    // Only samples whose stack passes through `filter` (a function name or file) count.
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      stack.push(byId.get(cur)!);
    }
    const key = (n: ProfileNode) =>
      `${n.callFrame.functionName || '(anonymous)'} ${owner(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    if (filter && !stack.some((n) => key(n).includes(filter))) return;
    busy += dt;
    const o = owner(node.callFrame.url);
    self.set(o, (self.get(o) ?? 0) + dt);
    for (const k of new Set(stack.map(key))) inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
  });

  const fmt = (micros: number) =>
    requests
      ? `${(micros / requests).toFixed(1).padStart(8)} µs/req`
      : `${(micros / 1000).toFixed(0).padStart(8)} ms`;
  console.log(
    `profile: ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s` +
      (filter ? ` (stacks through "${filter}")` : '') +
      (requests ? `, ${requests} requests` : ''),
  );
  console.log('\nself time by package / file:');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${fmt(v)}  ${k}`);
  }
  console.log('\ninclusive time by function:');
  for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 60)) {
    console.log(`${fmt(v)}  ${k}`);
  }
}

main();
