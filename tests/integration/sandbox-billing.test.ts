import { describe, expect, it } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import type { Db } from '#server/sandbox/platform/db.ts';
import { api } from '#server/sandbox/testing.ts';
import { runBilling } from '#server/sandbox/services/billing/billing-run.ts';
import { growInvoices } from '#server/sandbox/services/billing/seed-invoices.ts';
import { runPolicyRenewals } from '#server/sandbox/services/insurance/policy-renewal.ts';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

// Billing and payments in the sandbox (issue 18; docs/contracts.md "Billing and payments").
const B = '/billingservice/v1';
const P = '/paymentservice/v1';
const DAY_MS = 86_400_000;
const clock = new MovableClock();
const kit = withSandbox(
  {
    finance: 'finance@demo.test',
    care: 'care@demo.test',
    viewer: 'viewer@demo.test',
    noui: 'noui@demo.test',
    nord: 'admin@nordlicht.test',
  },
  { clock },
);
const { finance, care, viewer, noui, nord } = kit.sessions;
const billing = serviceCalls(kit, B);
const payments = serviceCalls(kit, P);

/** An overdue invoice of the demo workspace with nothing paid yet, fresh per call. */
let taken = 0;
async function openInvoice(): Promise<{ code: string; grossAmount: number; policyCode: string }> {
  const res = await billing.call(
    finance,
    `/invoices?filter=${encodeURIComponent('status=open&overdue=true')}&order=dueDate:ASC&pageSize=50`,
  );
  expect(res.status).toBe(200);
  const invoice = res.body.items[taken++];
  expect(invoice).toBeDefined();
  return invoice;
}

const pay = (session: typeof finance, key: string | null, body: unknown) =>
  payments.call(session, '/payments', {
    body,
    headers: key === null ? {} : { 'Idempotency-Key': key },
  });

describe('the seeded invoices', () => {
  it('bills the demo policies over the past: overdue, partly paid and refunded ones among them', async () => {
    const [c] = await kit.db().query<Record<string, number>>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE i.status = 'partially-paid')::int AS partial,
              count(*) FILTER (WHERE i.status = 'open' AND i.due_date < now())::int AS overdue,
              count(*) FILTER (WHERE i.type = 'final' AND i.gross_amount < 0)::int AS refunds,
              count(*) FILTER (WHERE i.created_at < now() - interval '365 days')::int AS old
         FROM invoices i JOIN tenants t ON t.id = i.tenant_id WHERE t.slug = 'demo'`,
    );
    expect(c!.total).toBeGreaterThan(1000);
    expect(c!.partial).toBeGreaterThan(10);
    expect(c!.overdue).toBeGreaterThan(10);
    expect(c!.refunds).toBeGreaterThan(10);
    expect(c!.old).toBeGreaterThan(100);
  });

  it('keeps net + tax = gross and the items summing to the totals on every invoice', async () => {
    const [bad] = await kit.db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoices i
         LEFT JOIN LATERAL (SELECT coalesce(sum(net_amount), 0) AS net,
                                   coalesce(sum(tax_amount), 0) AS tax
                              FROM invoice_items it WHERE it.invoice_id = i.id) s ON true
        WHERE i.net_amount + i.tax_amount <> i.gross_amount OR s.net <> i.net_amount
           OR s.tax <> i.tax_amount`,
    );
    expect(bad!.n).toBe(0);
    // A refund never pays back more than was paid on its policy.
    const [over] = await kit.db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoices f
        WHERE f.type IN ('final', 'withdraw')
          AND -f.gross_amount > (SELECT coalesce(sum(paid_amount), 0) FROM invoices i
                                  WHERE i.tenant_id = f.tenant_id AND i.policy_code = f.policy_code)`,
    );
    expect(over!.n).toBe(0);
  });
});

describe('GET /invoices', () => {
  it('lists with the currency expanded by default, pages, filters and finds one', async () => {
    const res = await billing.call(finance, '/invoices?pageSize=3');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(3);
    // A keyset token (list-keyset.ts): the page, the last id, the direction, the first page's
    // count and the last due date.
    expect(res.body.nextPageToken).toMatch(/^2\.\d+\.d\.t\d+\.dueDate\.[A-Za-z0-9_-]+$/);
    expect(res.body.totalItems).toBeGreaterThan(1000);
    const first = res.body.items[0];
    expect(first).toMatchObject({
      code: expect.stringMatching(/^inv_/),
      invoiceNumber: expect.stringMatching(/^INV-\d{4}-\d{6}$/),
      currency: { code: 'EUR', symbol: '€', minorUnits: 2 },
      dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(first.invoiceItems.length).toBeGreaterThan(0);
    expect(first.statuses.length).toBeGreaterThan(0);
    const plain = await billing.call(finance, '/invoices?pageSize=1&expand=');
    expect(plain.body.items[0].currency).toBe('EUR');

    const ofPolicy = await billing.call(
      finance,
      `/invoices?filter=policyCode=${first.policyCode}&order=dueDate:ASC`,
    );
    expect(ofPolicy.body.items.length).toBeGreaterThan(0);
    expect(
      ofPolicy.body.items.every((i: { policyCode: string }) => i.policyCode === first.policyCode),
    ).toBe(true);
    const found = await billing.call(finance, `/invoices?search=${first.invoiceNumber}`);
    expect(found.body.items.map((i: { code: string }) => i.code)).toEqual([first.code]);

    const one = await billing.call(viewer, `/invoices/${first.code}`);
    expect(one.status).toBe(200);
    expect(one.body.invoice).toEqual(first);
    expect((await billing.call(viewer, `/invoices/${first.id}`)).body.invoice.code).toBe(
      first.code,
    );
  });

  it('names the policy by its number beside its code, finds invoices by it, and keeps workspaces apart', async () => {
    const res = await billing.call(finance, '/invoices?pageSize=30');
    const first = res.body.items.find((i: { policyCode: string | null }) => i.policyCode);
    expect(first).toBeDefined();
    // The number is the policy's own, read from the insurance service's policies (issue 18).
    const [policy] = await kit.db().query<{ policy_number: string }>(
      `SELECT p.policy_number FROM policies p JOIN tenants t ON t.id = p.tenant_id
        WHERE t.slug = 'demo' AND p.code = $1`,
      [first.policyCode],
    );
    expect(first.policyNumber).toMatch(/^POL-\d{6}$/);
    expect(first.policyNumber).toBe(policy!.policy_number);
    const one = await billing.call(viewer, `/invoices/${first.code}`);
    expect(one.body.invoice).toMatchObject({
      policyCode: first.policyCode,
      policyNumber: first.policyNumber,
    });

    // The list's search finds a policy's invoices by its number, all of them that policy's.
    const found = await billing.call(
      finance,
      `/invoices?pageSize=100&search=${encodeURIComponent(first.policyNumber)}`,
    );
    expect(found.status).toBe(200);
    expect(found.body.items.map((i: { code: string }) => i.code)).toContain(first.code);
    expect(
      found.body.items.every(
        (i: { policyNumber: string }) => i.policyNumber === first.policyNumber,
      ),
    ).toBe(true);
    const ofPolicy = await billing.call(
      finance,
      `/invoices?pageSize=100&filter=policyCode=${first.policyCode}`,
    );
    expect(found.body.totalItems).toBe(ofPolicy.body.totalItems);
    // Another workspace's policy numbers are its own: the demo policy's number finds none of
    // the demo invoices there.
    const nordFound = await billing.call(
      nord,
      `/invoices?pageSize=100&search=${encodeURIComponent(first.policyNumber)}`,
    );
    expect(
      nordFound.body.items.some((i: { policyCode: string }) => i.policyCode === first.policyCode),
    ).toBe(false);

    // A manual invoice without a policy carries neither.
    const loose = await billing.call(finance, '/invoices', {
      body: {
        dueDate: '2026-12-31',
        invoiceItems: [{ name: 'Mahngebühr', quantity: 1, pricePerUnit: 500, taxRate: 0 }],
      },
      headers: { 'Idempotency-Key': 'policy-number-loose' },
    });
    expect(loose.status).toBe(201);
    expect(loose.body.invoice).toMatchObject({ policyCode: null, policyNumber: null });
  });

  it('pages by keyset in every order: the next page follows the last row, the count carried', async () => {
    for (const order of [
      '',
      '&order=grossAmount:ASC',
      '&order=invoiceNumber:DESC',
      '&order=createdAt:ASC',
    ]) {
      const whole = await billing.call(finance, `/invoices?pageSize=8${order}`);
      const first = await billing.call(finance, `/invoices?pageSize=4${order}`);
      const second = await billing.call(
        finance,
        `/invoices?pageSize=4${order}&pageToken=${first.body.nextPageToken}`,
      );
      expect(second.status).toBe(200);
      expect(second.body.totalItems).toBe(first.body.totalItems);
      const codes = (page: { body: { items: { code: string }[] } }) =>
        page.body.items.map((i) => i.code);
      expect([...codes(first), ...codes(second)]).toEqual(codes(whole));
      expect(second.body.nextPageToken).toMatch(/^3\./);
    }
    // A page number (the upstream contract's 1, 2, ...) is still a page, by OFFSET.
    const numbered = await billing.call(finance, '/invoices?pageSize=4&pageToken=2');
    const keyset = await billing.call(
      finance,
      `/invoices?pageSize=4&pageToken=${(await billing.call(finance, '/invoices?pageSize=4')).body.nextPageToken}`,
    );
    expect(numbered.body.items.map((i: { code: string }) => i.code)).toEqual(
      keyset.body.items.map((i: { code: string }) => i.code),
    );
    // A token of another order is refused, not read as a wrong page.
    const other = await billing.call(
      finance,
      `/invoices?pageSize=4&order=grossAmount:DESC&pageToken=${keyset.body.nextPageToken}`,
    );
    expect(other.status).toBe(400);
  });

  it('refuses unknown filters and orders, and bad dates', async () => {
    expect((await billing.call(finance, '/invoices?filter=colour=red')).status).toBe(400);
    expect((await billing.call(finance, '/invoices?order=colour')).status).toBe(400);
    expect((await billing.call(finance, '/invoices?filter=dueDateFrom=yesterday')).status).toBe(
      400,
    );
    expect((await billing.call(finance, '/invoices?filter=overdue=maybe')).status).toBe(400);
  });

  it('keeps workspaces apart and needs the right to read invoices', async () => {
    const { code } = await openInvoice();
    const other = await billing.call(nord, `/invoices/${code}`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Invoice does not exist');
    const nordList = await billing.call(nord, `/invoices?search=${code}`);
    expect(nordList.body.items).toEqual([]);
    expect((await billing.call(noui, '/invoices')).status).toBe(403);
  });
});

describe('POST /invoices', () => {
  const manual = {
    dueDate: '2026-12-31',
    invoiceItems: [
      { name: 'Mahngebühr', quantity: 1, pricePerUnit: 500, taxRate: 0 },
      { name: 'Zusatzleistung', quantity: 3, pricePerUnit: 1999, taxRate: 19 },
    ],
  };

  it('computes the lines in cents and stamps who made it by name', async () => {
    const res = await billing.call(finance, '/invoices', { body: manual });
    expect(res.status).toBe(201);
    const inv = res.body.invoice;
    // 3 x 19.99 = 59.97 net, 11.39 tax (11.3943 rounded); 5.00 untaxed.
    expect(inv.invoiceItems.map((i: { grossAmount: number }) => i.grossAmount)).toEqual([
      500, 7136,
    ]);
    expect(inv).toMatchObject({
      type: 'other',
      status: 'open',
      netAmount: 6497,
      taxAmount: 1139,
      grossAmount: 7636,
      openAmount: 7636,
      createdByName: 'Fiona Finanz',
    });
    expect(inv.statuses).toEqual([
      expect.objectContaining({ status: 'open', byName: 'Fiona Finanz' }),
    ]);
  });

  it('answers the first invoice again for a repeated Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': 'manual-invoice-1' };
    const first = await billing.call(finance, '/invoices', { body: manual, headers });
    const again = await billing.call(finance, '/invoices', { body: manual, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.invoice.code).toBe(first.body.invoice.code);
  });

  it('refuses floats, negative quantities, unknown currencies, and readers', async () => {
    const line = manual.invoiceItems[0]!;
    const withLine = (l: object) => ({ ...manual, invoiceItems: [{ ...line, ...l }] });
    const float = await billing.call(finance, '/invoices', {
      body: withLine({ pricePerUnit: 5.5 }),
    });
    expect(float.status).toBe(400);
    expect(float.body.error).toBe('validation_error');
    expect(
      (await billing.call(finance, '/invoices', { body: withLine({ quantity: -1 }) })).status,
    ).toBe(400);
    const currency = await billing.call(finance, '/invoices', {
      body: { ...manual, currency: 'XYZ' },
    });
    expect(currency.status).toBe(400);
    expect(currency.body.issues).toEqual([{ path: 'currency', code: 'unknown_currency' }]);
    const chf = await billing.call(finance, '/invoices', { body: { ...manual, currency: 'CHF' } });
    expect(chf.status).toBe(201);
    expect(chf.body.invoice.currency.code).toBe('CHF');
    expect((await billing.call(viewer, '/invoices', { body: manual })).status).toBe(403);
  });
});

describe('POST /payments', () => {
  it('books two identical requests sent at once only once', async () => {
    const invoice = await openInvoice();
    const body = { amount: invoice.grossAmount, method: 'sepa', invoiceCodes: [invoice.code] };
    const [a, b] = await Promise.all([
      pay(finance, 'twice-at-once', body),
      pay(finance, 'twice-at-once', body),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.payment.code).toBe(b.body.payment.code);
    const replay = a.status === 200 ? a : b;
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    const [n] = await kit.db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payment_allocations a JOIN invoices i ON i.id = a.invoice_id
        WHERE i.code = $1`,
      [invoice.code],
    );
    expect(n!.n).toBe(1);
    const after = await billing.call(finance, `/invoices/${invoice.code}`);
    expect(after.body.invoice).toMatchObject({
      status: 'paid',
      paidAmount: invoice.grossAmount,
      openAmount: 0,
      isOverdue: false,
    });
    expect(after.body.invoice.statuses.at(-1)).toMatchObject({
      status: 'paid',
      byName: 'Fiona Finanz',
    });
  });

  it('refuses the key again with another body, and a request without a key', async () => {
    const invoice = await openInvoice();
    const body = { amount: 100, method: 'card', invoiceCodes: [invoice.code] };
    expect((await pay(finance, 'reused-key', body)).status).toBe(201);
    const reused = await pay(finance, 'reused-key', { ...body, amount: 200 });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('idempotency_key_reused');
    const missing = await pay(finance, null, body);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('idempotency_key_missing');
  });

  it('moves an invoice from open to partially paid to paid, care booking too', async () => {
    const invoice = await openInvoice();
    const half = Math.floor(invoice.grossAmount / 2);
    const first = await pay(care, 'care-half', {
      amount: half,
      method: 'bank-transfer',
      invoiceCodes: [invoice.code],
    });
    expect(first.status).toBe(201);
    expect(first.body.payment).toMatchObject({
      amount: half,
      currency: 'EUR',
      status: 'booked',
      creditAmount: 0,
      allocations: [{ invoiceCode: invoice.code, amount: half }],
      createdByName: 'Clara Care',
    });
    let read = (await billing.call(finance, `/invoices/${invoice.code}`)).body.invoice;
    expect(read).toMatchObject({ status: 'partially-paid', paidAmount: half, isOverdue: true });
    await pay(care, 'care-rest', {
      amount: invoice.grossAmount - half,
      method: 'bank-transfer',
      invoiceCodes: [invoice.code],
    });
    read = (await billing.call(finance, `/invoices/${invoice.code}`)).body.invoice;
    expect(read.status).toBe('paid');
    expect(read.statuses.map((s: { status: string }) => s.status).slice(-2)).toEqual([
      'partially-paid',
      'paid',
    ]);
    const listed = await payments.call(finance, `/payments?filter=invoiceCode=${invoice.code}`);
    expect(listed.body.items).toHaveLength(2);
  });

  it('refuses more than is due unless booked as credit', async () => {
    const invoice = await openInvoice();
    const body = {
      amount: invoice.grossAmount + 1000,
      method: 'sepa',
      invoiceCodes: [invoice.code],
    };
    const over = await pay(finance, 'too-much', body);
    expect(over.status).toBe(409);
    expect(over.body.error).toBe('payment_exceeds_due');
    // The refusal rolled its key back with it: the key books once the body allows credit.
    const credit = await pay(finance, 'too-much', { ...body, allowCredit: true });
    expect(credit.status).toBe(201);
    expect(credit.body.payment.creditAmount).toBe(1000);
  });

  it('allocates a policy payment to its open invoices, oldest due first', async () => {
    const invoice = await openInvoice();
    const res = await pay(finance, 'by-policy', {
      amount: 1,
      method: 'invoice',
      policyCode: invoice.policyCode,
    });
    expect(res.status).toBe(201);
    expect(res.body.payment.allocations).toHaveLength(1);
    expect(res.body.payment.policyCode).toBe(invoice.policyCode);
    const byPolicy = await payments.call(
      finance,
      `/payments?filter=policyCode=${invoice.policyCode}`,
    );
    expect(byPolicy.body.items.map((p: { code: string }) => p.code)).toContain(
      res.body.payment.code,
    );
  });

  it('answers clear 400s for bad amounts and currencies', async () => {
    const invoice = await openInvoice();
    const base = { amount: 100, method: 'sepa', invoiceCodes: [invoice.code] };
    for (const [key, body] of [
      ['neg', { ...base, amount: -100 }],
      ['zero', { ...base, amount: 0 }],
      ['float', { ...base, amount: 10.5 }],
      ['text', { ...base, amount: '100' }],
      ['method', { ...base, method: 'cash' }],
      ['nothing', { amount: 100, method: 'sepa' }],
    ] as const) {
      const res = await pay(finance, `bad-${key}`, body);
      expect(res.status, key).toBe(400);
      expect(res.body.error, key).toBe('validation_error');
    }
    const unknown = await pay(finance, 'bad-currency', { ...base, currency: 'XYZ' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ path: 'currency', code: 'unknown_currency' }]);
    const mismatch = await pay(finance, 'bad-mismatch', { ...base, currency: 'USD' });
    expect(mismatch.status).toBe(400);
  });

  it('lets a viewer read payments but not book, and keeps workspaces apart', async () => {
    const invoice = await openInvoice();
    const body = { amount: 100, method: 'sepa', invoiceCodes: [invoice.code] };
    expect((await pay(viewer, 'viewer-books', body)).status).toBe(403);
    expect((await payments.call(noui, '/payments')).status).toBe(403);
    const other = await pay(nord, 'nord-books', body);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Invoice does not exist');
    const list = await payments.call(finance, '/payments?pageSize=5');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(5);
    const nordList = await payments.call(nord, `/payments?filter=invoiceCode=${invoice.code}`);
    expect(nordList.body.items).toEqual([]);
  });
});

describe('GET /reports/finance', () => {
  it('sums written, invoiced, paid, open and overdue per month and product', async () => {
    const res = await billing.call(finance, '/reports/finance?from=2025-01&to=2025-12');
    expect(res.status).toBe(200);
    expect(res.body.rows.length).toBeGreaterThan(10);
    expect(res.body.currency).toBe('EUR');
    const row = res.body.rows[0];
    expect(row).toMatchObject({
      month: expect.stringMatching(/^2025-\d{2}$/),
      productSlug: expect.any(String),
      productName: expect.any(String),
    });
    for (const r of res.body.rows) {
      for (const k of ['written', 'invoiced', 'paid', 'open', 'overdue'])
        expect(Number.isInteger(r[k])).toBe(true);
      expect(r.overdue).toBeLessThanOrEqual(r.open);
    }
    expect((await billing.call(viewer, '/reports/finance?from=2025-01&to=2025-02')).status).toBe(
      200,
    );
  });

  it('refuses bad months and readers without the right', async () => {
    expect((await billing.call(finance, '/reports/finance?from=2025-13&to=2025-12')).status).toBe(
      400,
    );
    expect((await billing.call(finance, '/reports/finance?from=2025-06&to=2025-01')).status).toBe(
      400,
    );
    expect((await billing.call(finance, '/reports/finance')).status).toBe(400);
    expect((await billing.call(noui, '/reports/finance?from=2025-01&to=2025-02')).status).toBe(403);
  });
});

describe('the billing run', () => {
  it('creates what fell due on the moved clock once, and nothing on a second run', async () => {
    const count = async () =>
      (await kit.db().query<{ n: number }>('SELECT count(*)::int AS n FROM invoices'))[0]!.n;
    const before = await count();
    expect((await runBilling(kit.db() as Db, clock.now())).invoices).toBe(0);
    clock.advance(45 * DAY_MS);
    // As the day's jobs run: the terms that ended renew, then their next periods are billed.
    await runPolicyRenewals(kit.db() as Db, clock.now());
    const first = await runBilling(kit.db() as Db, clock.now());
    expect(first.invoices).toBeGreaterThan(0);
    expect(await count()).toBe(before + first.invoices);
    expect((await runBilling(kit.db() as Db, clock.now())).invoices).toBe(0);
    expect(await count()).toBe(before + first.invoices);
    // Overdue follows the clock.
    await kit.signIn();
    const overdue = await api(kit.base, `${B}/invoices?filter=overdue=true&pageSize=1`, {
      token: finance.accessToken,
    });
    expect(overdue.status).toBe(200);
  });
});

describe('growing the invoices (npm run seed:invoices)', () => {
  it('adds copies with their items and a status, numbered on, which the billing run leaves alone', async () => {
    const db = kit.db() as Db;
    const demo = `(SELECT id FROM tenants WHERE slug = 'demo')`;
    const [before] = await db.query<{ n: number; counted: number }>(
      `SELECT count(*)::int AS n,
              (SELECT sum(last_number)::int FROM invoice_counters WHERE tenant_id = ${demo})
                AS counted
         FROM invoices WHERE tenant_id = ${demo}`,
    );
    expect(await growInvoices(db, 'demo', before!.n + 250)).toEqual({
      before: before!.n,
      after: before!.n + 250,
    });
    expect(await growInvoices(db, 'demo', 10)).toEqual({
      before: before!.n + 250,
      after: before!.n + 250,
    });
    const [grown] = await db.query<{ n: number; bad: number; statuses: number; counted: number }>(
      `SELECT count(*)::int AS n,
              count(*) FILTER (WHERE s.net <> i.net_amount OR s.tax <> i.tax_amount
                                  OR i.invoice_number !~ '^INV-\\d{4}-\\d{6}$'
                                  OR i.paid_amount <> 0 OR i.billing_key IS NOT NULL)::int AS bad,
              (SELECT count(*)::int FROM invoice_statuses st JOIN invoices g ON g.id = st.invoice_id
                WHERE g.code LIKE 'inv_g%') AS statuses,
              (SELECT sum(last_number)::int FROM invoice_counters WHERE tenant_id = ${demo})
                AS counted
         FROM invoices i
         LEFT JOIN LATERAL (SELECT coalesce(sum(net_amount), 0) AS net,
                                   coalesce(sum(tax_amount), 0) AS tax
                              FROM invoice_items it WHERE it.invoice_id = i.id) s ON true
        WHERE i.code LIKE 'inv_g%'`,
    );
    expect(grown).toEqual({ n: 250, bad: 0, statuses: 250, counted: before!.counted + 250 });
    // Listed like the others; the run has nothing to add for them.
    const list = await billing.call(finance, '/invoices?pageSize=1&expand=');
    expect(list.body.totalItems).toBe(before!.n + 250);
    expect((await runBilling(db, clock.now())).invoices).toBe(0);
    await expect(growInvoices(db, 'nowhere', 5)).rejects.toThrow(/no workspace "nowhere"/);
  });

  it('counts a list of more than 10 000 invoices as "more than 10 000", exact again when filtered', async () => {
    const db = kit.db() as Db;
    const [{ n } = { n: 0 }] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoices WHERE tenant_id = (SELECT id FROM tenants WHERE slug = 'demo')`,
    );
    await growInvoices(db, 'demo', Math.max(n, 10_000) + 20);
    const first = await billing.call(finance, '/invoices?pageSize=3&expand=');
    expect(first.status).toBe(200);
    expect(first.body.totalItemsAbove).toBe(10_000);
    expect(first.body).not.toHaveProperty('totalItems');
    // The next page carries the floor in its token instead of counting again.
    const second = await billing.call(
      finance,
      `/invoices?pageSize=3&expand=&pageToken=${first.body.nextPageToken}`,
    );
    expect(second.body.totalItemsAbove).toBe(10_000);
    expect(second.body.items).toHaveLength(3);
    // One policy's invoices are few: counted exactly.
    const policyCode = first.body.items[0].policyCode as string;
    const one = await billing.call(
      finance,
      `/invoices?pageSize=3&filter=${encodeURIComponent(`policyCode=${policyCode}`)}`,
    );
    const [exact] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM invoices WHERE policy_code = $1',
      [policyCode],
    );
    expect(one.body.totalItems).toBe(exact!.n);
    expect(one.body).not.toHaveProperty('totalItemsAbove');
  });
});
