import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import type { InvoiceItem } from '#client/api/billing-client.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import { api, type Session } from '#server/sandbox/testing.ts';
import { runBilling } from '#server/sandbox/services/billing/billing-run.ts';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

// The public API's product invoice and the tax rate of a product (issue 18; docs/contracts.md
// "Public API: product invoice" and "Tax rate of a product").
const I = '/insuranceservice/v1';
const B = '/billingservice/v1';
const MESSAGE = 'There has been an error on product invoice';
const clock = new MovableClock();
const kit = withSandbox(
  {
    manager: 'manager@demo.test',
    admin: 'admin@demo.test',
    viewer: 'viewer@demo.test',
    care: 'care@demo.test',
    nord: 'admin@nordlicht.test',
  },
  { clock },
);
const { manager, admin, viewer, care, nord } = kit.sessions;
const insurance = serviceCalls(kit, I);
const billing = serviceCalls(kit, B);

const today = () => new Date(clock.now()).toISOString().slice(0, 10);

let counter = 0;
/**
 * An active product of the test's own: on its default object a required number "sum" (1 to
 * 100 000) and an optional "divisor" (default 1); formulas "Grundbeitrag" (sum * 0.0123, yearly)
 * and "Zuschlag" (120 / coalesce(divisor, 1), yearly), which cannot be computed for a divisor of 0.
 */
async function activeProduct(session: Session = manager) {
  counter += 1;
  const product = await insurance.send(session, 'POST', '/products', {
    name: `Quote product ${counter}`,
    category: 'device',
  });
  expect(product.status).toBe(201);
  const version = await insurance.send(session, 'POST', '/product-versions', {
    productId: product.body.product.id,
    description: 'first',
  });
  expect(version.status).toBe(201);
  const versionId: number = version.body.productVersion.id;
  const objects = await insurance.call(
    session,
    `/insured-objects?filter=productVersionId=${versionId}&expand=productFields`,
  );
  const insuredObjectId: number = objects.body.items[0].id;
  for (const field of [
    { name: 'sum', label: 'Sum', type: 'number', isRequired: true, minimum: 1, maximum: 100_000 },
    { name: 'divisor', label: 'Divisor', type: 'number', defaultValue: 1 },
  ]) {
    const saved = await insurance.send(session, 'POST', '/product-fields', {
      insuredObjectId,
      ...field,
    });
    expect(saved.status).toBe(201);
  }
  for (const [name, expression] of [
    ['Grundbeitrag', 'sum * 0.0123'],
    ['Zuschlag', '120 / coalesce(divisor, 1)'],
  ]) {
    const saved = await insurance.send(session, 'POST', '/premium-formulas', {
      productVersionId: versionId,
      group: 'Gerät',
      name,
      unit: 'year',
      expression,
      variableName: null,
    });
    expect(saved.status).toBe(201);
  }
  const activated = await insurance.send(session, 'PUT', `/product-versions/${versionId}`, {
    status: 'active',
  });
  expect(activated.status).toBe(200);
  return {
    productId: product.body.product.id as number,
    slug: product.body.product.slug as string,
    versionId,
    versionCode: activated.body.productVersion.code as string,
    insuredObjectId,
  };
}

const values = (data: Record<string, unknown>) => ({
  policyObjects: [
    {
      insuredObjectName: 'default',
      data: {
        policyStartDate: today(),
        policyDurationUnit: 'year',
        policyDurationValue: 1,
        ...data,
      },
    },
  ],
});

const quote = (bearer: string | null, slug: string, body: unknown) =>
  api(kit.base, `/publicapi/v1/products/${encodeURIComponent(slug)}/product-invoice`, {
    method: 'POST',
    body,
    ...(bearer === null ? {} : { token: bearer }),
  });

/** A quote's line: an invoice's item (the client reads the same shape). */
type Line = InvoiceItem;

function expectWholeCents(invoice: {
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
  invoiceItems: Line[];
}) {
  const amounts = [invoice.netAmount, invoice.taxAmount, invoice.grossAmount];
  for (const line of invoice.invoiceItems) {
    amounts.push(line.netAmount, line.taxAmount, line.grossAmount, line.pricePerUnit);
    expect(line.netAmount + line.taxAmount).toBe(line.grossAmount);
  }
  for (const amount of amounts) expect(Number.isSafeInteger(amount)).toBe(true);
  const sum = (key: 'netAmount' | 'taxAmount' | 'grossAmount') =>
    invoice.invoiceItems.reduce((total, line) => total + line[key], 0);
  expect(sum('netAmount')).toBe(invoice.netAmount);
  expect(sum('taxAmount')).toBe(invoice.taxAmount);
  expect(invoice.netAmount + invoice.taxAmount).toBe(invoice.grossAmount);
}

describe('POST /publicapi/v1/products/{slug}/product-invoice', () => {
  it('quotes the premium items as invoice lines at the default 19 %, in whole cents, storing nothing', async () => {
    const p = await activeProduct();
    const invoices = async () =>
      (await kit.db().query<{ n: number }>('SELECT count(*)::int AS n FROM invoices'))[0]!.n;
    const before = await invoices();
    const res = await quote('demo', p.slug, values({ sum: 12_345, divisor: 7 }));
    expect(res.status).toBe(200);
    const invoice = res.body.invoice;
    expect(invoice).toMatchObject({
      type: 'estimated',
      productSlug: p.slug,
      productVersionId: p.versionId,
      currency: 'EUR',
      taxRate: 19,
      billingIntervalFrom: today(),
    });
    // 12 345 * 0.0123 = 151.8435 -> 151.84; 120 / 7 = 17.142857 -> 17.14.
    expect(invoice.invoiceItems).toEqual([
      expect.objectContaining({
        name: 'Grundbeitrag',
        quantity: 1,
        pricePerUnit: 15_184,
        netAmount: 15_184,
        taxAmount: 2885, // 2884.96
        grossAmount: 18_069,
        taxRate: 19,
        unit: 'year',
      }),
      expect.objectContaining({
        name: 'Zuschlag',
        netAmount: 1714,
        taxAmount: 326, // 325.66
        grossAmount: 2040,
      }),
    ]);
    expect(invoice).toMatchObject({ netAmount: 16_898, taxAmount: 3211, grossAmount: 20_109 });
    expectWholeCents(invoice);
    expect(invoice).not.toHaveProperty('id');
    expect(await invoices()).toBe(before);
  });

  it('takes insured objects by id as well, and a version of the product by id', async () => {
    const p = await activeProduct();
    const res = await quote('demo', p.slug, {
      productVersionId: p.versionId,
      policyObjects: [
        { insuredObjectId: p.insuredObjectId, data: values({ sum: 100 }).policyObjects[0]!.data },
      ],
    });
    expect(res.status).toBe(200);
    expectWholeCents(res.body.invoice);
  });

  it("applies the product's own tax rate", async () => {
    const p = await activeProduct();
    const set = await billing.send(manager, 'PUT', `/products/${p.productId}/tax-rate`, {
      taxRateBp: 1650,
    });
    expect(set.status).toBe(200);
    const res = await quote('demo', p.slug, values({ sum: 10_000 }));
    expect(res.status).toBe(200);
    // 123.00 and 120.00 net at 16.5 %: 20.30 (20.295, half up) and 19.80.
    expect(res.body.invoice.taxRate).toBe(16.5);
    expect(res.body.invoice.invoiceItems.map((l: Line) => [l.taxRate, l.taxAmount])).toEqual([
      [16.5, 2030],
      [16.5, 1980],
    ]);
    expectWholeCents(res.body.invoice);
    const zero = await billing.send(manager, 'PUT', `/products/${p.productId}/tax-rate`, {
      taxRateBp: 0,
    });
    expect(zero.status).toBe(200);
    const untaxed = await quote('demo', p.slug, values({ sum: 10_000 }));
    expect(untaxed.body.invoice).toMatchObject({ taxAmount: 0, netAmount: 24_300 });
  });

  it('refuses a bearer that is no workspace slug: 401 with the message', async () => {
    const p = await activeProduct();
    for (const bearer of [null, 'no-such-workspace', manager.accessToken]) {
      const res = await quote(bearer, p.slug, values({ sum: 100 }));
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'unauthorized', message: MESSAGE });
      expect(typeof res.body.detail).toBe('string');
    }
  });

  it('answers 404 for an unknown product and for a product of another workspace', async () => {
    const p = await activeProduct();
    const unknown = await quote('demo', 'no-such-product', values({ sum: 100 }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'product_not_found', message: MESSAGE });
    expect(unknown.body.detail).toContain('no-such-product');
    // Nordlicht's slug does not open the demo workspace's product.
    const other = await quote('nordlicht', p.slug, values({ sum: 100 }));
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(MESSAGE);
    const version = await quote('demo', p.slug, { ...values({ sum: 100 }), productVersionId: 1 });
    expect(version.status).toBe(404);
    expect(version.body).toMatchObject({ error: 'product_version_not_found', message: MESSAGE });
  });

  it('refuses bad field values with the message and what failed', async () => {
    const p = await activeProduct();
    const cases: [unknown, number, string, string][] = [
      [{ policyObjects: 'nope' }, 400, 'invalid_body', 'policyObjects'],
      [{ policyObjects: [{ data: 5 }] }, 400, 'invalid_body', 'policyObjects.0.data'],
      [values({ sum: 0 }), 422, 'invalid_values', 'default.sum'],
      [values({ sum: 'viel' }), 422, 'invalid_values', 'default.sum'],
      [values({}), 422, 'invalid_values', 'default.sum'],
      [values({ sum: 100, colour: 'red' }), 422, 'invalid_values', 'default'],
      [
        { policyObjects: [{ insuredObjectName: 'vehicle', data: {} }] },
        422,
        'invalid_values',
        'policyObjects.0.insuredObjectName',
      ],
    ];
    for (const [body, status, error, path] of cases) {
      const res = await quote('demo', p.slug, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toMatchObject({ error, message: MESSAGE });
      expect(res.body.detail).toEqual(expect.any(String));
      const paths: string[] = res.body.issues.map((i: { path: string }) => i.path);
      expect(
        paths.some((at) => at.startsWith(path)),
        paths.join(),
      ).toBe(true);
    }
  });

  it('answers 422 when the premium cannot be computed, never a 500', async () => {
    const p = await activeProduct();
    const res = await quote('demo', p.slug, values({ sum: 100, divisor: 0 }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'premium_not_computable', message: MESSAGE });
    expect(res.body.detail).toContain('Zuschlag');
    expect(res.body.issues[0]).toMatchObject({ code: 'division_by_zero', formula: 'Zuschlag' });
  });

  it('answers 422 for a product without an active version', async () => {
    const created = await insurance.send(manager, 'POST', '/products', {
      name: 'Quote product without version',
      category: 'device',
    });
    const res = await quote('demo', created.body.product.slug, values({ sum: 100 }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'no_active_version', message: MESSAGE });
  });
});

describe('the tax rate of a product', () => {
  it('reads 19 % for a product without a rate of its own', async () => {
    const p = await activeProduct();
    const res = await billing.call(viewer, `/products/${p.productId}/tax-rate`);
    expect(res.status).toBe(200);
    expect(res.body.taxRate).toMatchObject({
      productId: p.productId,
      taxRateBp: 1900,
      isDefault: true,
    });
  });

  it('is set in basis points by who may edit products, and recorded with their name', async () => {
    const p = await activeProduct();
    const res = await billing.send(manager, 'PUT', `/products/${p.productId}/tax-rate`, {
      taxRateBp: 1600,
    });
    expect(res.status).toBe(200);
    expect(res.body.taxRate).toMatchObject({
      taxRateBp: 1600,
      isDefault: false,
      updatedByName: 'Max Manager',
    });
    expect((await billing.call(viewer, `/products/${p.productId}/tax-rate`)).body.taxRate).toEqual(
      res.body.taxRate,
    );
    // The same rate again changes nothing and records nothing.
    await billing.send(admin, 'PUT', `/products/${p.productId}/tax-rate`, { taxRateBp: 1600 });
    const history = await insurance.call(manager, `/product-versions/${p.versionId}/history`);
    const events = history.body.items.filter(
      (e: { action: string }) => e.action === 'tax_rate_changed',
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorName: 'Max Manager',
      changes: [{ field: 'taxRate', before: 19, after: 16 }],
    });
  });

  it('accepts only whole basis points from 0 to 10 000', async () => {
    const p = await activeProduct();
    for (const taxRateBp of [-1, 10_001, 19.5, '1900', null]) {
      const res = await billing.send(manager, 'PUT', `/products/${p.productId}/tax-rate`, {
        taxRateBp,
      });
      expect(res.status, String(taxRateBp)).toBe(400);
      expect(res.body.error).toBe('validation_error');
      expect(res.body.issues[0].path).toBe('taxRateBp');
    }
    for (const taxRateBp of [0, 10_000, 1950]) {
      const res = await billing.send(manager, 'PUT', `/products/${p.productId}/tax-rate`, {
        taxRateBp,
      });
      expect(res.status).toBe(200);
      expect(res.body.taxRate.taxRateBp).toBe(taxRateBp);
    }
  });

  it('refuses readers and customer care (403) and other workspaces (404)', async () => {
    const p = await activeProduct();
    for (const session of [viewer, care]) {
      const res = await billing.send(session, 'PUT', `/products/${p.productId}/tax-rate`, {
        taxRateBp: 700,
      });
      expect(res.status).toBe(403);
    }
    const read = await billing.call(nord, `/products/${p.productId}/tax-rate`);
    expect(read.status).toBe(404);
    const write = await billing.send(nord, 'PUT', `/products/${p.productId}/tax-rate`, {
      taxRateBp: 700,
    });
    expect(write.status).toBe(404);
    const [stored] = await kit
      .db()
      .query('SELECT 1 FROM product_tax_rates WHERE product_id = $1', [p.productId]);
    expect(stored).toBeUndefined();
    expect((await billing.call(manager, '/products/999999/tax-rate')).status).toBe(404);
  });

  it("bills a new policy's invoices at the product's rate", async () => {
    const p = await activeProduct();
    await billing.send(manager, 'PUT', `/products/${p.productId}/tax-rate`, { taxRateBp: 1100 });
    const policy = await insurance.send(admin, 'POST', '/policies', {
      productVersionId: p.versionId,
      holder: { lastName: 'Steuer' },
      policyObjects: [
        { insuredObjectId: p.insuredObjectId, data: values({ sum: 1000 }).policyObjects[0]!.data },
      ],
    });
    expect(policy.status).toBe(201);
    const policyCode: string = policy.body.policy.code;
    expect((await runBilling(kit.db() as Db, clock.now())).invoices).toBeGreaterThan(0);
    const invoices = await billing.call(
      admin,
      `/invoices?filter=${encodeURIComponent(`policyCode=${policyCode}`)}`,
    );
    expect(invoices.status).toBe(200);
    expect(invoices.body.items.length).toBeGreaterThan(0);
    for (const invoice of invoices.body.items) {
      for (const line of invoice.invoiceItems) expect(line.taxRate).toBe(11);
    }
  });
});

describe('the product invoice through the BFF', () => {
  let stack: Stack;
  let agent: Agent;
  beforeAll(async () => {
    stack = await startStack();
    agent = new Agent(stack.url);
    expect((await agent.login('manager@demo.test')).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("reaches the sandbox with the account's tenant slug as bearer", async () => {
    const invoice = (slug: string, json: unknown) =>
      agent.json(`/api/0/publicapi/v1/products/${slug}/product-invoice`, { json });
    // Past the bearer check (a user's token would be a 401): the demo workspace's products.
    const unknown = await invoice('no-such-product', { policyObjects: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'product_not_found', message: MESSAGE });
    const seeded = await invoice('car-comfort', { policyObjects: [] });
    expect(seeded.status).toBe(422);
    expect(seeded.body).toMatchObject({ error: 'invalid_values', message: MESSAGE });
  });
});
