import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#server/sandbox/testing.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

/** Many concurrent sessions with short-lived tokens, mixed reads and writes, on PostgreSQL and
 * Redis (the multi-instance configuration): no unexpected error, every acknowledged write is
 * there afterwards, and every answer belongs to the session that asked. */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let stack: Stack;
beforeAll(async () => {
  db = await createTestDatabase();
  stack = await startStack(
    { DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', SANDBOX_ACCESS_TOKEN_TTL: '12' },
    { loginLimits: { perPair: 1000, perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
  );
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await db?.drop();
});

const USERS = ['admin@demo.test', 'manager@demo.test', 'viewer@demo.test', 'admin@nordlicht.test'];

describe('under load', () => {
  it('serves 200 concurrent sessions correctly through token refreshes', async () => {
    const agents = Array.from({ length: 200 }, (_, i) => ({
      agent: new Agent(stack.url),
      user: USERS[i % USERS.length]!,
      i,
    }));
    // Sign-ins in waves: the sandbox hashes each password (scrypt), which is meant to be slow.
    for (let w = 0; w < agents.length; w += 20) {
      const wave = agents.slice(w, w + 20);
      const r = await Promise.all(wave.map(({ agent, user }) => agent.login(user)));
      expect(r.map((x) => x.status)).toEqual(wave.map(() => 200));
    }
    // Into the refresh margin, so the rounds below refresh every account while they run.
    await new Promise((r) => setTimeout(r, 2_500));

    const unexpected: string[] = [];
    const writes: { key: string; value: string; tenant: string }[] = [];
    const round = async ({ agent, user, i }: (typeof agents)[number], n: number) => {
      const s = await agent.json('/bff/session');
      if (s.status !== 200 || s.body.accounts[0]?.userName !== user)
        unexpected.push(`session ${i}: ${s.status}`);
      const g = await agent.json('/api/0/tenantservice/v1/general');
      if (g.status !== 200) unexpected.push(`general ${i}: ${g.status} ${JSON.stringify(g.body)}`);
      const me = await agent.json(
        `/api/0/tenantservice/v1/users?filter=${encodeURIComponent(`email=${user}`)}`,
      );
      if (me.status === 200 && me.body.items[0]?.email !== user)
        unexpected.push(`users ${i}: someone else`);
      if (user.startsWith('admin@')) {
        const key = `load_${i}_${n}`;
        const value = `${user}:${n}`;
        const w = await agent.json('/api/0/tenantservice/v1/settings/tenant', {
          json: { key, value },
        });
        if (w.status === 200) writes.push({ key, value, tenant: user.split('@')[1]! });
        else unexpected.push(`write ${i}: ${w.status} ${JSON.stringify(w.body)}`);
      }
    };
    for (let n = 0; n < 3; n++) await Promise.all(agents.map((a) => round(a, n)));
    expect(unexpected).toEqual([]);

    // Every acknowledged write is there, in its own tenant only.
    const demoAdmin = agents.find((a) => a.user === 'admin@demo.test')!.agent;
    const nordAdmin = agents.find((a) => a.user === 'admin@nordlicht.test')!.agent;
    for (const [tenant, admin] of [
      ['demo.test', demoAdmin],
      ['nordlicht.test', nordAdmin],
    ] as const) {
      const mine = writes.filter((w) => w.tenant === tenant);
      const others = writes.filter((w) => w.tenant !== tenant);
      for (let k = 0; k < mine.length; k += 40) {
        const chunk = mine.slice(k, k + 40);
        const r = await admin.json(
          `/api/0/tenantservice/v1/settings/tenant?keys=${chunk.map((w) => w.key).join(',')}`,
        );
        expect(r.body.values.map((v: { value: string }) => v.value)).toEqual(
          chunk.map((w) => w.value),
        );
      }
      const leak = await admin.json(
        `/api/0/tenantservice/v1/settings/tenant?keys=${others
          .slice(0, 40)
          .map((w) => w.key)
          .join(',')}`,
      );
      expect(leak.body.values.every((v: { value: unknown }) => v.value === null)).toBe(true);
    }
    expect(writes.length).toBe((agents.length / 2) * 3);
  }, 120_000);
});
