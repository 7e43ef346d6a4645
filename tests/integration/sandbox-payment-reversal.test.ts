import { describe, expect, it } from 'vitest';
import { MovableClock } from '#common/clock.ts';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

// Reversing a booked payment (issue 18; docs/contracts.md "Payment reversal").
const B = '/billingservice/v1';
const P = '/paymentservice/v1';
const clock = new MovableClock();
const kit = withSandbox(
  {
    finance: 'finance@demo.test',
    care: 'care@demo.test',
    viewer: 'viewer@demo.test',
    nord: 'admin@nordlicht.test',
  },
  { clock },
);
const { finance, care, viewer, nord } = kit.sessions;
const billing = serviceCalls(kit, B);
const payments = serviceCalls(kit, P);

interface Invoice {
  code: string;
  status: string;
  grossAmount: number;
  paidAmount: number;
  openAmount: number;
  isOverdue: boolean;
  statuses: { status: string; at: string; byName: string | null; reason?: string }[];
}

/** Overdue invoices of the demo workspace with nothing paid, a fresh one per call. */
let taken = 0;
async function openInvoice(): Promise<Invoice> {
  const res = await billing.call(
    finance,
    `/invoices?filter=${encodeURIComponent('status=open&overdue=true')}&order=dueDate:DESC&pageSize=50`,
  );
  expect(res.status).toBe(200);
  const invoice = res.body.items[taken++];
  expect(invoice).toBeDefined();
  return invoice;
}
const invoiceOf = async (code: string): Promise<Invoice> =>
  (await billing.call(finance, `/invoices/${code}`)).body.invoice;

const book = async (session: typeof finance, invoiceCodes: string[], amount: number) => {
  const res = await payments.call(session, '/payments', {
    body: { amount, method: 'bank-transfer', invoiceCodes, reference: 'reversal test' },
    headers: { 'Idempotency-Key': `book-${crypto.randomUUID()}` },
  });
  expect(res.status).toBe(201);
  return res.body.payment as { code: string; id: number };
};

const reverse = (session: typeof finance, code: string, key: string | null, body: unknown) =>
  payments.call(session, `/payments/${code}/reverse`, {
    body,
    headers: key === null ? {} : { 'Idempotency-Key': key },
  });

describe('POST /payments/{code}/reverse', () => {
  it('takes the payment back: the invoices are open and overdue again, the history says who, when and why', async () => {
    const a = await openInvoice();
    const b = await openInvoice();
    // All of a and part of b.
    const payment = await book(finance, [a.code, b.code], a.grossAmount + 100);
    expect((await invoiceOf(a.code)).status).toBe('paid');
    expect((await invoiceOf(b.code)).status).toBe('partially-paid');

    const res = await reverse(care, payment.code, 'rev-1', {
      reason: '  Rücklastschrift der Bank  ',
    });
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({
      code: payment.code,
      status: 'reversed',
      allocations: [
        { invoiceCode: a.code, amount: a.grossAmount },
        { invoiceCode: b.code, amount: 100 },
      ],
      reversal: {
        at: expect.any(String),
        byName: 'Clara Care',
        reason: 'Rücklastschrift der Bank',
      },
    });

    for (const code of [a.code, b.code]) {
      const after = await invoiceOf(code);
      expect(after).toMatchObject({ status: 'open', paidAmount: 0, isOverdue: true });
      expect(after.openAmount).toBe(after.grossAmount);
      expect(after.statuses.at(-1)).toEqual({
        status: 'open',
        at: res.body.payment.reversal.at,
        byName: 'Clara Care',
        reason: 'Rücklastschrift der Bank',
      });
      expect(after.statuses.at(-2)!.reason).toBeUndefined();
    }
    // Never deleted: the payment is still listed on the invoice, as reversed.
    const listed = await payments.call(finance, `/payments?filter=invoiceCode=${a.code}`);
    expect(
      listed.body.items.map((p: { code: string; status: string }) => [p.code, p.status]),
    ).toEqual([[payment.code, 'reversed']]);
    const [event] = await kit.db().query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'payment' AND entity_id = $1
        ORDER BY id DESC LIMIT 1`,
      [payment.code],
    );
    expect(event!.action).toBe('reversed');
  });

  it('goes back to partially paid when another payment stays booked', async () => {
    const a = await openInvoice();
    await book(finance, [a.code], 500);
    const second = await book(finance, [a.code], 700);
    const res = await reverse(finance, second.code, 'rev-partial', { reason: 'wrong invoice' });
    expect(res.status).toBe(200);
    expect(await invoiceOf(a.code)).toMatchObject({ status: 'partially-paid', paidAmount: 500 });
  });

  it('answers a replay of its key with the reversal, and a second reversal with a 409', async () => {
    const a = await openInvoice();
    const payment = await book(finance, [a.code], 1000);
    const first = await reverse(finance, payment.code, 'rev-twice', { reason: 'duplicate' });
    expect(first.status).toBe(200);
    const replay = await reverse(finance, payment.code, 'rev-twice', { reason: 'duplicate' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.payment.reversal).toEqual(first.body.payment.reversal);

    const again = await reverse(finance, payment.code, 'rev-twice-2', { reason: 'duplicate' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'payment_already_reversed',
      message: 'this payment has been reversed already',
    });
    const reused = await reverse(finance, payment.code, 'rev-twice', { reason: 'another reason' });
    expect(reused.status).toBe(422);
    // The invoice was given back once.
    const after = await invoiceOf(a.code);
    expect(after.paidAmount).toBe(0);
    expect(after.statuses.filter((s) => s.reason === 'duplicate')).toHaveLength(1);
  });

  it('reverses once when the same request arrives twice at once', async () => {
    const a = await openInvoice();
    const payment = await book(finance, [a.code], 900);
    const both = await Promise.all([
      reverse(finance, payment.code, 'rev-race', { reason: 'race' }),
      reverse(finance, payment.code, 'rev-race', { reason: 'race' }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const after = await invoiceOf(a.code);
    expect(after.paidAmount).toBe(0);
    expect(after.statuses.filter((s) => s.reason === 'race')).toHaveLength(1);
  });

  it('refuses without a key, without a reason, to readers and to other workspaces', async () => {
    const a = await openInvoice();
    const payment = await book(finance, [a.code], 800);
    const noKey = await reverse(finance, payment.code, null, { reason: 'x' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error).toBe('idempotency_key_missing');
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 5 }]) {
      const bad = await reverse(finance, payment.code, `rev-bad-${crypto.randomUUID()}`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('validation_error');
    }
    const reader = await reverse(viewer, payment.code, 'rev-viewer', { reason: 'x' });
    expect(reader.status).toBe(403);
    const other = await reverse(nord, payment.code, 'rev-nord', { reason: 'x' });
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Payment does not exist');
    const unknown = await reverse(finance, 'pay_missing', 'rev-missing', { reason: 'x' });
    expect(unknown.status).toBe(404);
    // Nothing of it happened.
    expect(await invoiceOf(a.code)).toMatchObject({ status: 'partially-paid', paidAmount: 800 });
    const still = await payments.call(finance, `/payments/${payment.code}`);
    expect(still.body.payment).toMatchObject({ status: 'booked', reversal: null });
  });

  it('leaves the reversed payment out of what the finance report counts as paid', async () => {
    const a = await openInvoice();
    const month = new Date(clock.now()).toISOString().slice(0, 7);
    const paidIn = async () => {
      const res = await billing.call(finance, `/reports/finance?from=${month}&to=${month}`);
      return res.body.rows.reduce((sum: number, r: { paid: number }) => sum + r.paid, 0);
    };
    const before = await paidIn();
    const payment = await book(finance, [a.code], 4321);
    expect(await paidIn()).toBe(before + 4321);
    await reverse(finance, payment.code, 'rev-report', { reason: 'report' });
    expect(await paidIn()).toBe(before);
  });
});
