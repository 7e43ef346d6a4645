import { beforeAll, describe, expect, it } from 'vitest';
import { api, type Session } from '#server/sandbox/testing.ts';
import { isoToday } from '#common/claims.ts';
import { INSURANCE_USERS, serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

const kit = withSandbox(INSURANCE_USERS);
const { care, viewer, noui, nord } = kit.sessions;
const C = '/claimservice/v1';
const { call, send } = serviceCalls(kit, C);
let base: string;

interface Claim {
  id: number;
  code: string;
  claimNumber: string;
  title: string;
  description: string;
  policyCode: string;
  policyNumber: string;
  accountCode: string | null;
  productId: number;
  status: string;
  damageDate: string;
  notificationDate: string;
  claimType: string;
  customFields: Record<string, unknown>;
  holder: { lastName?: string | null } | null;
  totals: { reserve: number; payment: number; recourse: number; currency: string };
  version: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
}

interface Settlement {
  id: number;
  code: string;
  claimCode: string;
  insuredObject: string;
  reserve: number;
  payment: number;
  recourse: number;
  currency: string;
  version: number;
}

interface SeededPolicy {
  code: string;
  policyNumber: string;
  accountCode: string | null;
  productId: number;
  /** Its first day in the demo workspace's time zone. */
  startDay: string;
  /** The insured object names of its current version. */
  objects: string[];
}

const ZONE = 'Europe/Berlin';
const today = () => isoToday(ZONE);
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

let policy: SeededPolicy;
let nordPolicyCode: string;
let nordPolicyStart: string;

async function firstPolicy(session: Session): Promise<SeededPolicy> {
  const res = await api(base, '/insuranceservice/v1/policies?pageSize=1&order=id:ASC', {
    token: session.accessToken,
  });
  expect(res.status).toBe(200);
  const p = res.body.items[0];
  return {
    code: p.code,
    policyNumber: p.policyNumber,
    accountCode: p.accountCode,
    productId: p.productId,
    startDay: isoToday(ZONE, new Date(p.policyStartDate)),
    objects: [
      ...new Set<string>(
        p.timeline.flatMap((t: { policyObjects: { insuredObjectName: string }[] }) =>
          t.policyObjects.map((o) => o.insuredObjectName),
        ),
      ),
    ],
  };
}

beforeAll(async () => {
  base = kit.base;
  policy = await firstPolicy(care);
  const nordPolicy = await firstPolicy(nord);
  nordPolicyCode = nordPolicy.code;
  nordPolicyStart = nordPolicy.startDay;
});

/** A valid new claim on the demo policy; `extra` replaces or adds fields. */
const claimBody = (extra: Record<string, unknown> = {}) => ({
  policyCode: policy.code,
  title: 'Water damage in the hall',
  description: 'A pipe burst behind the wall.',
  damageDate: dayAfter(policy.startDay, 1),
  claimType: 'damage',
  customFields: { damageLocation: 'Berlin' },
  ...extra,
});

async function newClaim(extra: Record<string, unknown> = {}): Promise<Claim> {
  const res = await send(care, 'POST', '/claims', claimBody(extra));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.claim as Claim;
}

/** Moves a claim along the rules, one PATCH per step; answers the claim after the last. */
async function moveTo(claim: Claim, ...statuses: string[]): Promise<Claim> {
  let current = claim;
  for (const status of statuses) {
    const res = await send(care, 'PATCH', `/claims/${current.code}`, {
      status,
      version: current.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    current = res.body.claim as Claim;
  }
  return current;
}

async function walk(session: Session, query: string): Promise<Claim[]> {
  const items: Claim[] = [];
  for (let page = 1; ; page += 1) {
    const res = await call(session, `/claims?${query}&pageSize=100&pageToken=${page}`);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    if (!res.body.nextPageToken) return items;
    expect(page).toBeLessThan(20);
  }
}

describe('claim statuses, rules and partner roles', () => {
  it('lists the seeded statuses in order and their rules, per tenant', async () => {
    const statuses = await call(viewer, '/claim-statuses');
    expect(statuses.status).toBe(200);
    expect(statuses.body.items.map((s: { slug: string }) => s.slug)).toEqual([
      'open',
      'in-review',
      'waiting-for-documents',
      'approved',
      'settled',
      'rejected',
      'closed',
    ]);
    expect(statuses.body.items[0]).toMatchObject({ name: 'Open', order: 1 });
    expect(statuses.body.items[0].code).toMatch(/^cst_[0-9a-f]{16}$/);

    const rules = await api(
      base,
      '/insuranceservice/v1/status-transitions/rules?filter=entityType=claim',
      { token: viewer.accessToken },
    );
    expect(rules.status).toBe(200);
    const pairs = rules.body.items.map(
      (r: { fromStatus: string; toStatus: string }) => `${r.fromStatus}>${r.toStatus}`,
    );
    expect(pairs).toEqual(
      expect.arrayContaining(['open>in-review', 'approved>settled', 'rejected>open']),
    );
    expect(pairs.some((p: string) => p.startsWith('closed>'))).toBe(false);
    expect(rules.body.items.every((r: { entityType: string }) => r.entityType === 'claim')).toBe(
      true,
    );

    const theirs = await call(nord, '/claim-statuses');
    expect(theirs.body.items[0].name).toBe('Offen');
    const ids = new Set(statuses.body.items.map((s: { id: number }) => s.id));
    expect(theirs.body.items.some((s: { id: number }) => ids.has(s.id))).toBe(false);
  });

  it('lists the claim partner roles', async () => {
    const roles = await call(viewer, '/claim-partner-roles');
    expect(roles.status).toBe(200);
    expect(roles.body.items.map((r: { slug: string }) => r.slug)).toEqual([
      'reporter',
      'witness',
      'workshop',
      'assessor',
      'lawyer',
      'injured-party',
    ]);
    expect(roles.body.items[3]).toMatchObject({ name: 'Assessor' });
    const theirs = await call(nord, '/claim-partner-roles');
    expect(theirs.body.items[2].name).toBe('Werkstatt');
  });

  it('refuses callers without the view permission', async () => {
    expect((await call(noui, '/claim-statuses')).status).toBe(403);
    expect((await call(noui, '/claim-partner-roles')).status).toBe(403);
    const anonymous = await api(base, `${C}/claim-statuses`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('unauthorized');
  });
});

describe('GET /claims', () => {
  it('lists the seeded claims newest first, 30 to a page, and walks all 500', async () => {
    const first = await call(viewer, '/claims');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(30);
    // A keyset token (list-keyset.ts) for page 2; page numbers are read too (walk below).
    expect(first.body.nextPageToken).toMatch(/^2\./);
    const created = first.body.items.map((c: Claim) => c.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const all = await walk(viewer, 'order=claimNumber:ASC');
    expect(all.length).toBeGreaterThanOrEqual(500);
    expect(all[0]!.claimNumber).toBe('S-000001');
    expect(new Set(all.map((c) => c.code)).size).toBe(all.length);
    // Every status and every type is there, and claims with settlements show their totals.
    expect(new Set(all.map((c) => c.status)).size).toBe(7);
    expect(new Set(all.map((c) => c.claimType)).size).toBe(5);
    expect(all.some((c) => c.totals.payment > 0 && c.totals.reserve >= c.totals.payment)).toBe(
      true,
    );
    // Each seeded claim is dated inside its policy's life, its notice after the damage.
    for (const c of all) {
      expect(c.notificationDate >= c.damageDate).toBe(true);
      expect(c.damageDate <= today()).toBe(true);
    }
  });

  it('caps the page at 100', async () => {
    const res = await call(viewer, '/claims?pageSize=500');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(100);
  });

  it('filters by status (any of), policy, account, type and product', async () => {
    const some = await walk(viewer, 'filter=status=settled,closed');
    expect(some.length).toBeGreaterThan(0);
    expect(new Set(some.map((c) => c.status))).toEqual(new Set(['settled', 'closed']));

    const sample = some[0]!;
    const byPolicy = await walk(viewer, `filter=policyCode=${sample.policyCode}`);
    expect(byPolicy.map((c) => c.code)).toContain(sample.code);
    expect(byPolicy.every((c) => c.policyCode === sample.policyCode)).toBe(true);

    const byAccount = await walk(viewer, `filter=accountCode=${sample.accountCode}`);
    expect(byAccount.every((c) => c.accountCode === sample.accountCode)).toBe(true);

    const thefts = await walk(viewer, 'filter=claimType=theft');
    expect(thefts.length).toBeGreaterThan(0);
    expect(thefts.every((c) => c.claimType === 'theft')).toBe(true);

    const byProduct = await walk(viewer, `filter=productId=${sample.productId}`);
    expect(byProduct.every((c) => c.productId === sample.productId)).toBe(true);

    const combined = await call(
      viewer,
      `/claims?filter=${encodeURIComponent(`status=settled&claimType=theft`)}&pageSize=100`,
    );
    expect(combined.status).toBe(200);
    expect(
      combined.body.items.every((c: Claim) => c.status === 'settled' && c.claimType === 'theft'),
    ).toBe(true);
  });

  it('searches title, number, code and policy number', async () => {
    const byNumber = await call(viewer, '/claims?search=S-000042');
    expect(byNumber.body.items.map((c: Claim) => c.claimNumber)).toEqual(['S-000042']);
    const claim = byNumber.body.items[0] as Claim;
    const byCode = await call(viewer, `/claims?search=${claim.code}`);
    expect(byCode.body.items.map((c: Claim) => c.code)).toEqual([claim.code]);
    const byPolicy = await call(viewer, `/claims?search=${claim.policyNumber}&pageSize=100`);
    expect(byPolicy.body.items.every((c: Claim) => c.policyNumber === claim.policyNumber)).toBe(
      true,
    );
    expect(byPolicy.body.items.map((c: Claim) => c.code)).toContain(claim.code);
    const byTitle = await call(viewer, '/claims?search=bicycle&pageSize=100');
    expect(byTitle.body.items.length).toBeGreaterThan(0);
    expect(byTitle.body.items.every((c: Claim) => /bicycle/i.test(c.title))).toBe(true);
    // LIKE wildcards are plain text.
    expect((await call(viewer, '/claims?search=%25')).body.items).toEqual([]);
  });

  it('orders by damage date, status and title', async () => {
    const byDamage = (await call(viewer, '/claims?order=damageDate:DESC&pageSize=100')).body
      .items as Claim[];
    const dates = byDamage.map((c) => c.damageDate);
    expect(dates).toEqual([...dates].sort().reverse());
    const byStatus = (await call(viewer, '/claims?order=status:ASC&pageSize=100')).body
      .items as Claim[];
    expect(byStatus[0]!.status).toBe('approved');
    const byTitle = (await call(viewer, '/claims?order=title:ASC&pageSize=100')).body
      .items as Claim[];
    const titles = byTitle.map((c) => c.title.toLowerCase());
    expect(titles).toEqual([...titles].sort());
  });

  it('refuses bad queries with a JSON error', async () => {
    for (const query of [
      'filter=colour=red',
      'filter=status=Not%20A%20Status',
      'filter=claimType=fire',
      'filter=productId=abc',
      'order=premium:ASC',
      'expand=everything',
      'pageSize=0',
    ]) {
      const res = await call(viewer, `/claims?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toBe('invalid_query');
      expect(res.body.message, query).toEqual(expect.any(String));
    }
  });

  it('shows a tenant only its own claims and needs the view permission', async () => {
    const theirs = await walk(nord, 'order=claimNumber:ASC');
    expect(theirs).toHaveLength(10);
    const ours = new Set((await walk(viewer, 'order=claimNumber:ASC')).map((c) => c.code));
    expect(theirs.some((c) => ours.has(c.code))).toBe(false);
    expect(theirs.every((c) => Object.keys(c.customFields).length === 0)).toBe(true);
    expect((await call(noui, '/claims')).status).toBe(403);
    expect((await api(base, `${C}/claims`)).status).toBe(401);
  });
});

describe('POST /claims', () => {
  it('creates a claim on a policy, in the first status, with the policy’s data', async () => {
    const res = await send(
      care,
      'POST',
      '/claims',
      claimBody({ customFields: { damageLocation: 'Berlin', unknownKey: 'dropped' } }),
    );
    expect(res.status).toBe(201);
    const claim = res.body.claim as Claim;
    expect(claim).toMatchObject({
      title: 'Water damage in the hall',
      description: 'A pipe burst behind the wall.',
      policyCode: policy.code,
      policyNumber: policy.policyNumber,
      accountCode: policy.accountCode,
      productId: policy.productId,
      status: 'open',
      damageDate: dayAfter(policy.startDay, 1),
      notificationDate: today(),
      claimType: 'damage',
      customFields: { damageLocation: 'Berlin' },
      totals: { reserve: 0, payment: 0, recourse: 0, currency: 'EUR' },
      version: 1,
    });
    expect(claim.code).toMatch(/^clm_[0-9a-f]{16}$/);
    expect(Number(claim.claimNumber.slice(2))).toBeGreaterThan(500);
    expect(claim.claimNumber).toMatch(/^S-\d{6}$/);
    expect(claim.holder).not.toBeNull();
    expect(claim.createdBy).toMatch(/^usr_/);

    const next = await newClaim();
    expect(Number(next.claimNumber.slice(2))).toBe(Number(claim.claimNumber.slice(2)) + 1);
    const read = await call(viewer, `/claims/${claim.code}`);
    expect(read.body.claim).toEqual(claim);
    expect((await call(viewer, `/claims/${claim.id}`)).body.claim.code).toBe(claim.code);
  });

  it.each([
    ['no title', { title: '  ' }, 'title: required'],
    ['a title too long', { title: 'x'.repeat(201) }, 'title: too_long'],
    ['a description too long', { description: 'x'.repeat(5001) }, 'description: too_long'],
    ['an unknown type', { claimType: 'fire' }, 'claimType: invalid_claim_type'],
    ['no damage date', { damageDate: undefined }, 'damageDate: Invalid key'],
    ['an empty damage date', { damageDate: '' }, 'damageDate: required'],
    ['an impossible day', { damageDate: '2025-02-30' }, 'damageDate: invalid_date'],
    ['a damage in the future', { damageDate: '2999-01-01' }, 'damageDate: date_in_future'],
    [
      'a notice in the future',
      { notificationDate: '2999-01-01' },
      'notificationDate: date_in_future',
    ],
    ['a status', { status: 'approved' }, 'status'],
    [
      'unknown custom values',
      { customFields: { damageLocation: 7 } },
      'customFields.damageLocation',
    ],
    [
      'a missing required custom field',
      { customFields: {} },
      'customFields.damageLocation: required',
    ],
    ['a malformed policy code', { policyCode: 'POL-1' }, 'policyCode: unknown_policy'],
    ['an unknown policy', { policyCode: 'pol_0000000000000000' }, 'policyCode: unknown_policy'],
  ])('refuses %s with 400', async (_, extra, message) => {
    const res = await send(care, 'POST', '/claims', claimBody(extra));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(res.body.message).toContain(message);
  });

  it('refuses dates before the policy started and a notice before the damage', async () => {
    const early = await send(
      care,
      'POST',
      '/claims',
      claimBody({ damageDate: dayAfter(policy.startDay, -1) }),
    );
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('damageDate: before_policy_start');
    const notice = await send(
      care,
      'POST',
      '/claims',
      claimBody({ notificationDate: policy.startDay }),
    );
    expect(notice.status).toBe(400);
    expect(notice.body.message).toBe('notificationDate: before_damage_date');
  });

  it('refuses another tenant’s policy, bad JSON, and callers without create', async () => {
    const foreign = await send(care, 'POST', '/claims', claimBody({ policyCode: nordPolicyCode }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('policyCode: unknown_policy');
    const broken = await api(base, `${C}/claims`, {
      token: care.accessToken,
      rawBody: '{"title":',
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('invalid_json');
    expect((await send(viewer, 'POST', '/claims', claimBody())).status).toBe(403);
    // Nordlicht has no claim custom schema: custom values are dropped there.
    const theirs = await send(nord, 'POST', '/claims', {
      ...claimBody({ policyCode: nordPolicyCode }),
      // Within the policy's term: a loss after it ended has no cover (issue 15).
      damageDate: dayAfter(nordPolicyStart, 1),
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.claim.customFields).toEqual({});
    expect(theirs.body.claim.claimNumber).toBe('S-000011');
  });
});

describe('GET /claims/{code}', () => {
  it('answers 404 for another tenant’s claim and for keys that are no claim', async () => {
    const ours = await newClaim();
    for (const key of [ours.code, String(ours.id), 'clm_unknown', 'S-000001', '../claims']) {
      const res = await call(nord, `/claims/${encodeURIComponent(key)}`);
      expect(res.status, key).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: 'Claim does not exist' });
    }
    expect((await call(noui, `/claims/${ours.code}`)).status).toBe(403);
  });
});

describe('PUT /claims/{code}', () => {
  it('replaces the editable fields on top of a version', async () => {
    const claim = await newClaim({ notificationDate: dayAfter(policy.startDay, 3) });
    const res = await send(care, 'PUT', `/claims/${claim.code}`, {
      version: claim.version,
      title: 'Water damage in the hall and the cellar',
      damageDate: dayAfter(policy.startDay, 2),
      claimType: 'other',
      customFields: { damageLocation: 'Potsdam', estimatedDamage: 1200 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.claim).toMatchObject({
      title: 'Water damage in the hall and the cellar',
      // A full body: the description it leaves out is cleared, the notice date kept.
      description: '',
      damageDate: dayAfter(policy.startDay, 2),
      notificationDate: dayAfter(policy.startDay, 3),
      claimType: 'other',
      customFields: { damageLocation: 'Potsdam', estimatedDamage: 1200 },
      version: 2,
    });

    // The same again is no change: the version stays.
    const again = await send(care, 'PUT', `/claims/${claim.code}`, {
      version: 2,
      title: 'Water damage in the hall and the cellar',
      damageDate: dayAfter(policy.startDay, 2),
      claimType: 'other',
      customFields: { estimatedDamage: 1200, damageLocation: 'Potsdam' },
    });
    expect(again.status).toBe(200);
    expect(again.body.claim.version).toBe(2);
  });

  it('answers a stale version with 409 and the current claim', async () => {
    const claim = await newClaim();
    await moveTo(claim, 'in-review');
    const stale = await send(care, 'PUT', `/claims/${claim.code}`, {
      ...claimBody(),
      policyCode: undefined,
      version: claim.version,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.message).toContain('version 2');
    expect(stale.body.claim).toMatchObject({ code: claim.code, version: 2, status: 'in-review' });
  });

  it('refuses bad bodies, other tenants and callers without update', async () => {
    const claim = await newClaim();
    const body = { version: 1, title: 'T', damageDate: claim.damageDate, claimType: 'damage' };
    const noVersion = await send(care, 'PUT', `/claims/${claim.code}`, {
      ...body,
      version: undefined,
    });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.message).toContain('version');
    const movedPolicy = await send(care, 'PUT', `/claims/${claim.code}`, {
      ...body,
      customFields: { damageLocation: 'Kiel' },
      policyCode: policy.code,
    });
    expect(movedPolicy.status).toBe(400);
    expect(movedPolicy.body.message).toContain('policyCode');
    expect((await send(nord, 'PUT', `/claims/${claim.code}`, body)).status).toBe(404);
    expect((await send(viewer, 'PUT', `/claims/${claim.code}`, body)).status).toBe(403);
  });
});

describe('PATCH /claims/{code}', () => {
  it('moves a claim along its rules and edits single fields', async () => {
    const claim = await newClaim();
    const reviewed = await moveTo(claim, 'in-review', 'waiting-for-documents', 'in-review');
    expect(reviewed).toMatchObject({ status: 'in-review', version: 4 });
    const edited = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: 4,
      description: 'Photos arrived.',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.claim).toMatchObject({
      description: 'Photos arrived.',
      title: claim.title,
      status: 'in-review',
      version: 5,
    });
  });

  it('merges custom fields by key: the others stay, an explicit null clears one', async () => {
    const claim = await newClaim();
    // One user sets the police report number ...
    const first = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: claim.version,
      customFields: { policeReportNumber: 'AZ-4711' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.claim.customFields).toEqual({
      damageLocation: 'Berlin',
      policeReportNumber: 'AZ-4711',
    });
    // ... another the estimate: neither overwrites the other's field.
    const second = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: first.body.claim.version,
      customFields: { estimatedDamage: 1200 },
    });
    expect(second.body.claim.customFields).toEqual({
      damageLocation: 'Berlin',
      policeReportNumber: 'AZ-4711',
      estimatedDamage: 1200,
    });
    const cleared = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: second.body.claim.version,
      customFields: { policeReportNumber: null },
    });
    expect(cleared.body.claim.customFields).toEqual({
      damageLocation: 'Berlin',
      estimatedDamage: 1200,
    });
    // A required field cannot be cleared, and a merge that changes nothing keeps the version.
    const required = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: cleared.body.claim.version,
      customFields: { damageLocation: null },
    });
    expect(required.status).toBe(400);
    expect(required.body.message).toContain('customFields.damageLocation');
    const same = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: cleared.body.claim.version,
      customFields: { estimatedDamage: 1200 },
    });
    expect(same.status).toBe(200);
    expect(same.body.claim.version).toBe(cleared.body.claim.version);
  });

  it('refuses a move the rules do not allow with 409 illegal_transition', async () => {
    const claim = await newClaim();
    const res = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: claim.version,
      status: 'settled',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 'illegal_transition',
      message: 'A claim cannot move from open to settled',
      claim: { code: claim.code, status: 'open', version: 1 },
    });
    // Even with a stale version, the forbidden move is what is reported.
    const stale = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: 9,
      status: 'approved',
    });
    expect(stale.body.error).toBe('illegal_transition');
  });

  it('answers a stale version with 409 and the current claim', async () => {
    const claim = await newClaim();
    await moveTo(claim, 'in-review');
    const res = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: 1,
      title: 'Mine',
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('version_conflict');
    expect(res.body.claim).toMatchObject({ version: 2, status: 'in-review', title: claim.title });
  });

  it('refuses edits of a closed claim, but not a move the rules allow', async () => {
    const claim = await newClaim();
    const closed = await moveTo(claim, 'rejected', 'closed');
    const edit = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: closed.version,
      title: 'Changed after closing',
    });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBe('claim_closed');
    expect(edit.body.claim.status).toBe('closed');
    const put = await send(care, 'PUT', `/claims/${claim.code}`, {
      version: closed.version,
      title: 'Changed after closing',
      damageDate: claim.damageDate,
      claimType: 'damage',
      customFields: claim.customFields,
    });
    expect(put.body.error).toBe('claim_closed');
    const reopen = await send(care, 'PATCH', `/claims/${claim.code}`, {
      version: closed.version,
      status: 'open',
    });
    expect(reopen.status).toBe(409);
    expect(reopen.body.error).toBe('illegal_transition');
    // A rejected claim may be edited and reopened.
    const rejected = await moveTo(await newClaim(), 'rejected');
    const reopened = await send(care, 'PATCH', `/claims/${rejected.code}`, {
      version: rejected.version,
      status: 'open',
      title: 'Reopened after a call',
    });
    expect(reopened.status).toBe(200);
    expect(reopened.body.claim).toMatchObject({ status: 'open', title: 'Reopened after a call' });
  });

  it('refuses bad bodies with 400', async () => {
    const claim = await newClaim();
    for (const [body, message] of [
      [{ version: 1 }, 'nothing to change'],
      [{ version: 1, status: 'archived' }, 'status: unknown_status'],
      [{ version: 1, status: 'Open!' }, 'status: unknown_status'],
      [{ version: 1, damageDate: '2999-12-31' }, 'damageDate: date_in_future'],
      [{ version: 1, notificationDate: '2000-01-01' }, 'notificationDate: before_damage_date'],
      [{ version: 1, customFields: { estimatedDamage: 'a lot' } }, 'customFields.'],
      [{ version: 'one', title: 'x' }, 'version'],
      [{ version: 1, colour: 'red' }, 'colour'],
    ] as const) {
      const res = await send(care, 'PATCH', `/claims/${claim.code}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('validation_error');
      expect(res.body.message).toContain(message);
    }
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.version).toBe(1);
  });

  it('refuses other tenants and callers without update', async () => {
    const claim = await newClaim();
    const move = { version: 1, status: 'in-review' };
    expect((await send(nord, 'PATCH', `/claims/${claim.code}`, move)).status).toBe(404);
    expect((await send(viewer, 'PATCH', `/claims/${claim.code}`, move)).status).toBe(403);
    expect((await send(noui, 'PATCH', `/claims/${claim.code}`, move)).status).toBe(403);
  });
});

describe('DELETE /claims/{code}', () => {
  // A claim with settlements is cancelled, never deleted: sandbox-claim-controls.test.ts.
  it('deletes a claim without money with its partner links and documents', async () => {
    const claim = await newClaim();
    const other = await newClaim();
    const partner = (
      await api(base, '/partnerservice/v1/partners?pageSize=1', { token: care.accessToken })
    ).body.items[0];
    const roles = (await call(care, '/claim-partner-roles')).body.items;
    const link = await send(care, 'POST', `/claims/${claim.code}/partner`, {
      partnerCode: partner.code,
      claimPartnerRoleId: roles[0].id,
    });
    expect(link.status).toBe(201);
    // Document metadata of both claims, as the document service keeps it (entityId: claim id).
    await kit.db().query(
      `INSERT INTO documents (tenant_id, code, entity_type, entity_id, content_type, filename,
                              s3_key)
       SELECT t.id, 'doc_' || x.id, 'ClaimDocument', x.id::text, 'application/pdf', 'a.pdf',
              t.id || '/claims/' || x.code || '/a.pdf'
         FROM tenants t, (VALUES ($1::int, $2::text), ($3::int, $4::text)) AS x(id, code)
        WHERE t.slug = 'demo'`,
      [claim.id, claim.code, other.id, other.code],
    );

    expect((await send(care, 'DELETE', `/claims/${claim.code}`)).status).toBe(400);
    const stale = await send(care, 'DELETE', `/claims/${claim.code}?version=7`);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'version_conflict', claim: { version: 1 } });
    expect((await send(nord, 'DELETE', `/claims/${claim.code}?version=1`)).status).toBe(404);
    expect((await send(viewer, 'DELETE', `/claims/${claim.code}?version=1`)).status).toBe(403);

    const deleted = await send(care, 'DELETE', `/claims/${claim.code}?version=1`);
    expect(deleted.status).toBe(204);
    expect((await call(viewer, `/claims/${claim.code}`)).status).toBe(404);
    expect(
      (await call(viewer, `/claim-partners?filter=claimCode=${claim.code}`)).body.items,
    ).toEqual([]);
    const documents = await kit
      .db()
      .query<{ entity_id: string }>(
        `SELECT entity_id FROM documents WHERE entity_type = 'ClaimDocument' AND entity_id = ANY($1)`,
        [[String(claim.id), String(other.id)]],
      );
    // The other claim's: the one above and its acknowledgement (issue 19); none of the deleted.
    expect([...new Set(documents.map((d) => d.entity_id))]).toEqual([String(other.id)]);
    expect((await send(care, 'DELETE', `/claims/${claim.code}?version=1`)).status).toBe(404);
  });
});

describe('claim partners', () => {
  it('links partners in roles, lists them expanded and removes them', async () => {
    const claim = await newClaim();
    const workshops = await api(base, '/partnerservice/v1/partners?filter=tagSlugs=workshop', {
      token: care.accessToken,
    });
    const workshop = workshops.body.items[0];
    const roles = (await call(care, '/claim-partner-roles')).body.items as {
      id: number;
      slug: string;
    }[];
    const roleId = (slug: string) => roles.find((r) => r.slug === slug)!.id;

    const linked = await send(care, 'POST', `/claims/${claim.code}/partner`, {
      partnerCode: workshop.code,
      claimPartnerRoleId: roleId('workshop'),
    });
    expect(linked.status).toBe(201);
    expect(linked.body.claimPartner).toMatchObject({
      claimCode: claim.code,
      partnerCode: workshop.code,
      claimPartnerRoleId: roleId('workshop'),
      partner: { code: workshop.code, displayName: workshop.displayName },
      role: { slug: 'workshop', name: 'Workshop' },
    });
    expect(linked.body.claimPartner.partner.tags.map((t: { slug: string }) => t.slug)).toContain(
      'workshop',
    );
    // The same partner in another role is another link; in the same role it is a duplicate.
    const asWitness = await send(care, 'POST', `/claims/${claim.code}/partner`, {
      partnerCode: workshop.code,
      claimPartnerRoleId: roleId('witness'),
    });
    expect(asWitness.status).toBe(201);
    const twice = await send(care, 'POST', `/claims/${claim.code}/partner`, {
      partnerCode: workshop.code,
      claimPartnerRoleId: roleId('workshop'),
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('duplicate');

    const list = await call(
      viewer,
      `/claim-partners?filter=claimCode=${claim.code}&expand=partner,role`,
    );
    expect(list.status).toBe(200);
    expect(list.body.items.map((l: { role: { slug: string } }) => l.role.slug)).toEqual([
      'workshop',
      'witness',
    ]);
    expect(list.body.items[0].partner.displayName).toBe(workshop.displayName);
    const bare = await call(viewer, `/claim-partners?filter=claimCode=${claim.code}`);
    expect(bare.body.items[0].partner).toBeUndefined();

    const removed = await send(care, 'DELETE', `/claim-partners/${asWitness.body.claimPartner.id}`);
    expect(removed.status).toBe(204);
    const after = await call(viewer, `/claim-partners?filter=claimCode=${claim.code}`);
    expect(after.body.items).toHaveLength(1);
    expect(
      (await send(care, 'DELETE', `/claim-partners/${asWitness.body.claimPartner.id}`)).status,
    ).toBe(404);
  });

  it('refuses unknown partners and roles, closed claims, other tenants and missing rights', async () => {
    const claim = await newClaim();
    const roles = (await call(care, '/claim-partner-roles')).body.items;
    const theirRoles = (await call(nord, '/claim-partner-roles')).body.items;
    const partner = (
      await api(base, '/partnerservice/v1/partners?pageSize=1', { token: care.accessToken })
    ).body.items[0];
    const theirPartner = (
      await api(base, '/partnerservice/v1/partners?pageSize=1', { token: nord.accessToken })
    ).body.items[0];
    const link = (body: unknown, session = care, code = claim.code) =>
      send(session, 'POST', `/claims/${code}/partner`, body);

    for (const [body, message] of [
      [
        { partnerCode: 'ptn_0000', claimPartnerRoleId: roles[0].id },
        'partnerCode: unknown_partner',
      ],
      [
        { partnerCode: theirPartner.code, claimPartnerRoleId: roles[0].id },
        'partnerCode: unknown_partner',
      ],
      [{ partnerCode: 'nobody', claimPartnerRoleId: roles[0].id }, 'partnerCode: unknown_partner'],
      [
        { partnerCode: partner.code, claimPartnerRoleId: theirRoles[0].id },
        'claimPartnerRoleId: unknown_role',
      ],
      [{ partnerCode: partner.code, claimPartnerRoleId: 'reporter' }, 'claimPartnerRoleId'],
      [{ partnerCode: partner.code }, 'claimPartnerRoleId'],
    ] as const) {
      const res = await link(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('validation_error');
      expect(res.body.message).toContain(message);
    }
    const good = { partnerCode: partner.code, claimPartnerRoleId: roles[0].id };
    expect((await link(good, nord)).status).toBe(404);
    expect((await link(good, viewer)).status).toBe(403);
    const created = await link(good);
    expect(created.status).toBe(201);
    const id = created.body.claimPartner.id;
    expect((await send(nord, 'DELETE', `/claim-partners/${id}`)).status).toBe(404);
    expect((await send(viewer, 'DELETE', `/claim-partners/${id}`)).status).toBe(403);
    expect((await send(care, 'DELETE', '/claim-partners/abc')).status).toBe(404);
    expect((await call(nord, `/claim-partners?filter=claimCode=${claim.code}`)).body.items).toEqual(
      [],
    );
    expect((await call(viewer, '/claim-partners?expand=claims')).status).toBe(400);
    expect((await call(noui, '/claim-partners')).status).toBe(403);

    await moveTo(claim, 'rejected', 'closed');
    const onClosed = await link({ ...good, claimPartnerRoleId: roles[1].id });
    expect(onClosed.status).toBe(409);
    expect(onClosed.body.error).toBe('claim_closed');
    expect((await send(care, 'DELETE', `/claim-partners/${id}`)).body.error).toBe('claim_closed');
  });
});

describe('settlements', () => {
  it('creates, lists, reads, edits and deletes settlements; the claim shows their totals', async () => {
    // Payments are booked on approved claims only (sandbox-claim-controls.test.ts).
    const claim = await moveTo(await newClaim(), 'in-review', 'approved');
    const object = policy.objects[0]!;
    const created = await send(care, 'POST', '/settlements', {
      claimCode: claim.code,
      insuredObject: object,
      reserve: 250_000,
      payment: 0,
      recourse: 0,
    });
    expect(created.status).toBe(201);
    const settlement = created.body.settlement as Settlement;
    expect(settlement).toMatchObject({
      claimCode: claim.code,
      insuredObject: object,
      reserve: 250_000,
      payment: 0,
      recourse: 0,
      currency: 'EUR',
      version: 1,
    });
    expect(settlement.code).toMatch(/^stl_[0-9a-f]{16}$/);
    const second = await send(care, 'POST', '/settlements', {
      claimCode: claim.code,
      insuredObject: object,
      reserve: 10_000_000_000,
      payment: 5_000,
      recourse: 1_000,
    });
    expect(second.status).toBe(201);

    const list = await call(viewer, `/settlements?filter=claimCode=${claim.code}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: Settlement) => s.code)).toEqual([
      settlement.code,
      second.body.settlement.code,
    ]);
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals).toEqual({
      reserve: 10_000_250_000,
      payment: 5_000,
      recourse: 1_000,
      currency: 'EUR',
    });
    expect((await call(viewer, `/settlements/${settlement.code}`)).body.settlement).toEqual(
      settlement,
    );
    expect((await call(viewer, `/settlements/${settlement.id}`)).body.settlement.code).toBe(
      settlement.code,
    );

    const edited = await send(care, 'PUT', `/settlements/${settlement.code}`, {
      version: 1,
      insuredObject: object,
      reserve: 250_000,
      payment: 200_000,
      recourse: 0,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.settlement).toMatchObject({ payment: 200_000, version: 2 });
    const stale = await send(care, 'PUT', `/settlements/${settlement.code}`, {
      version: 1,
      insuredObject: object,
      reserve: 1,
      payment: 1,
      recourse: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'version_conflict',
      settlement: { code: settlement.code, version: 2, payment: 200_000 },
    });

    // What was paid stays; a settlement with only a reserve may go.
    const paid = await send(care, 'DELETE', `/settlements/${settlement.code}`);
    expect(paid.status).toBe(409);
    expect(paid.body.error).toBe('settlement_has_payment');
    const reserveOnly = await send(care, 'POST', '/settlements', {
      claimCode: claim.code,
      insuredObject: object,
      reserve: 1_000,
      payment: 0,
      recourse: 0,
    });
    const code = reserveOnly.body.settlement.code as string;
    expect((await send(care, 'DELETE', `/settlements/${code}`)).status).toBe(204);
    expect((await call(viewer, `/settlements/${code}`)).status).toBe(404);
    expect((await call(viewer, `/claims/${claim.code}`)).body.claim.totals.reserve).toBe(
      10_000_250_000,
    );
  });

  it('lists the seeded settlements of a settled claim', async () => {
    const settled = (await call(viewer, '/claims?filter=status=settled&pageSize=1')).body
      .items[0] as Claim;
    const list = await call(viewer, `/settlements?filter=claimCode=${settled.code}`);
    const items = list.body.items as Settlement[];
    expect(items.length).toBeGreaterThanOrEqual(1);
    expect(items.reduce((sum, s) => sum + s.payment, 0)).toBe(settled.totals.payment);
    expect(items.every((s) => s.payment > 0 && s.payment <= s.reserve)).toBe(true);
  });

  it('refuses bad amounts, unknown insured objects and unknown claims with 400', async () => {
    const claim = await newClaim();
    const body = {
      claimCode: claim.code,
      insuredObject: policy.objects[0],
      reserve: 1,
      payment: 0,
      recourse: 0,
    };
    for (const [extra, message] of [
      [{ reserve: -1 }, 'reserve: invalid_amount'],
      [{ payment: 1.5 }, 'payment: invalid_amount'],
      [{ recourse: 10_000_000_001 }, 'recourse: invalid_amount'],
      [{ reserve: '100' }, 'reserve: invalid_amount'],
      [{ insuredObject: 'spaceship' }, 'insuredObject: unknown_insured_object'],
      [{ insuredObject: '' }, 'insuredObject: required'],
      [{ claimCode: 'clm_0000' }, 'claimCode: unknown_claim'],
      [{ claimCode: 'S-000001' }, 'claimCode: unknown_claim'],
    ] as const) {
      const res = await send(care, 'POST', '/settlements', { ...body, ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error).toBe('validation_error');
      expect(res.body.message).toBe(message);
    }
    const created = (await send(care, 'POST', '/settlements', body)).body.settlement as Settlement;
    const put = await send(care, 'PUT', `/settlements/${created.code}`, {
      version: 1,
      insuredObject: 'spaceship',
      reserve: 1,
      payment: 0,
      recourse: 0,
    });
    expect(put.status).toBe(400);
    const moved = await send(care, 'PUT', `/settlements/${created.code}`, {
      version: 1,
      claimCode: claim.code,
      insuredObject: policy.objects[0],
      reserve: 1,
      payment: 0,
      recourse: 0,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toContain('claimCode');
  });

  it('refuses settlement changes on rejected and closed claims with 409', async () => {
    const claim = await newClaim();
    const created = (
      await send(care, 'POST', '/settlements', {
        claimCode: claim.code,
        insuredObject: policy.objects[0],
        reserve: 1,
        payment: 0,
        recourse: 0,
      })
    ).body.settlement as Settlement;
    await moveTo(claim, 'rejected');
    const onRejected = await send(care, 'POST', '/settlements', {
      claimCode: claim.code,
      insuredObject: policy.objects[0],
      reserve: 1,
      payment: 0,
      recourse: 0,
    });
    expect(onRejected.status).toBe(409);
    expect(onRejected.body.error).toBe('claim_closed');
    expect(onRejected.body.claim.status).toBe('rejected');
    const put = await send(care, 'PUT', `/settlements/${created.code}`, {
      version: 1,
      insuredObject: policy.objects[0],
      reserve: 2,
      payment: 0,
      recourse: 0,
    });
    expect(put.status).toBe(409);
    expect((await send(care, 'DELETE', `/settlements/${created.code}`)).status).toBe(409);
    expect((await call(viewer, `/settlements/${created.code}`)).body.settlement.reserve).toBe(1);
  });

  it('keeps tenants apart and needs the claim permissions', async () => {
    const claim = await newClaim();
    const body = {
      claimCode: claim.code,
      insuredObject: policy.objects[0],
      reserve: 1,
      payment: 0,
      recourse: 0,
    };
    const foreign = await send(nord, 'POST', '/settlements', body);
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('claimCode: unknown_claim');
    expect((await send(viewer, 'POST', '/settlements', body)).status).toBe(403);
    const created = (await send(care, 'POST', '/settlements', body)).body.settlement as Settlement;
    expect((await call(nord, `/settlements/${created.code}`)).status).toBe(404);
    expect((await call(nord, `/settlements/${created.id}`)).status).toBe(404);
    expect(
      (
        await send(nord, 'PUT', `/settlements/${created.code}`, {
          version: 1,
          insuredObject: 'x',
          reserve: 1,
          payment: 0,
          recourse: 0,
        })
      ).status,
    ).toBe(404);
    expect((await send(nord, 'DELETE', `/settlements/${created.code}`)).status).toBe(404);
    expect((await call(nord, `/settlements?filter=claimCode=${claim.code}`)).body.items).toEqual(
      [],
    );
    expect((await send(viewer, 'DELETE', `/settlements/${created.code}`)).status).toBe(403);
    expect((await call(noui, '/settlements')).status).toBe(403);
    expect((await call(viewer, '/settlements?filter=policyCode=x')).status).toBe(400);
  });
});

describe('claim permissions', () => {
  const nouiRole = `SELECT ur.role_id FROM user_roles ur JOIN users u ON u.id = ur.user_id
                     WHERE u.email = 'noui@demo.test'`;

  it('accepts the legacy eis.claims.* permissions', async () => {
    await kit.db().query(
      `INSERT INTO role_permissions (tenant_id, role_id, permission)
       SELECT r.tenant_id, r.id, p FROM roles r,
              unnest(ARRAY['eis.claims.view', 'eis.claims.update']) AS p
        WHERE r.id IN (${nouiRole})`,
    );
    try {
      const claim = (await call(noui, '/claims?filter=status=open&pageSize=1')).body
        .items[0] as Claim;
      expect(claim).toBeDefined();
      expect((await call(noui, '/claim-statuses')).status).toBe(200);
      expect(
        (
          await api(base, '/insuranceservice/v1/status-transitions/rules?filter=entityType=claim', {
            token: noui.accessToken,
          })
        ).status,
      ).toBe(200);
      const moved = await send(noui, 'PATCH', `/claims/${claim.code}`, {
        version: claim.version,
        status: 'in-review',
      });
      expect(moved.status).toBe(200);
      expect((await send(noui, 'POST', '/claims', claimBody())).status).toBe(403);
      expect((await send(noui, 'DELETE', `/claims/${claim.code}?version=2`)).status).toBe(403);
    } finally {
      await kit.db().query(
        `DELETE FROM role_permissions WHERE permission LIKE 'eis.claims.%'
          AND role_id IN (${nouiRole})`,
      );
    }
    expect((await call(noui, '/claims')).status).toBe(403);
  });
});
