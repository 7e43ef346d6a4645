import { beforeAll, describe, expect, it } from 'vitest';
import { api, type Session } from '#server/sandbox/testing.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import { growPolicies } from '#server/sandbox/services/insurance/seed-policies.ts';
import { INSURANCE_USERS } from '#tests/support/sandbox.ts';
import { setPermissions, sandboxWorld } from '#tests/support/sandbox-world.ts';

const I = '/insuranceservice/v1';
const world = sandboxWorld(I, INSURANCE_USERS);
const { care, viewer, noui, nord } = world.sessions;
const { call, post, patch } = world;

/** A product version of the demo world with its insured objects by name. */
interface Version {
  id: number;
  objects: Record<string, number>;
}

async function versionOf(tenant: string, slug: string, status: string): Promise<Version> {
  const rows = await world.db().query<{
    version_id: number;
    object_id: number;
    name: string;
  }>(
    `SELECT v.id AS version_id, o.id AS object_id, o.name
       FROM product_versions v
       JOIN products p ON p.id = v.product_id
       JOIN tenants t ON t.id = p.tenant_id
       JOIN insured_objects o ON o.product_version_id = v.id
      WHERE t.slug = $1 AND p.slug = $2 AND v.status = $3
      ORDER BY v.id DESC, o.id`,
    [tenant, slug, status],
  );
  const versionId = rows[0]!.version_id;
  return {
    id: versionId,
    objects: Object.fromEntries(
      rows.filter((r) => r.version_id === versionId).map((r) => [r.name, r.object_id]),
    ),
  };
}

async function accountOf(tenant: string): Promise<string> {
  const [row] = await world.db().query<{ code: string }>(
    `SELECT a.code FROM accounts a JOIN tenants t ON t.id = a.tenant_id
      WHERE t.slug = $1 ORDER BY a.id LIMIT 1`,
    [tenant],
  );
  return row!.code;
}

let car: Version;
let demoAccount: string;

interface Lead {
  code: string;
  leadNumber: string;
  status: string;
  version: number;
  accountCode: string | null;
  productSlug: string;
  productVersionId: number;
  policy: {
    holder: Record<string, unknown> | null;
    policyObjects: { insuredObjectId: number; data: Record<string, unknown> }[];
  };
  premiumOverride: { premiumFormulaId: number; total: number }[] | null;
  premium: { grandTotal: number; premiumItems: { total: number; isOverride: boolean }[] };
  versions: { version: number; status: string; changedFields: string[] }[];
}

const takenLeads: string[] = [];

/** A seeded lead of the tenant in this status that no test here took before (of this product). */
async function leadIn(tenant: string, status: string, productSlug?: string): Promise<Lead> {
  const [row] = await world.db().query<{ code: string }>(
    `SELECT l.code FROM leads l JOIN tenants t ON t.id = l.tenant_id
       JOIN products p ON p.id = l.product_id
      WHERE t.slug = $1 AND l.status = $2 AND ($3::text IS NULL OR p.slug = $3)
        AND l.code <> ALL($4::text[])
      ORDER BY l.id LIMIT 1`,
    [tenant, status, productSlug ?? null, takenLeads],
  );
  if (!row) throw new Error(`no ${status} lead left in ${tenant}`);
  takenLeads.push(row.code);
  return readLead(tenant === 'demo' ? care : nord, row.code);
}

async function readLead(session: Session, code: string): Promise<Lead> {
  const res = await call(session, `/leads/${code}`);
  expect(res.status).toBe(200);
  return res.body.lead;
}

const TODAY = new Date().toISOString().slice(0, 10);

/**
 * The create-policy body of a lead: its data, customer or holder, agreed totals and code. The
 * seeded leads' terms began long ago: the user gives a new start (`start`, default today).
 */
const policyOf = (lead: Lead, start: string | null = TODAY) => ({
  productVersionId: lead.productVersionId,
  accountCode: lead.accountCode,
  holder: lead.policy.holder,
  policyObjects: lead.policy.policyObjects.map((o) => ({
    insuredObjectId: o.insuredObjectId,
    data: 'policyStartDate' in o.data && start ? { ...o.data, policyStartDate: start } : o.data,
  })),
  premiumOverride: lead.premiumOverride ? { premiumItems: lead.premiumOverride } : null,
  leadCode: lead.code,
});

/** Complete data of the car product: 20 000 value, class 10, private use, a 1990 driver. */
function carObjects(overrides: Record<string, Record<string, unknown>> = {}) {
  const data: Record<string, Record<string, unknown>> = {
    default: { policyStartDate: '2025-03-01', policyDurationUnit: 'year', policyDurationValue: 1 },
    vehicle: { vehicleValue: 20000, vehicleType: 'car', isCommercial: false },
    driver: { birthDate: '1990-06-15', sfClass: 10 },
  };
  return Object.entries(data).map(([name, values]) => ({
    insuredObjectId: car.objects[name]!,
    data: { ...values, ...overrides[name] },
  }));
}

beforeAll(async () => {
  car = await versionOf('demo', 'car-comfort', 'active');
  demoAccount = await accountOf('demo');
});

/** Gives noui exactly these permissions. */
const setNouiPermissions = (...permissions: string[]) =>
  setPermissions(world.db(), 'noui@demo.test', ...permissions);

describe('POST /premiums/calculate', () => {
  it('computes the premium of complete data with the product formulas', async () => {
    const res = await post(viewer, '/premiums/calculate', {
      productVersionId: car.id,
      policyObjects: carObjects(),
    });
    expect(res.status).toBe(200);
    expect(res.body.missing).toEqual([]);
    // Base 240, no young-driver surcharge, 20 % no-claims discount, no commercial use, and no
    // regional or age loading (factor 1 for the rest of the country, the 26-to-65 age band 1).
    expect(res.body.premium.premiumItems.map((i: { total: number }) => i.total)).toEqual([
      240, 0, -48, 0, 0,
    ]);
    expect(res.body.premium).toMatchObject({ grandTotal: 192, currency: 'EUR' });
    const young = await post(viewer, '/premiums/calculate', {
      productVersionId: car.id,
      policyObjects: carObjects({ driver: { birthDate: '2004-01-01' } }),
    });
    expect(young.body.premium.premiumItems[1].total).toBe(72);
  });

  it('answers the missing fields while the data is incomplete', async () => {
    const res = await post(viewer, '/premiums/calculate', {
      productVersionId: car.id,
      policyObjects: carObjects({ vehicle: { vehicleType: '' } }).filter(
        (o) => o.insuredObjectId !== car.objects.driver,
      ),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      premium: null,
      missing: ['vehicle.vehicleType', 'driver.birthDate'],
    });
  });

  it('refuses invalid values with their issues, and unknown objects and versions', async () => {
    const res = await post(viewer, '/premiums/calculate', {
      productVersionId: car.id,
      policyObjects: carObjects({ vehicle: { vehicleValue: 10, vehicleType: '' } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    // A wrong value is reported even beside a missing one; a range issue names its bound.
    expect(res.body.issues).toEqual([
      { path: 'vehicle.vehicleValue', code: 'below_minimum', limit: 1000 },
      { path: 'vehicle.vehicleType', code: 'required' },
    ]);
    expect(res.body.message).toContain('vehicle.vehicleValue: below_minimum');

    const stranger = await post(viewer, '/premiums/calculate', {
      productVersionId: car.id,
      policyObjects: [{ insuredObjectId: 999999, data: {} }, ...carObjects()],
    });
    expect(stranger.body.issues).toEqual([
      { path: 'policyObjects.0.insuredObjectId', code: 'unknown_insured_object' },
    ]);
    const noVersion = await post(viewer, '/premiums/calculate', {
      productVersionId: 999999,
      policyObjects: [],
    });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.issues).toEqual([
      { path: 'productVersionId', code: 'unknown_product_version' },
    ]);
    for (const body of [{}, { productVersionId: 'x', policyObjects: [] }, { policyObjects: {} }]) {
      expect((await post(viewer, '/premiums/calculate', body)).status).toBe(400);
    }
  });

  it('checks texts by their kind: e-mail, renewal frequency, date and time', async () => {
    const home = await versionOf('demo', 'home-contents', 'draft');
    await world.db().query(
      `INSERT INTO product_fields (tenant_id, code, insured_object_id, name, label, type, kind,
                                   is_required, "order")
       SELECT o.tenant_id, 'pfi_kind_' || f.name, o.id, f.name, f.name, 'string', f.kind, false, f.n
         FROM insured_objects o,
              (VALUES ('contact', 'email', 90), ('renewal', 'renewalFrequency', 91),
                      ('inspection', 'dateTime', 92)) AS f(name, kind, n)
        WHERE o.id = $1`,
      [home.objects.household],
    );
    const household = {
      livingArea: 80,
      zipCode: '10115',
      sumInsured: 50000,
      bicycleCover: false,
    };
    const calculate = (extra: Record<string, unknown>) =>
      post(care, '/premiums/calculate', {
        productVersionId: home.id,
        policyObjects: [
          {
            insuredObjectId: home.objects.default!,
            data: {
              policyStartDate: '2025-01-01',
              policyDurationUnit: 'year',
              policyDurationValue: 1,
            },
          },
          { insuredObjectId: home.objects.household!, data: { ...household, ...extra } },
        ],
      });
    const wrong = await calculate({
      contact: 'anna at example',
      renewal: 'sometimes',
      inspection: '2025-02-30T10:00:00Z',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([
      { path: 'household.contact', code: 'invalid_email' },
      { path: 'household.renewal', code: 'invalid_option' },
      { path: 'household.inspection', code: 'invalid_date' },
    ]);
    const right = await calculate({
      contact: 'anna@example.test',
      renewal: 'yearly',
      inspection: '2025-03-01T10:15:00.000Z',
    });
    expect(right.status).toBe(200);
    expect(right.body.premium.grandTotal).toBe(55);
  });

  it('is 422 calculation_failed when a formula cannot be evaluated', async () => {
    const appliance = await versionOf('demo', 'device-household', 'draft');
    await world.db().query(
      `INSERT INTO premium_formulas (tenant_id, code, product_version_id, "group", name, expression,
                                     unit, "order")
       SELECT tenant_id, 'pfo_broken', id, 'Device', 'Broken', 'device.price / 0', 'year', 99
         FROM product_versions WHERE id = $1`,
      [appliance.id],
    );
    const res = await post(viewer, '/premiums/calculate', {
      productVersionId: appliance.id,
      policyObjects: [
        {
          insuredObjectId: appliance.objects.default!,
          data: {
            policyStartDate: '2025-01-01',
            policyDurationUnit: 'year',
            policyDurationValue: 1,
          },
        },
        { insuredObjectId: appliance.objects.device!, data: { price: 500 } },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('calculation_failed');
    expect(res.body.message).toMatch(/division_by_zero/);
  });

  it('treats the other tenant’s product version as unknown', async () => {
    const res = await post(nord, '/premiums/calculate', {
      productVersionId: car.id,
      policyObjects: carObjects(),
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { path: 'productVersionId', code: 'unknown_product_version' },
    ]);
  });

  it('needs policies.view or leads.view, current or legacy', async () => {
    const body = { productVersionId: car.id, policyObjects: carObjects() };
    for (const permission of [
      'policy-management.leads.view',
      'eis.leads.view',
      'eis.policies.view',
      'policy-management.policies.view',
    ]) {
      await setNouiPermissions(permission);
      expect((await post(noui, '/premiums/calculate', body)).status).toBe(200);
    }
    await setNouiPermissions('policy-management.products.view');
    expect((await post(noui, '/premiums/calculate', body)).status).toBe(403);
    await setNouiPermissions('policy-management.policies.view');
  });
});

describe('POST /policies', () => {
  const create = (session: Session, body: Record<string, unknown>) =>
    post(session, '/policies', {
      productVersionId: car.id,
      accountCode: demoAccount,
      policyObjects: carObjects(),
      ...body,
    });

  it('creates an active policy with version 1 over the contract term, numbered on', async () => {
    const res = await create(care, {});
    expect(res.status).toBe(201);
    const policy = res.body.policy;
    expect(policy).toMatchObject({
      policyNumber: 'POL-002001',
      status: 'ACTIVE',
      productVersionId: car.id,
      productSlug: 'car-comfort',
      accountCode: demoAccount,
      policyStartDate: '2025-03-01T00:00:00.000Z',
      leadCode: null,
    });
    expect(policy.code).toMatch(/^pol_[0-9a-f]{16}$/);
    expect(policy.versions).toHaveLength(1);
    const [version] = policy.versions;
    expect(version).toMatchObject({ versionNumber: 1, isCurrent: true, revisionStatus: 'applied' });
    expect(policy.currentVersionId).toBe(version.id);
    expect(policy.draftVersionId).toBeNull();
    expect(version.timeline).toHaveLength(1);
    expect(version.timeline[0]).toMatchObject({
      from: '2025-03-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
    });
    expect(version.timeline[0].premium.grandTotal).toBe(192);
    const objects = version.timeline[0].policyObjects;
    expect(objects.map((o: { insuredObjectName: string }) => o.insuredObjectName)).toEqual([
      'driver',
      'vehicle',
      'default',
    ]);
    // The checked data carries every field; an absent optional one is null.
    expect(objects[1].data).toEqual({
      vehicleValue: 20000,
      vehicleType: 'car',
      firstRegistration: null,
      isCommercial: false,
    });
    // It is in the list, first (newest), and readable by its code.
    const list = await call(care, '/policies?pageSize=1&expand=');
    expect(list.body.items[0].code).toBe(policy.code);
    const lead = await leadIn('demo', 'approved');
    const again = await create(care, {
      leadCode: lead.code,
      // A lead's policy starts today or later (the lead's own start lies in the past).
      policyObjects: carObjects({ default: { policyStartDate: TODAY } }),
    });
    expect(again.body.policy.policyNumber).toBe('POL-002002');
    expect(again.body.policy.leadCode).toBe(lead.code);
  });

  it('holds a policy for a named holder without a customer account', async () => {
    const holder = { type: 'person', firstName: 'Ida', lastName: 'Neumann', city: 'Kiel' };
    const res = await create(care, { accountCode: null, holder });
    expect(res.status).toBe(201);
    expect(res.body.policy.holder).toEqual(holder);
    const nobody = await create(care, { accountCode: null });
    expect(nobody.status).toBe(400);
    expect(nobody.body.issues).toEqual([{ path: 'holder', code: 'required' }]);
    const nameless = await create(care, { accountCode: null, holder: { city: 'Kiel' } });
    expect(nameless.body.issues).toEqual([{ path: 'holder.lastName', code: 'required' }]);
  });

  it('applies a premium override to the named formulas only', async () => {
    const [formula] = await world
      .db()
      .query<{ id: number }>(
        'SELECT id FROM premium_formulas WHERE product_version_id = $1 ORDER BY "order" LIMIT 1',
        [car.id],
      );
    const res = await create(care, {
      premiumOverride: { premiumItems: [{ premiumFormulaId: formula!.id, total: 199.999 }] },
    });
    expect(res.status).toBe(201);
    const premium = res.body.policy.versions[0].timeline[0].premium;
    expect(premium.premiumItems[0]).toEqual({
      premiumFormulaId: formula!.id,
      total: 200,
      isOverride: true,
    });
    expect(premium.premiumItems[2].isOverride).toBe(false);
    expect(premium.grandTotal).toBe(152);
    const wrong = await create(care, {
      premiumOverride: { premiumItems: [{ premiumFormulaId: 999999, total: 1 }] },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues[0]).toEqual({
      path: 'premiumOverride.premiumItems.0.premiumFormulaId',
      code: 'unknown_premium_formula',
    });
  });

  it('sells only from the active product version', async () => {
    const passive = await versionOf('demo', 'car-comfort', 'passive');
    const res = await create(care, {
      productVersionId: passive.id,
      policyObjects: carObjects().map((o, i) => ({
        ...o,
        insuredObjectId: Object.values(passive.objects)[i]!,
      })),
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('product_version_not_active');
    expect(res.body.message).toContain('passive');
  });

  it('refuses incomplete or invalid data, a foreign account and a malformed body', async () => {
    const incomplete = await create(care, {
      policyObjects: carObjects({ driver: { birthDate: null } }),
    });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.issues).toEqual([{ path: 'driver.birthDate', code: 'required' }]);
    const invalid = await create(care, {
      policyObjects: carObjects({
        default: { policyDurationUnit: 'decade' },
        vehicle: { isCommercial: 'no' },
      }),
    });
    expect(invalid.body.issues).toEqual([
      { path: 'default.policyDurationUnit', code: 'invalid_option' },
      { path: 'vehicle.isCommercial', code: 'not_boolean' },
    ]);
    const theirAccount = await accountOf('nordlicht');
    const foreign = await create(care, { accountCode: theirAccount });
    expect(foreign.status).toBe(400);
    expect(foreign.body.issues).toEqual([{ path: 'accountCode', code: 'unknown_account' }]);
    expect((await create(care, { accountCode: 'acc_nothere' })).status).toBe(400);
    expect((await create(care, { accountCode: 42 })).status).toBe(400);
    expect((await create(care, { policyObjects: 'all' })).status).toBe(400);
    const raw = await call(care, '/policies', { rawBody: '{"productVersionId":' });
    expect(raw.status).toBe(400);
    expect(raw.body.error).toBe('invalid_json');
  });

  it('checks the contract term across fields: duration, first registration, birth dates', async () => {
    const before = await world.db().query<{ n: number }>('SELECT count(*)::int AS n FROM policies');
    const negative = await create(care, {
      policyObjects: carObjects({ default: { policyDurationValue: -1 } }),
    });
    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({ error: 'validation_error' });
    expect(negative.body.issues).toEqual([
      { path: 'default.policyDurationValue', code: 'duration_too_short', limit: 1 },
    ]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const people = await create(care, {
      policyObjects: carObjects({
        vehicle: { firstRegistration: tomorrow },
        // Twelve at the start of the contract: too young to be the main driver.
        driver: { birthDate: '2013-01-01' },
      }),
    });
    expect(people.status).toBe(400);
    expect(people.body.issues).toEqual([
      { path: 'vehicle.firstRegistration', code: 'in_future' },
      { path: 'driver.birthDate', code: 'too_young', limit: 18 },
    ]);
    const old = await create(care, {
      policyObjects: carObjects({ driver: { birthDate: '1900-01-01' } }),
    });
    expect(old.body.issues).toEqual([{ path: 'driver.birthDate', code: 'too_old', limit: 120 }]);
    // The same rules while the form is filled in: the premium is not computed over them.
    const calculated = await post(viewer, '/premiums/calculate', {
      productVersionId: car.id,
      policyObjects: carObjects({ default: { policyDurationValue: 0 } }),
    });
    expect(calculated.status).toBe(400);
    expect(calculated.body.issues).toEqual([
      { path: 'default.policyDurationValue', code: 'duration_too_short', limit: 1 },
    ]);
    const after = await world.db().query<{ n: number }>('SELECT count(*)::int AS n FROM policies');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('keeps tenants apart: the other tenant neither sells our product nor shares our numbers', async () => {
    const ours = await create(nord, {});
    expect(ours.status).toBe(400);
    expect(ours.body.issues).toEqual([
      { path: 'productVersionId', code: 'unknown_product_version' },
    ]);
    const theirCar = await versionOf('nordlicht', 'nordlicht-car', 'active');
    const theirs = await post(nord, '/policies', {
      productVersionId: theirCar.id,
      accountCode: await accountOf('nordlicht'),
      policyObjects: [
        {
          insuredObjectId: theirCar.objects.default,
          data: {
            policyStartDate: '2025-01-01',
            policyDurationUnit: 'month',
            policyDurationValue: 6,
          },
        },
        { insuredObjectId: theirCar.objects.vehicle, data: { vehicleValue: 10000 } },
      ],
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.policy.policyNumber).toBe('POL-000026');
    expect(theirs.body.policy.versions[0].timeline[0].to).toBe('2025-07-01T00:00:00.000Z');
    expect((await call(care, `/policies/${theirs.body.policy.id}`)).status).toBe(404);
  });

  it('needs policies.create, current or legacy', async () => {
    const refused = await create(viewer, {});
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    await setNouiPermissions('eis.policies.create', 'eis.policies.view');
    expect((await create(noui, {})).status).toBe(201);
    await setNouiPermissions('policy-management.policies.view');
    expect((await create(noui, {})).status).toBe(403);
    expect((await api(world.base, `${I}/policies`, { body: {} })).status).toBe(401);
  });

  it('never gives two concurrent creations the same number', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => create(care, {})));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const numbers = results.map((r) => r.body.policy.policyNumber);
    expect(new Set(numbers).size).toBe(6);
  });
});

describe('POST /policies from a lead', () => {
  const convert = (session: Session, lead: Lead, extra: Record<string, unknown> = {}) =>
    post(session, '/policies', { ...policyOf(lead), ...extra });
  /** Nordlicht's seed has no approved lead: one of its quoted ones is approved first. */
  const approvedNordLead = async () => {
    const quoted = await leadIn('nordlicht', 'quoted');
    const res = await patch(nord, `/leads/${quoted.code}`, {
      version: quoted.version,
      status: 'approved',
    });
    expect(res.status).toBe(200);
    return res.body.lead as Lead;
  };
  const policiesOfLead = async (code: string) =>
    (
      await world
        .db()
        .query<{ n: number }>('SELECT count(*)::int AS n FROM policies WHERE lead_code = $1', [
          code,
        ])
    )[0]!.n;

  it('creates the policy of an approved lead and moves the lead to converted with it', async () => {
    const lead = await leadIn('demo', 'approved');
    const res = await convert(care, lead);
    expect(res.status).toBe(201);
    expect(res.body.policy).toMatchObject({
      status: 'ACTIVE',
      leadCode: lead.code,
      productVersionId: lead.productVersionId,
      accountCode: lead.accountCode,
    });
    // The same tariff over the same data: the lead's premium, agreed totals included.
    expect(res.body.policy.versions[0].timeline[0].premium).toEqual(lead.premium);

    const after = await readLead(care, lead.code);
    expect(after).toMatchObject({ status: 'converted', version: lead.version + 1 });
    expect(after.versions[0]).toMatchObject({
      version: lead.version + 1,
      status: 'converted',
      changedFields: ['status'],
    });
    const snapshot = await call(care, `/leads/${lead.code}/versions/${lead.version + 1}`);
    expect(snapshot.body.leadVersion.lead.status).toBe('converted');
  });

  it('takes the data of an approved lead of every product on sale, and Nordlicht its own', async () => {
    const slugs = await world.db().query<{ slug: string }>(
      `SELECT DISTINCT p.slug FROM leads l JOIN products p ON p.id = l.product_id
         JOIN tenants t ON t.id = l.tenant_id
        WHERE t.slug = 'demo' AND l.status = 'approved' ORDER BY p.slug`,
    );
    expect(slugs.length).toBeGreaterThan(1);
    for (const { slug } of slugs) {
      const lead = await leadIn('demo', 'approved', slug);
      const res = await convert(care, lead);
      expect([slug, res.status, res.body.message]).toEqual([slug, 201, undefined]);
    }
    const theirs = await approvedNordLead();
    expect((await convert(nord, theirs)).status).toBe(201);
    expect((await readLead(nord, theirs.code)).status).toBe('converted');
  });

  it("asks for a new start when the lead's term has begun already, converting nothing", async () => {
    const lead = await leadIn('demo', 'approved');
    const stale = await post(care, '/policies', policyOf(lead, null));
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'term.start_in_past',
      issues: [{ path: 'default.policyStartDate', code: 'start_in_past' }],
    });
    expect((await readLead(care, lead.code)).status).toBe('approved');
    expect(await policiesOfLead(lead.code)).toBe(0);
    // A policy sold directly may still be written back (a contract agreed earlier).
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await post(care, '/policies', policyOf(lead, tomorrow));
    expect(res.status).toBe(201);
    expect(res.body.policy.policyStartDate).toBe(`${tomorrow}T00:00:00.000Z`);
    expect((await readLead(care, lead.code)).status).toBe('converted');
  });

  it('says "Lead does not exist" for an unknown, malformed or other tenant\'s lead', async () => {
    const lead = await leadIn('demo', 'approved');
    for (const leadCode of ['lea_doesnotexist', '12', 'pol_0001']) {
      const res = await convert(care, lead, { leadCode });
      expect([leadCode, res.status, res.body]).toEqual([
        leadCode,
        404,
        { error: 'not_found', message: 'Lead does not exist' },
      ]);
      expect(await policiesOfLead(leadCode)).toBe(0);
    }
    // Nordlicht's lead, with a policy of Nordlicht's that would fit it.
    const theirs = await approvedNordLead();
    const foreign = await post(care, '/policies', { ...policyOf(lead), leadCode: theirs.code });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Lead does not exist');
    expect(await readLead(nord, theirs.code)).toMatchObject({
      status: 'approved',
      version: theirs.version,
    });
  });

  it('refuses a lead whose status the rules do not lead to converted, naming it', async () => {
    for (const status of ['quoted', 'new', 'declined']) {
      const lead = await leadIn('demo', status);
      const res = await convert(care, lead);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('illegal_transition');
      expect(res.body.message).toBe(`a lead in status "${status}" cannot move to "converted"`);
      expect(res.body.lead).toMatchObject({ code: lead.code, status, version: lead.version });
      expect(await policiesOfLead(lead.code)).toBe(0);
    }
  });

  it('refuses a second policy of a converted lead, naming the first', async () => {
    const lead = await leadIn('demo', 'approved');
    const first = await convert(care, lead);
    expect(first.status).toBe(201);
    const second = await convert(care, lead);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      error: 'lead_converted',
      message: `lead ${lead.leadNumber} has been converted already into policy ${first.body.policy.policyNumber}`,
      lead: { status: 'converted', version: lead.version + 1 },
    });
    expect(await policiesOfLead(lead.code)).toBe(1);
    // A lead converted before policies came from leads has none to name.
    const seeded = await leadIn('demo', 'converted');
    const res = await convert(care, seeded);
    expect([res.status, res.body.error, res.body.message]).toEqual([
      409,
      'lead_converted',
      `lead ${seeded.leadNumber} has been converted already`,
    ]);
  });

  it('saves nothing when the policy is refused: the lead stays as it was', async () => {
    const lead = await leadIn('demo', 'approved');
    const res = await convert(care, lead, { policyObjects: [] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(await readLead(care, lead.code)).toMatchObject({
      status: 'approved',
      version: lead.version,
    });
    expect(await policiesOfLead(lead.code)).toBe(0);
  });

  it('needs policies.create and, for the lead, leads.update (current or legacy)', async () => {
    const lead = await leadIn('demo', 'approved');
    const asViewer = await convert(viewer, lead);
    expect(asViewer.status).toBe(403);
    await setNouiPermissions('policy-management.policies.create', 'policy-management.leads.view');
    const withoutLead = await convert(noui, lead);
    expect(withoutLead.status).toBe(403);
    expect(withoutLead.body.message).toBe('missing permission policy-management.leads.update');
    expect(await readLead(care, lead.code)).toMatchObject({ status: 'approved' });
    await setNouiPermissions('eis.policies.create', 'eis.leads.update');
    expect((await convert(noui, lead)).status).toBe(201);
    expect((await readLead(care, lead.code)).status).toBe('converted');
  });

  it('lets one of two concurrent conversions of a lead win', async () => {
    const lead = await leadIn('demo', 'approved');
    const results = await Promise.all([convert(care, lead), convert(care, lead)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe('lead_converted');
    expect(await policiesOfLead(lead.code)).toBe(1);
  });
});

describe('growing a workspace (npm run seed:policies)', () => {
  it('adds demo policies numbered on after the created ones, readable in the list', async () => {
    // The sandbox's database is a Db (the test handle is typed for queries only).
    const db = world.db() as Db;
    const [before] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM policies p JOIN tenants t ON t.id = p.tenant_id
        WHERE t.slug = 'demo'`,
    );
    const created = await post(care, '/policies', {
      productVersionId: car.id,
      accountCode: demoAccount,
      policyObjects: carObjects(),
    });
    const result = await growPolicies(db, 'demo', before!.n + 1 + 40);
    expect(result).toEqual({ before: before!.n + 1, after: before!.n + 41 });
    expect(await growPolicies(db, 'demo', 10)).toEqual({
      before: before!.n + 41,
      after: before!.n + 41,
    });
    const number = Number(created.body.policy.policyNumber.slice(4));
    const list = await call(viewer, '/policies?pageSize=41&expand=timelines');
    expect(list.body.items.map((p: { policyNumber: string }) => p.policyNumber)).toEqual(
      Array.from({ length: 41 }, (_, i) => `POL-${String(number + 40 - i).padStart(6, '0')}`),
    );
    // Grown policies carry evaluated premiums like the seeded ones.
    expect(list.body.items[0].timeline[0].premium.premiumItems.length).toBeGreaterThan(0);
    // The next creation continues after them.
    const next = await post(care, '/policies', {
      productVersionId: car.id,
      accountCode: demoAccount,
      policyObjects: carObjects(),
    });
    expect(next.body.policy.policyNumber).toBe(`POL-${String(number + 41).padStart(6, '0')}`);
    await expect(growPolicies(db, 'nowhere', 5)).rejects.toThrow(/no workspace "nowhere"/);
  });
});
