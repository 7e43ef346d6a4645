import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures.ts';
import { isoDay } from './policy-setup.ts';

export const BILLING = '/api/0/billingservice/v1';
export const PAYMENTS = '/api/0/paymentservice/v1/payments';

export interface TestInvoice {
  code: string;
  invoiceNumber: string;
  policyCode: string | null;
  policyNumber: string | null;
  grossAmount: number;
  openAmount: number;
  status: string;
}

/**
 * A manual invoice of a test's own on a seeded policy, due `dueInDays` from today (negative:
 * overdue), one line of `cents` without tax; created through an API client that may create
 * invoices (the administrator).
 */
export async function overdueInvoice(
  api: APIRequestContext,
  cents: number,
  dueInDays = -10,
): Promise<TestInvoice> {
  const policies = await api.get('/api/0/insuranceservice/v1/policies?pageSize=1');
  expect(policies.ok()).toBe(true);
  const [policy] = ((await policies.json()) as { items: { code: string }[] }).items;
  expect(policy).toBeDefined();
  const created = await api.post(`${BILLING}/invoices`, {
    data: {
      policyCode: policy!.code,
      type: 'penalty',
      dueDate: isoDay(dueInDays),
      invoiceItems: [{ name: 'Mahngebühr', quantity: 1, pricePerUnit: cents, taxRate: 0 }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { invoice: TestInvoice }).invoice;
}

/** The payments booked on an invoice, as the payment service has them. */
export async function paymentsOf(api: APIRequestContext, invoiceCode: string) {
  const response = await api.get(
    `${PAYMENTS}?pageSize=100&filter=${encodeURIComponent(`invoiceCode=${invoiceCode}`)}`,
  );
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { items: { code: string; amount: number; status: string }[] })
    .items;
}

/**
 * An overdue invoice of a test's own (`overdueInvoice`) paid in full by a payment booked through
 * the API, so that a test starts from a booked payment.
 */
export async function paidInvoice(
  api: APIRequestContext,
  cents: number,
  payment: { method: string; reference?: string },
): Promise<TestInvoice> {
  const invoice = await overdueInvoice(api, cents);
  const booked = await api.post(PAYMENTS, {
    headers: { 'Idempotency-Key': `e2e-paid-${invoice.code}` },
    data: { amount: cents, invoiceCodes: [invoice.code], ...payment },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  return invoice;
}
