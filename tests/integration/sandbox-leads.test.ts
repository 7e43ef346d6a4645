import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, type Session } from '#server/sandbox/testing.ts';
import { isValidIban } from '#common/leads.ts';
import { seedShiftMs } from '#server/sandbox/platform/seed-time.ts';
import { INSURANCE_USERS, serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox(INSURANCE_USERS);
const { care, viewer, noui, nord } = kit.sessions;
const I = '/insuranceservice/v1';
const { call, send } = serviceCalls(kit, I);
let base: string;

interface Lead {
  id: number;
  code: string;
  leadNumber: string;
  status: string;
  accountCode: string | null;
  account: { code: string; birthDate: string | null; createdAt: string } | null;
  productSlug: string;
  productVersionId: number;
  policy: {
    productVersionId: number;
    accountCode: string | null;
    holder: Record<string, string> | null;
    policyObjects: {
      insuredObjectId: number;
      insuredObjectName: string;
      data: Record<string, unknown>;
    }[];
  };
  paymentMethod: { type: string; sepa?: { iban: string } } | null;
  bankAccount: { iban: string } | null;
  customData: Record<string, unknown> | null;
  premiumOverride: { premiumFormulaId: number; total: number }[] | null;
  premium: {
    grandTotal: number;
    premiumItems: { premiumFormulaId: number; total: number; isOverride: boolean }[];
  };
  version: number;
  createdAt: string;
  versions?: { version: number; status: string; changedFields: string[] }[];
}

interface InsuredObject {
  id: number;
  name: string;
  productFields: { name: string }[];
}

beforeAll(() => {
  base = kit.base;
});

async function walk(session: Session, query: string) {
  const items: Lead[] = [];
  let token = '1';
  for (let page = 1; ; page += 1) {
    const res = await call(
      session,
      `/leads?${query}&pageSize=50&pageToken=${encodeURIComponent(token)}`,
    );
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    if (!res.body.nextPageToken) return items;
    token = res.body.nextPageToken;
    expect(page).toBeLessThan(100);
  }
}

/** The home contents product's active version and its insured objects (default, household). */
async function homeContents(session: Session) {
  const products = await call(session, '/products?filter=slug=home-contents&expand=versions');
  const version = products.body.items[0].versions.find(
    (v: { status: string }) => v.status === 'active',
  );
  const objects = await call(
    session,
    `/insured-objects?filter=productVersionId=${version.id}&expand=productFields`,
  );
  const items = objects.body.items as InsuredObject[];
  const find = (name: string) => items.find((o) => o.name === name)!;
  return { versionId: version.id as number, def: find('default'), household: find('household') };
}

function homePolicy(
  x: Awaited<ReturnType<typeof homeContents>>,
  household: Record<string, unknown> = {},
) {
  return {
    productVersionId: x.versionId,
    policyObjects: [
      {
        insuredObjectId: x.def.id,
        data: {
          policyStartDate: '2026-07-01',
          policyDurationUnit: 'day',
          policyDurationValue: 365,
        },
      },
      {
        insuredObjectId: x.household.id,
        data: {
          livingArea: 80,
          zipCode: '10115',
          sumInsured: 50000,
          bicycleCover: true,
          ...household,
        },
      },
    ],
  };
}

async function someAccount(session: Session): Promise<string> {
  const res = await api(base, '/accountservice/v1/accounts?pageSize=1', {
    token: session.accessToken,
  });
  return res.body.items[0].code;
}

async function createLead(session: Session, extra: Record<string, unknown> = {}): Promise<Lead> {
  const x = await homeContents(session);
  const res = await send(session, 'POST', '/leads', {
    accountCode: await someAccount(session),
    policy: homePolicy(x),
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.lead;
}

describe('lead statuses and transition rules', () => {
  it("answers the tenant's statuses in order and its rules, each tenant its own", async () => {
    const statuses = await call(viewer, '/lead-statuses');
    expect(statuses.status).toBe(200);
    expect(statuses.body.items.map((s: { slug: string }) => s.slug)).toEqual([
      'new',
      'contacted',
      'quoted',
      'approved',
      'declined',
      'converted',
    ]);
    expect(statuses.body.items[0]).toMatchObject({ name: 'New', order: 1 });
    expect(statuses.body.items[0].code).toMatch(/^lst_[0-9a-f]{16}$/);

    const rules = await call(viewer, '/status-transitions/rules?filter=entityType=lead');
    expect(rules.status).toBe(200);
    const pairs = rules.body.items.map(
      (r: { fromStatus: string; toStatus: string }) => `${r.fromStatus}>${r.toStatus}`,
    );
    expect(pairs).toContain('new>contacted');
    expect(pairs).toContain('declined>new');
    expect(pairs).not.toContain('new>quoted');
    expect(pairs.some((p: string) => p.startsWith('converted>'))).toBe(false);

    const theirs = await call(nord, '/status-transitions/rules');
    expect(
      theirs.body.items.some(
        (r: { fromStatus: string; toStatus: string }) =>
          r.fromStatus === 'new' && r.toStatus === 'quoted',
      ),
    ).toBe(true);
    const theirStatuses = await call(nord, '/lead-statuses');
    expect(theirStatuses.body.items[0].name).toBe('Neu');
    const ids = new Set(statuses.body.items.map((s: { id: number }) => s.id));
    expect(theirStatuses.body.items.some((s: { id: number }) => ids.has(s.id))).toBe(false);
  });

  it('refuses bad filters and callers without the view permission', async () => {
    expect((await call(viewer, '/status-transitions/rules?filter=colour=red')).status).toBe(400);
    // The filter keeps the claim rules (the same table, issue 5) out of the lead rules.
    const leadRules = (await call(viewer, '/status-transitions/rules?filter=entityType=lead')).body
      .items as { entityType: string }[];
    expect(leadRules.length).toBeGreaterThan(0);
    expect(leadRules.every((r) => r.entityType === 'lead')).toBe(true);
    expect((await call(noui, '/lead-statuses')).status).toBe(403);
    expect((await call(noui, '/status-transitions/rules')).status).toBe(403);
    expect((await api(base, `${I}/lead-statuses`)).status).toBe(401);
  });
});

describe('lead list', () => {
  it('pages the 400 demo leads, newest first, in every status, with 1 to 3 versions', async () => {
    const first = await call(viewer, '/leads');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(30);
    expect(first.body.nextPageToken).toMatch(/^2\./);
    const all = await walk(viewer, 'expand=versions');
    expect(all).toHaveLength(400);
    expect(new Set(all.map((l) => l.id)).size).toBe(400);
    const ids = all.map((l) => l.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(all.map((l) => l.status))).toEqual(
      new Set(['new', 'contacted', 'quoted', 'approved', 'declined', 'converted']),
    );
    const counts = new Set(all.map((l) => l.versions!.length));
    expect([...counts].sort()).toEqual([1, 2, 3]);
    for (const lead of all) {
      expect(lead.code).toMatch(/^lea_[0-9a-f]{16}$/);
      expect(lead.leadNumber).toMatch(/^LEA-1\d{5}$/);
      expect(lead.versions![0]!.version).toBe(lead.version);
      expect(lead.versions![0]!.status).toBe(lead.status);
      expect(lead.premium.grandTotal).toBeGreaterThan(0);
      if (lead.accountCode) expect(lead.account?.code).toBe(lead.accountCode);
      else expect(lead.policy.holder?.lastName).toBeTruthy();
      if (lead.paymentMethod?.type === 'sepa') {
        expect(isValidIban(lead.paymentMethod.sepa!.iban)).toBe(true);
        expect(lead.bankAccount?.iban).toBe(lead.paymentMethod.sepa!.iban);
      }
    }
    // Prospects without a customer account exist too.
    expect(all.some((l) => l.accountCode === null)).toBe(true);
  });

  it('keeps every seeded version history within the rules', async () => {
    const rules = await call(viewer, '/status-transitions/rules?filter=entityType=lead');
    const allowed = new Set(
      rules.body.items.map(
        (r: { fromStatus: string; toStatus: string }) => `${r.fromStatus}>${r.toStatus}`,
      ),
    );
    const all = await walk(viewer, 'expand=versions');
    for (const lead of all) {
      const steps = [...lead.versions!].reverse();
      for (let i = 1; i < steps.length; i += 1) {
        const from = steps[i - 1]!.status;
        const to = steps[i]!.status;
        if (from !== to) expect(allowed.has(`${from}>${to}`)).toBe(true);
        expect(steps[i]!.changedFields).toEqual(from === to ? ['customData'] : ['status']);
      }
      expect(steps[0]!.changedFields).toEqual(['created']);
    }
  });

  it('filters by status, customer, product, version and creation time; searches; orders', async () => {
    const quoted = await walk(viewer, 'filter=status=quoted');
    expect(quoted.length).toBeGreaterThan(50);
    expect(quoted.every((l) => l.status === 'quoted')).toBe(true);
    const two = await walk(viewer, 'filter=status=approved,converted');
    expect(new Set(two.map((l) => l.status))).toEqual(new Set(['approved', 'converted']));

    const sample = quoted.find((l) => l.accountCode)!;
    const mine = await walk(viewer, `filter=accountCode=${sample.accountCode}`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((l) => l.accountCode === sample.accountCode)).toBe(true);

    const travel = await walk(viewer, 'filter=productSlug=travel-world');
    expect(travel.length).toBeGreaterThan(0);
    expect(travel.every((l) => l.productSlug === 'travel-world')).toBe(true);
    const byVersion = await walk(viewer, `filter=productVersionId=${travel[0]!.productVersionId}`);
    expect(byVersion.map((l) => l.id)).toEqual(travel.map((l) => l.id));

    // February 2025 of the unshifted world, moved with it (the seed ran minutes ago).
    const shift = seedShiftMs(Date.now());
    const day = (ms: number) => new Date(ms + shift).toISOString().slice(0, 10);
    const [from, to, after] = [
      day(Date.UTC(2025, 1, 1)),
      day(Date.UTC(2025, 1, 28)),
      day(Date.UTC(2025, 2, 1)),
    ];
    const ranged = await walk(
      viewer,
      `filter=${encodeURIComponent(`createdAtFrom=${from}&createdAtTo=${to}`)}`,
    );
    expect(ranged.length).toBeGreaterThan(20);
    expect(ranged.every((l) => l.createdAt >= from && l.createdAt < after)).toBe(true);
    const instant = await call(
      viewer,
      `/leads?filter=${encodeURIComponent(`createdAtFrom=${sample.createdAt}&createdAtTo=${sample.createdAt}`)}`,
    );
    expect(instant.body.items.map((l: Lead) => l.id)).toEqual([sample.id]);

    const byNumber = await call(viewer, `/leads?search=${sample.leadNumber}`);
    expect(byNumber.body.items.map((l: Lead) => l.id)).toEqual([sample.id]);
    const byProduct = await call(viewer, '/leads?search=handyschutz&pageSize=50');
    expect(byProduct.body.items.every((l: Lead) => l.productSlug === 'device-protect')).toBe(true);

    const asc = await call(viewer, '/leads?order=leadNumber:ASC&pageSize=5');
    const numbers = asc.body.items.map((l: Lead) => l.leadNumber);
    expect(numbers).toEqual([...numbers].sort());
    const byStatus = await call(viewer, '/leads?order=status:ASC&pageSize=5');
    expect(byStatus.body.items[0].status).toBe('approved');
  });

  it('refuses bad list input', async () => {
    for (const query of [
      'filter=status=NOT OK',
      'filter=colour=red',
      'filter=productVersionId=abc',
      `filter=${encodeURIComponent('createdAtFrom=yesterday')}`,
      'order=createdBy:ASC',
      'expand=claims',
      'pageSize=0',
      'pageToken=x',
    ]) {
      const res = await call(viewer, `/leads?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe('invalid_query');
      expect(res.body.message).toBeTruthy();
    }
  });

  it("keeps each tenant's leads apart", async () => {
    const theirs = await walk(nord, 'expand=');
    expect(theirs).toHaveLength(12);
    const ours = await walk(viewer, 'expand=');
    const ourCodes = new Set(ours.map((l) => l.code));
    expect(theirs.some((l) => ourCodes.has(l.code))).toBe(false);
    const cross = await call(viewer, `/leads?filter=accountCode=${theirs[0]!.accountCode}`);
    expect(cross.body.items).toEqual([]);
  });
});

describe('single lead and its versions', () => {
  it('answers a lead by id or code with its versions, and each version as it was', async () => {
    const all = await walk(viewer, 'expand=versions');
    const three = all.find((l) => l.versions!.length === 3 && l.status !== l.versions![2]!.status)!;
    const byCode = await call(viewer, `/leads/${three.code}`);
    expect(byCode.status).toBe(200);
    expect(byCode.body.lead.versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(byCode.body.lead.account?.birthDate ?? null).toBe(three.account?.birthDate ?? null);
    const byId = await call(viewer, `/leads/${three.id}?expand=`);
    expect(byId.body.lead.code).toBe(three.code);
    expect(byId.body.lead.versions).toBeUndefined();

    const first = await call(viewer, `/leads/${three.code}/versions/1`);
    expect(first.status).toBe(200);
    expect(first.body.leadVersion).toMatchObject({
      version: 1,
      leadCode: three.code,
      changedFields: ['created'],
    });
    expect(first.body.leadVersion.lead.status).toBe(three.versions![2]!.status);
    expect(first.body.leadVersion.lead.version).toBe(1);
    const last = await call(viewer, `/leads/${three.id}/versions/3`);
    expect(last.body.leadVersion.lead.status).toBe(three.status);
    expect(last.body.leadVersion.lead.policy).toEqual(three.policy);
  });

  it('says "Lead does not exist" for unknown, malformed and other tenants\' leads', async () => {
    for (const key of ['999999', 'lea_ffffffffffffffff', 'nonsense', '0']) {
      const res = await call(viewer, `/leads/${key}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: 'Lead does not exist' });
    }
    const theirs = (await call(nord, '/leads?pageSize=1')).body.items[0] as Lead;
    for (const key of [theirs.code, String(theirs.id)]) {
      const res = await call(viewer, `/leads/${key}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: 'Lead does not exist' });
      expect((await call(viewer, `/leads/${key}/versions/1`)).status).toBe(404);
    }
    const ours = (await call(viewer, '/leads?pageSize=1')).body.items[0] as Lead;
    const missing = await call(viewer, `/leads/${ours.code}/versions/99`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Lead version does not exist');
    expect((await call(viewer, `/leads/${ours.code}/versions/x`)).status).toBe(404);
    expect((await call(viewer, `/leads/${ours.code}?expand=claims`)).status).toBe(400);
  });

  it('seeds the same world every time: codes and numbers follow the index', async () => {
    const [row] = await kit.db().query<{ code: string; lead_number: string; created_at: Date }>(
      `SELECT l.code, l.lead_number, l.created_at FROM leads l JOIN tenants t ON t.id = l.tenant_id
        WHERE t.slug = 'demo' ORDER BY l.id LIMIT 1`,
    );
    const expected = createHash('sha256').update('demo:lead:0').digest('hex').slice(0, 16);
    expect(row?.code).toBe(`lea_${expected}`);
    expect(row?.lead_number).toBe('LEA-100001');
    // From 2025-01-06T08:00Z, moved by whole weeks with the clock (the seed ran within the hour).
    const moved = new Date(row!.created_at).getTime() - Date.UTC(2025, 0, 6, 8);
    expect([seedShiftMs(Date.now()), seedShiftMs(Date.now() - 3_600_000)]).toContain(moved);
  });
});

describe('creating an application', () => {
  it('creates a lead in the first status with its premium and version 1', async () => {
    const x = await homeContents(care);
    const accountCode = await someAccount(care);
    const res = await send(care, 'POST', '/leads', {
      accountCode,
      policy: homePolicy(x),
      paymentMethod: {
        type: 'sepa',
        sepa: { iban: 'de89 3704 0044 0532 0130 00', holderName: 'A B' },
      },
      bankAccount: { iban: 'DE89370400440532013000' },
      customData: { source: 'test' },
    });
    expect(res.status).toBe(201);
    const lead: Lead = res.body.lead;
    expect(lead).toMatchObject({
      status: 'new',
      accountCode,
      productSlug: 'home-contents',
      version: 1,
      customData: { source: 'test' },
      paymentMethod: { type: 'sepa', sepa: { iban: 'DE89370400440532013000', holderName: 'A B' } },
    });
    expect(lead.leadNumber).toBe(`LEA-${100000 + lead.id}`);
    expect(lead.account?.code).toBe(accountCode);
    // household.sumInsured * 0.0011 + bicycle cover sumInsured * 0.0002
    expect(lead.premium.premiumItems.map((i) => i.total)).toEqual([55, 10]);
    expect(lead.premium.grandTotal).toBe(65);
    expect(lead.policy.policyObjects.map((o) => o.insuredObjectName)).toEqual([
      'default',
      'household',
    ]);
    expect(lead.versions).toEqual([
      expect.objectContaining({ version: 1, status: 'new', changedFields: ['created'] }),
    ]);
    const stored = await call(care, `/leads/${lead.code}/versions/1`);
    expect(stored.body.leadVersion.lead.premium).toEqual(lead.premium);
  });

  it('takes a prospect with a holder, an import in an open status and a premium override', async () => {
    const x = await homeContents(care);
    const formulaId = (await createLead(care)).premium.premiumItems[0]!.premiumFormulaId;
    const res = await send(care, 'POST', '/leads', {
      status: 'contacted',
      policy: {
        ...homePolicy(x),
        holder: { type: 'person', firstName: 'Pia', lastName: 'Probe' },
        premiumOverride: [{ premiumFormulaId: formulaId, total: 40 }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.lead).toMatchObject({ status: 'contacted', accountCode: null, account: null });
    expect(res.body.lead.premiumOverride).toEqual([{ premiumFormulaId: formulaId, total: 40 }]);
    expect(res.body.lead.premium.premiumItems[0]).toMatchObject({ total: 40, isOverride: true });
    expect(res.body.lead.premium.grandTotal).toBe(50);
  });

  it('rounds agreed totals to cents, halves away from zero, and sums them again', async () => {
    const lead = await createLead(care);
    const [first, ...rest] = lead.premium.premiumItems;
    const others = rest.reduce((sum, item) => sum + item.total, 0);
    const agreed = async (version: number, total: number) => {
      const res = await send(care, 'PATCH', `/leads/${lead.code}`, {
        version,
        premiumOverride: [{ premiumFormulaId: first!.premiumFormulaId, total }],
      });
      expect(res.status).toBe(200);
      return res.body.lead as Lead;
    };
    const negative = await agreed(1, -2.345);
    expect(negative.premium.premiumItems[0]).toMatchObject({ total: -2.35, isOverride: true });
    expect(negative.premium.grandTotal).toBe(Math.round((others - 2.35) * 100) / 100);
    // What was agreed is kept as sent; only the premium is in cents.
    expect(negative.premiumOverride).toEqual([
      { premiumFormulaId: first!.premiumFormulaId, total: -2.345 },
    ]);
    // 1.005 is a little less than 1.005 in binary: rounding the product by 100 gave 1.00.
    const binary = await agreed(2, 1.005);
    expect(binary.premium.premiumItems[0]!.total).toBe(1.01);
    expect(binary.premium.grandTotal).toBe(Math.round((others + 1.01) * 100) / 100);
  });

  it('refuses data that does not fit the product version, with the issues', async () => {
    const x = await homeContents(care);
    const accountCode = await someAccount(care);
    const post = (body: unknown) => send(care, 'POST', '/leads', body);

    const missing = await post({ accountCode, policy: homePolicy(x, { sumInsured: '' }) });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('validation_error');
    expect(missing.body.message).toContain('household.sumInsured: required');
    // The issues of the policies' own check (common/policy-object-data.ts): same codes, same paths.
    expect(missing.body.issues).toEqual([{ path: 'household.sumInsured', code: 'required' }]);

    const wrong = await post({
      accountCode,
      policy: homePolicy(x, { livingArea: 5, zipCode: 10115, colour: 'red', bicycleCover: 'yes' }),
    });
    expect(wrong.status).toBe(400);
    expect(
      wrong.body.issues.map((i: { path: string; code: string }) => `${i.path} ${i.code}`).sort(),
    ).toEqual([
      'household.bicycleCover not_boolean',
      'household.colour unknown_field',
      'household.livingArea below_minimum',
      'household.zipCode not_a_string',
    ]);
    expect(wrong.body.issues).toContainEqual({
      path: 'household.livingArea',
      code: 'below_minimum',
      limit: 10,
    });
    expect(wrong.body.message).toContain('household.livingArea: below_minimum (10)');

    // An insured object left out is one with no data: its required fields are missing.
    const onlyDefault = homePolicy(x);
    onlyDefault.policyObjects.pop();
    const lacking = await post({ accountCode, policy: onlyDefault });
    expect(lacking.status).toBe(400);
    expect(lacking.body.issues).toEqual([
      { path: 'household.livingArea', code: 'required' },
      { path: 'household.zipCode', code: 'required' },
      { path: 'household.sumInsured', code: 'required' },
    ]);
    const twice = homePolicy(x);
    const policyObjects = [
      ...twice.policyObjects,
      { insuredObjectId: x.household.id, data: {} },
      { insuredObjectId: 999999, data: {} },
    ];
    expect((await post({ accountCode, policy: { ...twice, policyObjects } })).body.issues).toEqual([
      { path: 'policyObjects.2.insuredObjectId', code: 'duplicate_insured_object' },
      { path: 'policyObjects.3.insuredObjectId', code: 'unknown_insured_object' },
    ]);
    const badUnit = homePolicy(x);
    badUnit.policyObjects[0]!.data.policyDurationUnit = 'decade';
    expect((await post({ accountCode, policy: badUnit })).body.issues).toEqual([
      { path: 'default.policyDurationUnit', code: 'invalid_option' },
    ]);
    const badDate = homePolicy(x);
    badDate.policyObjects[0]!.data.policyStartDate = '2026-02-30';
    expect((await post({ accountCode, policy: badDate })).body.message).toContain(
      'default.policyStartDate: invalid_date',
    );

    const cases: [unknown, string][] = [
      [{ accountCode }, 'policy: required'],
      [{ accountCode: 'acc_nobody', policy: homePolicy(x) }, 'accountCode: unknown_account'],
      [{ policy: homePolicy(x) }, 'policy.holder'],
      [{ accountCode, policy: homePolicy(x), status: 'converted' }, 'final status'],
      [{ accountCode, policy: homePolicy(x), status: 'lost' }, 'unknown lead status'],
      [{ accountCode, policy: homePolicy(x), colour: 'red' }, 'colour'],
      [
        { accountCode, policy: homePolicy(x), bankAccount: { iban: 'DE00123' } },
        'bankAccount.iban: invalid_iban',
      ],
      [{ accountCode, policy: homePolicy(x), paymentMethod: { type: 'cash' } }, 'paymentMethod'],
      [
        { accountCode, policy: { ...homePolicy(x), productVersionId: 999999 } },
        'unknown product version',
      ],
      [
        {
          accountCode,
          policy: { ...homePolicy(x), premiumOverride: [{ premiumFormulaId: 999999, total: 1 }] },
        },
        'unknown premium formula',
      ],
      [
        { accountCode, policy: { ...homePolicy(x), accountCode: 'acc_other' } },
        'differs from policy.accountCode',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });

  it("refuses a version that is not on sale and another tenant's version like an unknown one", async () => {
    const x = await homeContents(care);
    const accountCode = await someAccount(care);
    const products = await call(care, '/products?filter=slug=home-contents&expand=versions');
    const draft = products.body.items[0].versions.find(
      (v: { status: string }) => v.status === 'draft',
    );
    const res = await send(care, 'POST', '/leads', {
      accountCode,
      policy: { ...homePolicy(x), productVersionId: draft.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('is draft; applications need the active version');

    const theirs = (await call(nord, '/leads?pageSize=1')).body.items[0] as Lead;
    const foreign = await send(care, 'POST', '/leads', {
      accountCode,
      policy: { ...homePolicy(x), productVersionId: theirs.productVersionId },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('policy.productVersionId: unknown product version');
    const foreignAccount = await send(care, 'POST', '/leads', {
      accountCode: theirs.accountCode,
      policy: homePolicy(x),
    });
    expect(foreignAccount.body.message).toBe('accountCode: unknown_account');
  });

  it('needs the create permission', async () => {
    const x = await homeContents(care);
    const res = await send(viewer, 'POST', '/leads', {
      accountCode: await someAccount(care),
      policy: homePolicy(x),
    });
    expect(res.status).toBe(403);
  });
});

describe('editing a lead', () => {
  it('moves a lead along the rules, one version per saved change', async () => {
    const lead = await createLead(care);
    const moved = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 1,
      status: 'contacted',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.lead).toMatchObject({ status: 'contacted', version: 2 });
    expect(moved.body.lead.versions[0]).toMatchObject({
      version: 2,
      status: 'contacted',
      changedFields: ['status'],
    });
    const quoted = await send(care, 'PATCH', `/leads/${lead.id}`, { version: 2, status: 'quoted' });
    expect(quoted.body.lead.versions.map((v: { status: string }) => v.status)).toEqual([
      'quoted',
      'contacted',
      'new',
    ]);
    const back = await call(care, `/leads/${lead.code}/versions/2`);
    expect(back.body.leadVersion.lead.status).toBe('contacted');
  });

  it('refuses a move the rules do not allow, naming both statuses, with the current lead', async () => {
    const lead = await createLead(care);
    const res = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 1,
      status: 'approved',
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('illegal_transition');
    expect(res.body.message).toBe('a lead in status "new" cannot move to "approved"');
    expect(res.body.lead).toMatchObject({ code: lead.code, status: 'new', version: 1 });
    // Nordlicht's rules allow what demo's refuse.
    const theirs = (await call(nord, '/leads?filter=status=new&pageSize=1')).body.items[0] as Lead;
    const nordMove = await send(nord, 'PATCH', `/leads/${theirs.code}`, {
      version: theirs.version,
      status: 'quoted',
    });
    expect(nordMove.status).toBe(200);
    const demoMove = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 1,
      status: 'quoted',
    });
    expect(demoMove.status).toBe(409);
  });

  it('refuses a stale version with the current lead, and a stale illegal move as illegal', async () => {
    const lead = await createLead(care);
    await send(care, 'PATCH', `/leads/${lead.code}`, { version: 1, customData: { note: 'first' } });
    const stale = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 1,
      customData: { note: 'second' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.message).toBe('lead was changed meanwhile (version 2, yours 1)');
    expect(stale.body.lead).toMatchObject({ version: 2, customData: { note: 'first' } });

    await send(care, 'PATCH', `/leads/${lead.code}`, { version: 2, status: 'declined' });
    const late = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 2,
      status: 'contacted',
    });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('illegal_transition');
    expect(late.body.message).toBe('a lead in status "declined" cannot move to "contacted"');
    expect(late.body.lead.status).toBe('declined');
  });

  it('edits payment, custom data and policy data partially, recomputing the premium', async () => {
    const lead = await createLead(care);
    const paid = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 1,
      paymentMethod: { type: 'sepa', sepa: { iban: 'DE89370400440532013000' } },
      bankAccount: { iban: 'DE89370400440532013000' },
      customData: { source: 'phone', callback: true },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.lead).toMatchObject({
      version: 2,
      paymentMethod: { type: 'sepa', sepa: { iban: 'DE89370400440532013000', holderName: null } },
      customData: { source: 'phone', callback: true },
    });
    expect(paid.body.lead.versions[0].changedFields.sort()).toEqual([
      'bankAccount',
      'customData',
      'paymentMethod',
    ]);
    const x = await homeContents(care);
    const bigger = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 2,
      policy: homePolicy(x, { sumInsured: 100000, bicycleCover: false }),
    });
    expect(bigger.body.lead.premium.grandTotal).toBe(110);
    expect(bigger.body.lead.paymentMethod.type).toBe('sepa');
    expect(bigger.body.lead.versions[0].changedFields).toEqual(['policy']);
    // Sending what is saved is no change: no new version.
    const same = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 3,
      customData: { source: 'phone', callback: true },
    });
    expect(same.body.lead.version).toBe(3);
    const cleared = await send(care, 'PATCH', `/leads/${lead.code}`, {
      version: 3,
      paymentMethod: { type: 'invoice' },
      bankAccount: null,
    });
    expect(cleared.body.lead).toMatchObject({
      version: 4,
      bankAccount: null,
      paymentMethod: { type: 'invoice' },
    });
  });

  it('refuses bad edits', async () => {
    const lead = await createLead(care);
    const x = await homeContents(care);
    const cases: [unknown, string][] = [
      [{ status: 'contacted' }, 'version'],
      [{ version: 1 }, 'nothing to change'],
      [{ version: 1, status: 'lost' }, 'unknown lead status lost'],
      [{ version: 1, status: 'NOT OK' }, 'status: invalid_status'],
      [{ version: 1, stauts: 'contacted' }, 'stauts'],
      [
        { version: 1, paymentMethod: { type: 'sepa', sepa: { iban: 'DE89370400440532013001' } } },
        'invalid_iban',
      ],
      [{ version: 1, customData: { 'bad key': 1 } }, 'invalid_key'],
      [
        { version: 1, policy: homePolicy(x, { sumInsured: 1 }) },
        'household.sumInsured: below_minimum (5000)',
      ],
      [{ version: 1, accountCode: null }, 'policy.holder'],
    ];
    for (const [body, message] of cases) {
      const res = await send(care, 'PATCH', `/leads/${lead.code}`, body);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect((await call(care, `/leads/${lead.code}`)).body.lead.version).toBe(1);
  });

  it('accepts the seeded policy data of every product as it is (no change, no version)', async () => {
    const open = await walk(care, 'filter=status=new,contacted');
    const bySlug = new Map(open.map((l) => [l.productSlug, l]));
    expect(bySlug.size).toBeGreaterThanOrEqual(6);
    for (const lead of bySlug.values()) {
      const res = await send(care, 'PATCH', `/leads/${lead.code}`, {
        version: lead.version,
        policy: lead.policy,
      });
      expect(res.status, lead.productSlug).toBe(200);
      expect(res.body.lead.version).toBe(lead.version);
      expect(res.body.lead.premium).toEqual(lead.premium);
    }
  });

  it('keeps a converted lead as it is', async () => {
    const converted = (await call(care, '/leads?filter=status=converted&pageSize=1')).body
      .items[0] as Lead;
    const res = await send(care, 'PATCH', `/leads/${converted.code}`, {
      version: converted.version,
      customData: { note: 'late' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('lead_closed');
    expect(res.body.message).toBe('a lead in the final status "converted" cannot be changed');
    const move = await send(care, 'PATCH', `/leads/${converted.code}`, {
      version: converted.version,
      status: 'new',
    });
    expect(move.body.error).toBe('illegal_transition');
  });

  it("answers another tenant's lead like an unknown one and needs the update permission", async () => {
    const theirs = (await call(nord, '/leads?pageSize=1')).body.items[0] as Lead;
    const res = await send(care, 'PATCH', `/leads/${theirs.code}`, {
      version: theirs.version,
      customData: { x: 1 },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Lead does not exist');
    const ours = (await call(care, '/leads?filter=status=new&pageSize=1')).body.items[0] as Lead;
    const denied = await send(viewer, 'PATCH', `/leads/${ours.code}`, {
      version: ours.version,
      status: 'contacted',
    });
    expect(denied.status).toBe(403);
    expect((await call(care, `/leads/${ours.code}`)).body.lead.status).toBe('new');
  });
});

describe('lead documents', () => {
  const D = '/documentservice/v1/documents';
  const docs = (session: Session, query: string) =>
    api(base, `${D}?${query}`, { token: session.accessToken });

  it("lists a lead's documents by entity or lead code, newest first", async () => {
    const approved = (await call(viewer, '/leads?filter=status=approved&pageSize=1')).body
      .items[0] as Lead;
    const byEntity = await docs(
      viewer,
      `pageSize=20&filter=${encodeURIComponent(`entityType=lead&entityId=${approved.code}`)}`,
    );
    expect(byEntity.status).toBe(200);
    const names = byEntity.body.items.map((d: { filename: string }) => d.filename);
    expect(names).toContain(`quote-${approved.leadNumber}.pdf`);
    expect(names).toContain(`application-${approved.leadNumber}-signed.pdf`);
    const first = byEntity.body.items[0];
    expect(first).toMatchObject({
      entityType: 'lead',
      entityId: approved.code,
      leadCode: approved.code,
      policyCode: null,
      contentType: 'application/pdf',
    });
    expect(first.code).toMatch(/^doc_[0-9a-f]{16}$/);
    expect(first.s3Key).toContain(approved.code);
    const dates = byEntity.body.items.map((d: { createdAt: string }) => d.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    const byLead = await docs(viewer, `filter=leadCode=${approved.code}`);
    expect(byLead.body.items).toEqual(byEntity.body.items);

    const fresh = (await call(viewer, '/leads?filter=status=new&pageSize=1')).body.items[0] as Lead;
    const quotes = await docs(viewer, `filter=leadCode=${fresh.code}&search=quote`);
    expect(quotes.body).toEqual({ items: [], nextPageToken: null, totalItems: 0 });
  });

  it('refuses a list without an owner and bad filters; keeps tenants apart; needs the permission', async () => {
    expect((await docs(viewer, '')).status).toBe(400);
    expect((await docs(viewer, 'filter=entityType=lead')).status).toBe(400);
    expect((await docs(viewer, 'filter=colour=red')).status).toBe(400);
    expect((await docs(viewer, 'filter=leadCode=x&order=size:ASC')).status).toBe(400);
    const theirs = (await call(nord, '/leads?filter=status=quoted&pageSize=1')).body
      .items[0] as Lead;
    const their = await docs(nord, `filter=leadCode=${theirs.code}`);
    expect(their.body.items.length).toBeGreaterThan(0);
    expect((await docs(viewer, `filter=leadCode=${theirs.code}`)).body.items).toEqual([]);
    expect((await docs(noui, `filter=leadCode=${theirs.code}`)).status).toBe(403);
    expect((await api(base, `${D}?filter=leadCode=x`)).status).toBe(401);
  });
});

describe('lead permissions', () => {
  const nouiRole = `SELECT ur.role_id FROM user_roles ur JOIN users u ON u.id = ur.user_id
                     WHERE u.email = 'noui@demo.test'`;

  it('accepts the legacy eis.leads.* and eis.documents.view', async () => {
    await kit.db().query(
      `INSERT INTO role_permissions (tenant_id, role_id, permission)
       SELECT r.tenant_id, r.id, p FROM roles r, unnest(ARRAY['eis.leads.view', 'eis.leads.update',
              'eis.documents.view']) AS p
        WHERE r.id IN (${nouiRole})`,
    );
    const lead = (await call(noui, '/leads?filter=status=new&pageSize=1')).body.items[0] as Lead;
    expect(lead).toBeDefined();
    expect((await call(noui, '/lead-statuses')).status).toBe(200);
    expect((await call(noui, '/status-transitions/rules')).status).toBe(200);
    const moved = await send(noui, 'PATCH', `/leads/${lead.code}`, {
      version: lead.version,
      status: 'contacted',
    });
    expect(moved.status).toBe(200);
    const documents = await api(
      base,
      `/documentservice/v1/documents?filter=leadCode=${lead.code}`,
      {
        token: noui.accessToken,
      },
    );
    expect(documents.status).toBe(200);
    expect((await send(noui, 'POST', '/leads', {})).status).toBe(403);
  });

  it('refuses every lead call without the permissions', async () => {
    await kit
      .db()
      .query(
        `DELETE FROM role_permissions WHERE permission LIKE 'eis.%' AND role_id IN (${nouiRole})`,
      );
    expect((await call(noui, '/leads')).status).toBe(403);
    expect((await call(noui, '/leads/1')).status).toBe(403);
    expect((await call(noui, '/leads/1/versions/1')).status).toBe(403);
    expect((await send(noui, 'PATCH', '/leads/1', { version: 1, status: 'new' })).status).toBe(403);
    expect((await api(base, `${I}/leads`)).status).toBe(401);
  });
});
