import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/sandbox/platform/db.ts';
import { runBilling } from '#server/sandbox/services/billing/billing-run.ts';
import { demoCar, type DemoCar } from '#tests/support/demo-car.ts';
import { serviceCalls } from '#tests/support/sandbox.ts';
import { sandboxWorld } from '#tests/support/sandbox-world.ts';

// The billing system fields of the default object (issue 18; docs/contracts.md "Billing and
// payments"): billingFrequencyUnit and recurringBillingDay, optional, read by the billing run.
const I = '/insuranceservice/v1';
const DAY_MS = 86_400_000;
const world = sandboxWorld(I, {
  care: 'care@demo.test',
  manager: 'manager@demo.test',
  finance: 'finance@demo.test',
});
const { care, manager, finance } = world.sessions;
const billing = serviceCalls(world, '/billingservice/v1');

let car: DemoCar;
beforeAll(async () => {
  car = await demoCar(world.db());
});

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Sells the demo car from `start` for a year with the given extra data of the default object. */
const sell = (start: string, billingData: Record<string, unknown>) =>
  world.post(care, '/policies', {
    productVersionId: car.versionId,
    accountCode: car.account,
    policyObjects: [
      {
        insuredObjectId: car.objects.default,
        data: {
          policyStartDate: start,
          policyDurationUnit: 'year',
          policyDurationValue: 1,
          ...billingData,
        },
      },
      {
        insuredObjectId: car.objects.vehicle,
        data: { vehicleValue: 20000, vehicleType: 'car', isCommercial: false },
      },
      { insuredObjectId: car.objects.driver, data: { birthDate: '1990-06-15', sfClass: 10 } },
    ],
  });

interface Invoice {
  type: string;
  dueDate: string;
  billingIntervalFrom: string;
  billingIntervalTo: string;
  netAmount: number;
}
const invoicesOf = async (policyCode: string): Promise<Invoice[]> => {
  const res = await billing.call(
    finance,
    `/invoices?filter=${encodeURIComponent(`policyCode=${policyCode}`)}&order=dueDate:ASC&pageSize=50`,
  );
  expect(res.status).toBe(200);
  return res.body.items;
};

/** The month of an ISO day as a count of months, to compare periods. */
const monthIndex = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;

describe('the billing fields of the default object', () => {
  it('are optional fields of every new version, the frequency a choice, the day 1 to 28', async () => {
    const product = await world.post(manager, '/products', {
      name: 'Billing fields',
      category: 'device',
    });
    expect(product.status).toBe(201);
    const created = await world.post(manager, '/product-versions', {
      productId: product.body.product.id,
    });
    expect(created.status).toBe(201);
    const objects = await world.call(
      manager,
      `/insured-objects?filter=${encodeURIComponent(`productVersionId=${created.body.productVersion.id}`)}&expand=productFields`,
    );
    expect(objects.status, JSON.stringify(objects.body)).toBe(200);
    const fields = objects.body.items.find((o: { name: string }) => o.name === 'default')
      .productFields as Record<string, unknown>[];
    expect(fields.map((f) => f.name)).toEqual([
      'policyStartDate',
      'policyDurationUnit',
      'policyDurationValue',
      'billingFrequencyUnit',
      'recurringBillingDay',
    ]);
    expect(fields[3]).toMatchObject({
      type: 'string',
      kind: 'billingFrequency',
      isRequired: false,
    });
    expect(fields[4]).toMatchObject({ type: 'number', isRequired: false, minimum: 1, maximum: 28 });
  });

  it('bills a monthly policy every month, due on its billing day', async () => {
    const start = isoDay(Date.now() - 100 * DAY_MS);
    const res = await sell(start, { billingFrequencyUnit: 'monthly', recurringBillingDay: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const code = res.body.policy.code as string;
    await runBilling(world.db() as Db, Date.now());
    const invoices = await invoicesOf(code);
    // Four months have begun in 100 days: the first and three recurring ones.
    expect(invoices.map((i) => i.type)).toEqual(['initial', 'recurring', 'recurring', 'recurring']);
    expect(invoices[0]!.billingIntervalFrom).toBe(start);
    invoices.forEach((invoice, n) => {
      expect(monthIndex(invoice.billingIntervalFrom)).toBe(monthIndex(start) + n);
      expect(invoice.dueDate.slice(8)).toBe('05');
      expect(invoice.dueDate >= invoice.billingIntervalFrom).toBe(true);
    });
    // A month's premium, not a year's: the yearly premium of 192 € pro rata.
    for (const invoice of invoices) {
      expect(invoice.netAmount).toBeGreaterThan(1400);
      expect(invoice.netAmount).toBeLessThan(1800);
    }
  });

  it('bills a policy without the fields once a year, as before', async () => {
    const start = isoDay(Date.now() - 100 * DAY_MS);
    const res = await sell(start, {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await runBilling(world.db() as Db, Date.now());
    const invoices = await invoicesOf(res.body.policy.code);
    expect(invoices.map((i) => i.type)).toEqual(['initial']);
    expect(invoices[0]!.netAmount).toBe(19200);
  });

  it('refuses a frequency that is no option and a day outside 1 to 28 with a 400 at the field', async () => {
    const start = isoDay(Date.now());
    const weekly = await sell(start, { billingFrequencyUnit: 'weekly' });
    expect(weekly.status).toBe(400);
    expect(weekly.body.issues).toEqual([
      { path: 'default.billingFrequencyUnit', code: 'invalid_option' },
    ]);
    const late = await sell(start, { recurringBillingDay: 31 });
    expect(late.status).toBe(400);
    expect(late.body.issues).toEqual([
      { path: 'default.recurringBillingDay', code: 'above_maximum', limit: 28 },
    ]);
    const zero = await sell(start, { billingFrequencyUnit: 'monthly', recurringBillingDay: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.issues).toEqual([
      { path: 'default.recurringBillingDay', code: 'below_minimum', limit: 1 },
    ]);
  });
});

describe('the seeded demo policies', () => {
  it('are billed monthly, quarterly and yearly, some on a day of their own', async () => {
    const rows = await world.db().query<{ unit: string | null; with_day: number; n: number }>(
      `SELECT o.data->>'billingFrequencyUnit' AS unit,
              count(*) FILTER (WHERE o.data->>'recurringBillingDay' IS NOT NULL)::int AS with_day,
              count(*)::int AS n
         FROM policy_objects o JOIN tenants t ON t.id = o.tenant_id
        WHERE t.slug = 'demo' AND o.insured_object_name = 'default'
        GROUP BY 1 ORDER BY 1`,
    );
    const byUnit = Object.fromEntries(rows.map((r) => [r.unit, r]));
    for (const unit of ['monthly', 'quarterly', 'yearly'])
      expect(byUnit[unit]?.n).toBeGreaterThan(0);
    expect(byUnit.monthly!.with_day).toBeGreaterThan(0);
    expect(byUnit.yearly!.with_day).toBe(0);
    // Their recurring invoices span one month and three months.
    const spans = await world.db().query<{ months: number; n: number }>(
      `SELECT ((extract(year FROM age(i.billing_interval_to, i.billing_interval_from)) * 12
               + extract(month FROM age(i.billing_interval_to, i.billing_interval_from))))::int
                AS months, count(*)::int AS n
         FROM invoices i JOIN tenants t ON t.id = i.tenant_id
        WHERE t.slug = 'demo' AND i.type = 'recurring'
        GROUP BY 1`,
    );
    const months = new Set(spans.map((s) => s.months));
    expect(months.has(1) || months.has(0)).toBe(true);
    expect(months.has(3) || months.has(2)).toBe(true);
    // A withdrawn policy's paid invoices come back as a withdraw invoice.
    const [withdraw] = await world.db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoices i JOIN tenants t ON t.id = i.tenant_id
        WHERE t.slug = 'demo' AND i.type = 'withdraw' AND i.gross_amount < 0`,
    );
    expect(withdraw!.n).toBeGreaterThan(0);
  });
});
