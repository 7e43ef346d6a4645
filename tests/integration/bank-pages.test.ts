import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK_PAGE_CSP } from '#server/sandbox/services/payment/bank-pages.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';

// The bank pages the shell frames at /bank/transactions and /bank/orders (issue 18;
// docs/decisions/015-bank-pages.md): served by the BFF from the payment service with the
// session's token, with their own framing rules.
let stack: Stack;
let finance: Agent;
let manager: Agent;
let nord: Agent;
let booked: { code: string; invoiceCode: string; invoiceNumber: string };

beforeAll(async () => {
  stack = await startStack();
  finance = new Agent(stack.url);
  manager = new Agent(stack.url);
  nord = new Agent(stack.url);
  expect((await finance.login('finance@demo.test')).status).toBe(200);
  expect((await manager.login('manager@demo.test')).status).toBe(200);
  expect((await nord.login('admin@nordlicht.test')).status).toBe(200);
  // A payment of the test's own, booked now: the newest on the account.
  const open = await finance.json(
    `/api/0/billingservice/v1/invoices?filter=${encodeURIComponent('status=open')}&pageSize=1`,
  );
  const invoice = open.body.items[0];
  const paid = await finance.json('/api/0/paymentservice/v1/payments', {
    json: {
      amount: 1234,
      method: 'bank-transfer',
      invoiceCodes: [invoice.code],
      reference: 'Bank <page> & test',
    },
    headers: { 'Idempotency-Key': 'bank-pages-test' },
  });
  expect(paid.status).toBe(201);
  booked = {
    code: paid.body.payment.code,
    invoiceCode: invoice.code,
    invoiceNumber: invoice.invoiceNumber,
  };
});
afterAll(async () => {
  await stack?.stop();
});

const page = (agent: Agent, name: string, lang = 'de') =>
  agent.fetch(`/embedded/bank/0/${name}?lang=${lang}`);

describe('the bank pages through the BFF', () => {
  it('show the incoming payments in German, each matched to its invoice by a link the shell opens', async () => {
    const res = await page(finance, 'transactions');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<title>Kontoumsätze</title>');
    const row = html.slice(html.indexOf(`data-payment="${booked.code}"`));
    expect(row).toMatch(/^data-payment/);
    expect(row.slice(0, row.indexOf('</tr>'))).toContain(
      `<a href="/u/0/finance-management/finance-invoices/${booked.invoiceCode}" target="_top">${booked.invoiceNumber}</a>`,
    );
    // Text from the data is escaped, never markup.
    expect(html).toContain('Bank &lt;page&gt; &amp; test');
    expect(html).not.toContain('<page>');
    expect(html).toContain('Gutgeschrieben');
    // Nothing of the session's token: no bearer, no JWT.
    expect(html).not.toMatch(/Bearer|eyJ[A-Za-z0-9_-]{10}/);
    expect(html).not.toMatch(/<script/i);
  });

  it('shows the payment orders (refunds and direct debits) in English with their invoices', async () => {
    const res = await page(finance, 'orders', 'en');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Payment orders</title>');
    expect(html).toContain('Refund (credit transfer)');
    expect(html).toContain('Direct debit');
    expect(html).toMatch(/Mandate MNDT-/);
    expect(html).toMatch(
      /<a href="\/u\/0\/finance-management\/finance-invoices\/inv_[^"]+" target="_top">INV-\d{4}-\d{6}<\/a>/,
    );
    // Only masked account numbers.
    expect(html).toMatch(/DE•• ••••/);
    expect(html).not.toMatch(/DE\d{20}/);
  });

  it('send their own headers: nothing runs, and only this origin may frame them', async () => {
    const res = await page(finance, 'transactions', 'pl');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(BANK_PAGE_CSP);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('<title>Transakcje bankowe</title>');
  });

  it('answer only a signed-in user who may read invoices, and only with the own workspace', async () => {
    const guest = new Agent(stack.url);
    const out = await page(guest, 'transactions');
    expect(out.status).toBe(401);
    expect(out.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await out.json()).error).toBe('session_expired');

    const refused = await page(manager, 'transactions');
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe('forbidden');

    const other = await page(nord, 'transactions');
    expect(other.status).toBe(200);
    const html = await other.text();
    expect(html).not.toContain(booked.code);
    expect(html).not.toContain(booked.invoiceCode);
    const orders = await (await page(nord, 'orders')).text();
    expect(orders).not.toContain(booked.invoiceCode);
  });

  it('refuse an unknown page, account or language', async () => {
    expect((await page(finance, 'ledger')).status).toBe(404);
    expect((await finance.fetch('/embedded/bank/x/transactions?lang=de')).status).toBe(404);
    expect((await finance.fetch('/embedded/bank/7/transactions?lang=de')).status).toBe(401);
    const lang = await page(finance, 'transactions', 'fr');
    expect(lang.status).toBe(400);
  });
});

describe("the shell's policy", () => {
  it('lets the shell frame the bank pages of its own origin and nothing else', async () => {
    const res = await finance.fetch('/u/0/bank/transactions');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    const frameSrc = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('frame-src'));
    expect(frameSrc).toBe(`frame-src ${stack.url}/embedded/bank/`);
    expect(csp).toContain("frame-ancestors 'none'");
    // A forged host gets no frame source at all.
    const forged = await fetch(`${stack.url}/u/0/bank/transactions`, {
      headers: { host: "evil.test; script-src 'unsafe-inline'" },
    });
    const forgedCsp = forged.headers.get('content-security-policy') ?? '';
    expect(forgedCsp).not.toContain('unsafe-inline');
  });
});
