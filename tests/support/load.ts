// Mixed reads and writes from many browser-like sessions, every answer checked, and the writes
// checked afterwards against the sandbox. Shared by tests/security/load.test.ts (short, asserts)
// and bench/topology.ts (long, prints).
import { api, login } from '#server/sandbox/testing.ts';
import { Agent } from '#tests/support/stack.ts';

export const LOAD_USERS = [
  'admin@demo.test',
  'manager@demo.test',
  'viewer@demo.test',
  'admin@nordlicht.test',
];
/** Seeded users without `tenant-management.users.view`: their user search must be a 403. */
const NO_USERS_VIEW = new Set(['manager@demo.test']);

export interface Write {
  key: string;
  value: string;
  tenant: string;
  status: number | 'network';
}

/**
 * What a write's answer means (bench/README.md, "Writes"):
 * - 2xx: acknowledged; it must be in the sandbox afterwards.
 * - 4xx, or 503 (the BFF or nginx refused before the upstream had it: Redis away, a full
 *   queue, draining): refused; it must not be in the sandbox.
 * - 502, 504 or no answer at all: the outcome is unknown (the upstream may have applied it
 *   before the connection broke); counted and shown, either state is allowed.
 */
export type WriteOutcome = 'acknowledged' | 'refused' | 'unknown';
export function writeOutcome(status: number | 'network'): WriteOutcome {
  if (status === 'network' || status === 502 || status === 504) return 'unknown';
  return status >= 200 && status < 300 ? 'acknowledged' : 'refused';
}

/** How many requests a load run has completed, and a way to wait for a count: lets a test put a
 * fault into the run after so much load, however fast the machine is today. */
export class LoadProgress {
  count = 0;
  private waiters: { n: number; resolve: () => void }[] = [];

  /** Resolves once `n` requests have completed. */
  reached(n: number): Promise<void> {
    if (this.count >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  /** Resolves once `n` more requests than now have completed. */
  more(n: number): Promise<void> {
    return this.reached(this.count + n);
  }

  completed() {
    this.count++;
    const due = this.waiters.filter((w) => w.n <= this.count);
    this.waiters = this.waiters.filter((w) => w.n > this.count);
    for (const w of due) w.resolve();
  }
}

export interface LoadOptions {
  base: string;
  sessions: number;
  /** How long the sessions run, unless `until` is given. */
  durationMs?: number;
  /** The sessions run until this settles (and `durationMs`, if given, has passed). */
  until?: Promise<unknown>;
  progress?: LoadProgress;
  /** Prefix of the written keys, unique per run (the database may be shared). */
  runId: string;
  /** The error statuses allowed now, in the JSON error shape, because a fault is on (or just
   * was): a 503 while Redis is away, a 504 while the upstream hangs. */
  allowedNow: () => readonly number[];
  /** Each session's pause between two rounds. */
  pauseMs?: number;
}

export interface LoadReport {
  requests: number;
  latenciesMs: number[];
  /** Answers that should not be, with what came back. */
  unexpected: string[];
  /** Allowed error answers during a fault. */
  refusals: number;
  /** Requests sent again because the server closed a kept-alive connection before answering. */
  resent: number;
  /** Sessions that were signed out (a 401, or the session without its account), once each. */
  signedOut: string[];
  writes: Write[];
}

interface Client {
  agent: Agent;
  user: string;
  index: number;
}

/** Signs the sessions in, a few at a time: the sandbox hashes each password (slow on purpose). */
export async function signIn(base: string, sessions: number): Promise<Client[]> {
  const clients = Array.from({ length: sessions }, (_, index) => ({
    agent: new Agent(base),
    user: LOAD_USERS[index % LOAD_USERS.length]!,
    index,
  }));
  for (let w = 0; w < clients.length; w += 10) {
    const wave = clients.slice(w, w + 10);
    const answers = await Promise.all(wave.map((c) => c.agent.login(c.user)));
    const bad = answers.filter((a) => a.status !== 200);
    if (bad.length) throw new Error(`sign-in: ${bad.map((a) => a.status).join(', ')}`);
  }
  return clients;
}

/**
 * A simulated user's pause between two rounds, half to one and a half times `ms`: part of the load
 * this generator makes, as a person reading a page pauses. It waits for nothing the system under
 * test does; the checks wait on answers.
 */
function thinkTime(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms * (0.5 + Math.random())));
}

export async function runLoad(clients: Client[], opts: LoadOptions): Promise<LoadReport> {
  const report: LoadReport = {
    requests: 0,
    latenciesMs: [],
    unexpected: [],
    refusals: 0,
    resent: 0,
    signedOut: [],
    writes: [],
  };
  const started = Date.now();
  const deadline = started + (opts.durationMs ?? 0);
  let ended = opts.until === undefined;
  void opts.until?.finally(() => (ended = true));
  const running = () => !ended || Date.now() < deadline;
  // When it happened, to set it beside the faults' times.
  const at = () => `at ${((Date.now() - started) / 1000).toFixed(1)} s`;
  // Signed out: counted once, and that session stops (a browser would show the sign-in page).
  const out = new Map<Client, string>();
  const pause = opts.pauseMs ?? 250;

  const call = async (c: Client, what: string, path: string, json?: unknown, expected = 200) => {
    const started = performance.now();
    let status: number | 'network' = 'network';
    let body: unknown = null;
    // Up to two resends: the pool may hold more than one kept-alive connection to the same
    // closing nginx worker, and a browser sends again on each such failure too.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const r = await c.agent.json(path, json === undefined ? {} : { json });
        status = r.status;
        body = r.body;
        break;
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        body = `${(err as Error).message}: ${cause?.code ?? ''} ${cause?.message ?? ''}`;
        // A kept-alive connection the server closed just as this request went out (nginx's old
        // workers do that on a reload): no answer was started, and a browser sends it again on
        // a new connection. Our writes are idempotent (a key set to a value), so this is safe.
        if (cause?.code !== 'UND_ERR_SOCKET' && cause?.code !== 'ECONNRESET') break;
        report.resent++;
      }
    }
    report.requests++;
    opts.progress?.completed();
    report.latenciesMs.push(performance.now() - started);
    const ok = status === expected;
    if (!ok) {
      const shaped =
        typeof body === 'object' && body !== null && 'error' in body && 'message' in body;
      if (status === 401) out.set(c, `${what} ${at()}: 401 ${JSON.stringify(body)}`);
      else if (shaped && opts.allowedNow().includes(status as number)) report.refusals++;
      else report.unexpected.push(`${what} ${c.index} ${at()}: ${status} ${JSON.stringify(body)}`);
    }
    return { ok, status, body: body as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- shapes checked below
  };

  const session = async (c: Client) => {
    for (let n = 0; running() && !out.has(c); n++) {
      const s = await call(c, 'session', '/bff/session');
      if (s.ok && s.body.accounts?.[0]?.userName !== c.user)
        out.set(c, `${at()}: session without its account: ${JSON.stringify(s.body)}`);
      if (out.has(c)) break;
      await call(c, 'general', '/api/0/tenantservice/v1/general');
      const me = await call(
        c,
        'users',
        `/api/0/tenantservice/v1/users?filter=${encodeURIComponent(`email=${c.user}`)}`,
        undefined,
        NO_USERS_VIEW.has(c.user) ? 403 : 200,
      );
      if (me.ok && me.status === 200 && me.body.items?.[0]?.email !== c.user)
        report.unexpected.push(`users ${c.index}: someone else's answer`);
      if (c.user.startsWith('admin@')) {
        const key = `${opts.runId}_${c.index}_${n}`;
        const value = `${c.user}:${n}`;
        const w = await call(c, 'write', '/api/0/tenantservice/v1/settings/tenant', {
          key,
          value,
        });
        report.writes.push({ key, value, tenant: c.user.split('@')[1]!, status: w.status });
      }
      await thinkTime(pause);
    }
  };
  await Promise.all(clients.map(session));
  report.signedOut = [...out].map(([c, why]) => `${c.index} ${c.user} ${why}`);
  return report;
}

export interface WriteCheck {
  acknowledged: number;
  refused: number;
  unknown: number;
  /** Acknowledged writes missing (or wrong) in the sandbox. */
  lost: string[];
  /** Refused writes that the sandbox has anyway. */
  appliedRefused: string[];
  /** Unknown-outcome writes that the sandbox has (allowed, shown). */
  appliedUnknown: number;
  /** Keys of one tenant visible in the other. */
  leaked: string[];
}

/** Reads every written key back from the sandbox itself, as each tenant's administrator. */
export async function checkWrites(sandboxUrl: string, writes: Write[]): Promise<WriteCheck> {
  const check: WriteCheck = {
    acknowledged: 0,
    refused: 0,
    unknown: 0,
    lost: [],
    appliedRefused: [],
    appliedUnknown: 0,
    leaked: [],
  };
  const read = async (token: string, keys: string[]) => {
    const found = new Map<string, unknown>();
    for (let k = 0; k < keys.length; k += 40) {
      const chunk = keys.slice(k, k + 40);
      const r = await api(sandboxUrl, `/tenantservice/v1/settings/tenant?keys=${chunk.join(',')}`, {
        token,
      });
      if (r.status !== 200) throw new Error(`reading settings back: ${r.status}`);
      for (const v of r.body.values as { key: string; value: unknown }[]) found.set(v.key, v.value);
    }
    return found;
  };
  for (const tenant of ['demo.test', 'nordlicht.test']) {
    const { accessToken } = await login(sandboxUrl, `admin@${tenant}`);
    const mine = writes.filter((w) => w.tenant === tenant);
    const found = await read(
      accessToken,
      mine.map((w) => w.key),
    );
    for (const w of mine) {
      const outcome = writeOutcome(w.status);
      const there = found.get(w.key) === w.value;
      check[outcome]++;
      if (outcome === 'acknowledged' && !there) check.lost.push(`${w.key} (${w.status})`);
      if (outcome === 'refused' && found.get(w.key) != null)
        check.appliedRefused.push(`${w.key} (${w.status})`);
      if (outcome === 'unknown' && there) check.appliedUnknown++;
    }
    const others = writes.filter((w) => w.tenant !== tenant).slice(0, 200);
    const seen = await read(
      accessToken,
      others.map((w) => w.key),
    );
    for (const [key, value] of seen) if (value != null) check.leaked.push(key);
  }
  return check;
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
