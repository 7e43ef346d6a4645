import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, lookupsFor, type Session } from '#server/sandbox/testing.ts';
import { evaluateNumber } from '#common/expression/evaluate.ts';
import { seedShiftMs } from '#server/sandbox/platform/seed-time.ts';
import { parseExpression } from '#common/expression/parse.ts';
import { INSURANCE_USERS, serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox(INSURANCE_USERS);
const { care, viewer, noui, nord } = kit.sessions;
const I = '/insuranceservice/v1';
const { call } = serviceCalls(kit, I);
let base: string;

interface Policy {
  id: number;
  code: string;
  policyNumber: string;
  status: string;
  productSlug: string;
  productVersionId: number;
  accountCode: string;
  policyStartDate: string;
  createdAt: string;
  product?: { slug: string };
  timeline?: {
    from: string;
    premium: { premiumItems: { premiumFormulaId: number; total: number }[]; grandTotal: number };
    policyObjects: { insuredObjectName: string; data: Record<string, unknown> }[];
  }[];
  versions?: { isCurrent: boolean; versionNumber: number; timeline: unknown[] }[];
}

beforeAll(() => {
  base = kit.base;
});

/** Walks the whole filtered list through its tokens. */
async function walk(session: Session, query: string) {
  const pages: Policy[][] = [];
  let token: string | null = '1';
  while (token) {
    const res = await call(session, `/policies?${query}&pageToken=${token}`);
    expect(res.status).toBe(200);
    pages.push(res.body.items);
    token = res.body.nextPageToken;
    expect(pages.length).toBeLessThan(200);
  }
  return pages;
}

describe('insuranceservice policies list', () => {
  it('pages the 2 000 demo policies by keyset: every page distinct, a short last page ends it', async () => {
    const pages = await walk(viewer, 'pageSize=50&expand=');
    expect(pages).toHaveLength(40);
    const ids = pages.flat().map((p) => p.id);
    expect(new Set(ids).size).toBe(2000);
    // Newest first by default.
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const statuses = new Set(pages.flat().map((p) => p.status));
    // EXPIRED: seeded policies that do not renew and whose term ended (the renewal run at start).
    expect([...statuses].sort()).toEqual([
      'ACTIVE',
      'EXPIRED',
      'SUSPENDED',
      'TERMINATED',
      'WITHDRAWN',
    ]);

    const short = await walk(viewer, 'pageSize=30&filter=status=SUSPENDED&expand=');
    expect(short.at(-1)!.length).toBeLessThan(30);
    expect(short.flat()).toHaveLength(200);
  });

  it('answers the default page size and expansions, timestamps in UTC', async () => {
    const res = await call(care, '/policies');
    expect(res.status).toBe(200);
    const items: Policy[] = res.body.items;
    expect(items).toHaveLength(30);
    expect(res.body.nextPageToken).toMatch(/^2\.\d+\.d\.t\d+$/);
    for (const p of items) {
      expect(p.code).toMatch(/^pol_[0-9a-f]{16}$/);
      expect(p.product?.slug).toBe(p.productSlug);
      expect(p.timeline?.length).toBeGreaterThan(0);
      expect(p.versions).toBeUndefined();
      expect(p.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(p.policyStartDate).toMatch(/Z$/);
    }
    const bare = await call(care, '/policies?expand=product');
    expect(bare.body.items[0].timeline).toBeUndefined();
    expect(bare.body.items[0].product).toBeDefined();
  });

  it('reaches a deep page through the token as fast as the first', async () => {
    let res = await call(viewer, '/policies?pageSize=50&expand=');
    for (let page = 2; page <= 35; page += 1) {
      res = await call(viewer, `/policies?pageSize=50&expand=&pageToken=${res.body.nextPageToken}`);
    }
    const token = res.body.nextPageToken as string;
    expect(token).toMatch(/^36\./);
    const time = async (query: string) => {
      const started = performance.now();
      for (let n = 0; n < 5; n += 1) expect((await call(viewer, query)).status).toBe(200);
      return performance.now() - started;
    };
    const first = await time('/policies?pageSize=50');
    const deep = await time(`/policies?pageSize=50&pageToken=${token}`);
    // Keyset: the deep page reads as few rows as the first; generous against a noisy machine.
    expect(deep).toBeLessThan(first * 3 + 200);
    const page = await call(viewer, `/policies?pageSize=50&pageToken=${token}`);
    const afterId = Number(token.split('.')[1]);
    expect(page.body.items[0].id).toBeLessThan(afterId);
  });

  it('refuses a token of another order and a made-up page number', async () => {
    const first = await call(viewer, '/policies?pageSize=5&order=id:ASC&expand=');
    const token = first.body.nextPageToken as string;
    expect(token).toMatch(/^2\.\d+\.a\.t\d+$/);
    const next = await call(viewer, `/policies?pageSize=5&order=id:ASC&expand=&pageToken=${token}`);
    expect(next.body.items[0].id).toBeGreaterThan(first.body.items[4].id);
    expect((await call(viewer, `/policies?order=id:DESC&pageToken=${token}`)).status).toBe(400);
    expect((await call(viewer, '/policies?pageToken=7')).status).toBe(400);
    expect((await call(viewer, '/policies?pageToken=abc')).status).toBe(400);
  });

  it('orders by id both ways', async () => {
    const asc = await call(viewer, '/policies?order=id:ASC&pageSize=10&expand=');
    const desc = await call(viewer, '/policies?order=id DESC&pageSize=10&expand=');
    const ascIds = asc.body.items.map((p: Policy) => p.id);
    expect(ascIds).toEqual([...ascIds].sort((a, b) => a - b));
    expect(desc.body.items[0].id).toBeGreaterThan(ascIds.at(-1));
    // Only the listed columns sort (issue 15): a field outside them is refused.
    expect((await call(viewer, '/policies?order=accountCode:ASC')).status).toBe(400);
  });

  it('filters by status, product, customer and policy number', async () => {
    const terminated = await call(viewer, '/policies?filter=status=TERMINATED&pageSize=50');
    expect(terminated.body.items.length).toBe(50);
    expect(terminated.body.items.every((p: Policy) => p.status === 'TERMINATED')).toBe(true);
    const two = await walk(viewer, 'filter=status=WITHDRAWN,SUSPENDED&pageSize=50&expand=');
    expect(two.flat()).toHaveLength(400);

    const travel = await call(viewer, '/policies?filter=productSlug=travel-world&pageSize=50');
    const versionId = travel.body.items[0].productVersionId;
    const byVersion = await call(viewer, `/policies?filter=productVersionId=${versionId}&expand=`);
    expect(byVersion.body.items.length).toBeGreaterThan(0);
    expect(byVersion.body.items.every((p: Policy) => p.productVersionId === versionId)).toBe(true);
    expect(travel.status).toBe(200);
    const slugs = new Set(travel.body.items.map((p: Policy) => p.productSlug));
    expect(slugs.size).toBe(1);

    const sample: Policy = (await call(viewer, '/policies?pageSize=1')).body.items[0];
    const mine = await walk(viewer, `filter=accountCode=${sample.accountCode}&expand=`);
    expect(mine.flat().length).toBeGreaterThan(1);
    expect(mine.flat().every((p) => p.accountCode === sample.accountCode)).toBe(true);

    const combined = await call(
      viewer,
      `/policies?filter=policyNumber=${sample.policyNumber}%26status=${sample.status}`,
    );
    expect(combined.body.items.map((p: Policy) => p.id)).toEqual([sample.id]);

    expect((await call(viewer, '/policies?filter=status=OPEN')).status).toBe(400);
    expect((await call(viewer, '/policies?filter=colour=red')).status).toBe(400);
    expect((await call(viewer, '/policies?expand=claims')).status).toBe(400);
    expect((await call(viewer, '/policies?filter=productVersionId=abc')).status).toBe(400);
    expect((await call(viewer, '/policies?pageSize=0')).status).toBe(400);
    expect((await call(viewer, '/policies/1?expand=claims')).status).toBe(400);
  });

  it('searches policy numbers, codes, products and holders', async () => {
    const byNumber = await call(viewer, '/policies?search=POL-001234&expand=');
    expect(byNumber.body.items.map((p: Policy) => p.policyNumber)).toEqual(['POL-001234']);
    const byProduct = await call(viewer, '/policies?search=handyschutz&pageSize=50&expand=');
    expect(byProduct.body.items.length).toBeGreaterThan(0);
    expect(byProduct.body.items.every((p: Policy) => p.productSlug === 'device-protect')).toBe(
      true,
    );
    const none = await call(viewer, '/policies?search=%25%25nothing%25');
    expect(none.body).toEqual({ items: [], nextPageToken: null, totalItems: 0 });
  });

  it("carries each premium item's unit with expand=premiumUnits, as its formula has it", async () => {
    const res = await call(viewer, '/policies?pageSize=30&expand=timelines,premiumUnits');
    expect(res.status).toBe(200);
    const policies = res.body.items as Policy[];
    const versionIds = [...new Set(policies.map((p) => p.productVersionId))];
    const unitOf = new Map<number, string>();
    for (const id of versionIds) {
      const formulas = await call(care, `/premium-formulas?filter=productVersionId=${id}`);
      for (const f of formulas.body.items as { id: number; unit: string }[])
        unitOf.set(f.id, f.unit);
    }
    let items = 0;
    for (const policy of policies) {
      for (const slice of policy.timeline!) {
        for (const item of slice.premium.premiumItems as {
          premiumFormulaId: number;
          unit?: string;
        }[]) {
          expect(item.unit).toBe(unitOf.get(item.premiumFormulaId));
          items += 1;
        }
      }
    }
    expect(items).toBeGreaterThan(0);
    // Without the expand the items keep the contract's shape.
    const plain = await call(viewer, '/policies?pageSize=1&expand=timelines');
    const slice = (plain.body.items as Policy[])[0]!.timeline![0]!;
    expect(Object.keys(slice.premium.premiumItems[0]!)).not.toContain('unit');
    const one = await call(viewer, `/policies/${policies[0]!.code}?expand=versions,premiumUnits`);
    const current = (
      one.body.policy.versions as { isCurrent: boolean; timeline: Policy['timeline'] }[]
    ).find((v) => v.isCurrent);
    expect(current!.timeline![0]!.premium.premiumItems[0]).toHaveProperty('unit');
  });

  it('keeps the premium of every timeslice equal to its formulas over the objects', async () => {
    const res = await call(care, '/policies?pageSize=50');
    let checked = 0;
    let withLookups = 0;
    for (const policy of res.body.items as Policy[]) {
      const formulas = await call(
        care,
        `/premium-formulas?filter=productVersionId=${policy.productVersionId}`,
      );
      // Factor tables and named ranges of the version take part as the service reads them.
      const lookups = await lookupsFor(base, care.accessToken, policy.productVersionId);
      for (const slice of policy.timeline!) {
        const variables: Record<string, unknown> = {};
        // The list shows the objects reversed; the formulas read them in any order.
        for (const object of slice.policyObjects) {
          if (object.insuredObjectName === 'default') Object.assign(variables, object.data);
          else variables[object.insuredObjectName.replace(/-/g, '_')] = object.data;
        }
        const totals = [];
        for (const formula of formulas.body.items) {
          const value =
            Math.round(
              evaluateNumber(parseExpression(formula.expression), { variables, ...lookups }) * 100,
            ) / 100;
          if (formula.variableName) variables[formula.variableName] = value;
          totals.push(value);
        }
        expect(slice.premium.premiumItems.map((i) => i.total)).toEqual(totals);
        checked += 1;
        if (
          formulas.body.items.some((f: { expression: string }) => f.expression.includes('factor('))
        )
          withLookups += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
    // The car product's active version reads a factor table and a named range (seed).
    expect(withLookups).toBeGreaterThan(0);
  });
});

describe('insuranceservice single policy', () => {
  it('answers a policy by id or code with its versions, objects reversed', async () => {
    const list = await call(care, '/policies?pageSize=50&expand=versions');
    const twoVersions: Policy = list.body.items.find((p: Policy) => p.versions!.length === 2);
    expect(twoVersions).toBeDefined();

    const byId = await call(care, `/policies/${twoVersions.id}`);
    expect(byId.status).toBe(200);
    const policy = byId.body.policy;
    expect(policy.code).toBe(twoVersions.code);
    expect(policy.versions.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([2, 1]);
    expect(policy.versions.filter((v: { isCurrent: boolean }) => v.isCurrent)).toHaveLength(1);
    expect(policy.versions[0].isCurrent).toBe(true);
    const objects = policy.versions[0].timeline[0].policyObjects;
    // Stored in product order ('default' first); the timeline shows them reversed.
    expect(objects.at(-1).insuredObjectName).toBe('default');
    expect(objects.at(-1).data.policyStartDate).toBeDefined();

    const byCode = await call(care, `/policies/${twoVersions.code}?expand=product,timelines`);
    expect(byCode.body.policy.id).toBe(twoVersions.id);
    expect(byCode.body.policy.versions).toBeUndefined();
    expect(byCode.body.policy.timeline).toEqual(policy.versions[0].timeline);
  });

  it('seeds the same world every time: codes and numbers follow the index', async () => {
    const [row] = await kit.db().query<{ code: string; created_at: Date }>(
      `SELECT p.code, p.created_at FROM policies p JOIN tenants t ON t.id = p.tenant_id
        WHERE t.slug = 'demo' AND p.policy_number = 'POL-000001'`,
    );
    const expected = createHash('sha256').update('demo:policy:0').digest('hex').slice(0, 16);
    expect(row?.code).toBe(`pol_${expected}`);
    // From 2024-01-02T09:00Z, moved by whole weeks with the clock (the seed ran within the hour).
    const moved = new Date(row!.created_at).getTime() - Date.UTC(2024, 0, 2, 9);
    expect([seedShiftMs(Date.now()), seedShiftMs(Date.now() - 3_600_000)]).toContain(moved);
  });

  it('falls back to createdAt for a policy without a start date', async () => {
    const [row] = await kit
      .db()
      .query<{ id: number }>(`SELECT id FROM policies WHERE policy_start_date IS NULL LIMIT 1`);
    const res = await call(viewer, `/policies/${row!.id}`);
    expect(res.body.policy.policyStartDate).toBe(res.body.policy.createdAt);
    // Its contract starts that day too: the page's start and the contract data's agree (the
    // first timeslice, the default object's start date), as the page shows days in UTC.
    const day = res.body.policy.policyStartDate.slice(0, 10);
    const first = res.body.policy.versions.at(-1).timeline[0];
    expect(first.from.slice(0, 10)).toBe(day);
    const start = first.policyObjects.find(
      (o: { insuredObjectName: string }) => o.insuredObjectName === 'default',
    )?.data.policyStartDate;
    expect(start ?? day).toBe(day);
    const [dated] = await kit.db().query<{ id: number }>(
      `SELECT id FROM policies WHERE policy_start_date IS NOT NULL
         AND policy_start_date <> created_at LIMIT 1`,
    );
    const other = await call(viewer, `/policies/${dated!.id}`);
    expect(other.body.policy.policyStartDate).not.toBe(other.body.policy.createdAt);
  });

  it('says "Policy does not exist" for unknown ids, codes and the other tenant', async () => {
    for (const key of ['999999', 'pol_ffffffffffffffff', 'nonsense', '0']) {
      const res = await call(care, `/policies/${key}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Policy does not exist');
    }
    const theirs = (await call(nord, '/policies?expand=')).body.items as Policy[];
    expect(theirs.length).toBe(25);
    const ours = await call(care, `/policies/${theirs[0]!.id}`);
    expect(ours.status).toBe(404);
    expect(ours.body.message).toBe('Policy does not exist');
    expect((await call(care, `/policies/${theirs[0]!.code}`)).status).toBe(404);
    // Nor does a filter reach across: the other tenant's customer has no policies here.
    const cross = await call(care, `/policies?filter=accountCode=${theirs[0]!.accountCode}`);
    expect(cross.body.items).toEqual([]);
  });
});

describe('insuranceservice policy permissions', () => {
  const nouiRole = `SELECT ur.role_id FROM user_roles ur JOIN users u ON u.id = ur.user_id
                     WHERE u.email = 'noui@demo.test'`;

  it('accepts the legacy eis.policies.view', async () => {
    await kit.db().query(
      `UPDATE role_permissions SET permission = 'eis.policies.view'
        WHERE permission = 'policy-management.policies.view' AND role_id IN (${nouiRole})`,
    );
    expect((await call(noui, '/policies?pageSize=1')).status).toBe(200);
  });

  it('refuses the list and a policy without the view permission', async () => {
    await kit.db().query(
      `DELETE FROM role_permissions WHERE permission = 'eis.policies.view'
          AND role_id IN (${nouiRole})`,
    );
    const list = await call(noui, '/policies');
    expect(list.status).toBe(403);
    expect((await call(noui, '/policies/1')).status).toBe(403);
    expect((await api(base, `${I}/policies`)).status).toBe(401);
  });
});
