import type {
  BankAccountCreateInput,
  CardBrand,
  PaymentMethodCreateInput,
  PaymentMethodKind,
} from '#common/payment-methods.ts';
import type { PaymentDraft } from '#machines/payment-booking.machine.ts';
import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';

/**
 * The paymentservice through the BFF: payments booked on invoices and their reversal
 * (docs/contracts.md, "paymentservice"), and payment methods, policy payment methods and bank
 * accounts ("Payment methods and bank accounts"). One function per request; each takes an
 * AbortSignal. Amounts are integer cents. IBANs arrive masked: the full number never reaches the
 * browser after it was typed.
 */

/** The ways a payment on an invoice is booked as paid (`Payment.method`). */
export const PAYMENT_METHODS = ['bank-transfer', 'sepa', 'card', 'invoice'] as const;

export interface Payment {
  id: number;
  code: string;
  amount: number;
  currency: string;
  method: string;
  reference?: string | null;
  policyCode?: string | null;
  allocations: { invoiceCode: string; amount: number }[];
  creditAmount: number;
  status: 'booked' | 'reversed';
  bookedAt: string;
  createdAt: string;
  createdByName?: string | null;
  /** Who took the payment back, when and why; null while it is booked. */
  reversal?: { at: string; byName: string | null; reason: string } | null;
}

export interface PaymentMethod {
  id: number;
  code: string;
  accountCode: string;
  accountNumber: string;
  type: PaymentMethodKind;
  sepa?: {
    bankAccountCode: string;
    ibanMasked: string;
    bic: string | null;
    bankName: string | null;
    holderName: string;
    mandateReference: string;
    mandateSignedAt: string;
  };
  card?: {
    brand: CardBrand;
    last4: string;
    expiryMonth: number;
    expiryYear: number;
    holderName: string | null;
  };
  createdAt: string;
  createdByName: string | null;
}

export interface PolicyPaymentMethod {
  code: string;
  policyCode: string;
  paymentMethodCode: string | null;
  paymentMethod: PaymentMethod | null;
  isCurrent: boolean;
  validFrom: string;
  validTo: string | null;
  /** `system` when the seed or a job of the service set it; otherwise a user's code. */
  createdBy: string;
  createdByName: string | null;
}

export interface BankAccount {
  code: string;
  accountCode: string;
  accountNumber: string;
  ibanMasked: string;
  country: string;
  bic: string | null;
  bankName: string | null;
  holderName: string;
  createdAt: string;
  createdByName: string | null;
}

/** A customer's methods and accounts fit one page: nobody pays in a hundred ways. */
const PAGE_SIZE = 100;

const base = (accountIndex: number) => `/api/${accountIndex}/paymentservice/v1`;

export function listPaymentMethods(
  accountIndex: number,
  accountCode: string,
  signal?: AbortSignal,
): Promise<Page<PaymentMethod>> {
  const query = listParams({ pageSize: PAGE_SIZE, filter: { accountCode } });
  return fetchJson(`${base(accountIndex)}/payment-methods?${query}`, { signal });
}

export function createPaymentMethod(
  accountIndex: number,
  body: PaymentMethodCreateInput,
  signal?: AbortSignal,
): Promise<{ paymentMethod: PaymentMethod }> {
  return fetchJson(`${base(accountIndex)}/payment-methods`, { method: 'POST', body, signal });
}

export function listBankAccounts(
  accountIndex: number,
  accountCode: string,
  signal?: AbortSignal,
): Promise<Page<BankAccount>> {
  const query = listParams({ pageSize: PAGE_SIZE, filter: { accountCode } });
  return fetchJson(`${base(accountIndex)}/bank-accounts?${query}`, { signal });
}

export function createBankAccount(
  accountIndex: number,
  body: BankAccountCreateInput,
  signal?: AbortSignal,
): Promise<{ bankAccount: BankAccount }> {
  return fetchJson(`${base(accountIndex)}/bank-accounts`, { method: 'POST', body, signal });
}

/** A policy's methods, the current one first, then the earlier ones newest first. */
export function listPolicyPaymentMethods(
  accountIndex: number,
  policyCode: string,
  signal?: AbortSignal,
): Promise<Page<PolicyPaymentMethod>> {
  const query = listParams({ pageSize: PAGE_SIZE, filter: { policyCode } });
  return fetchJson(`${base(accountIndex)}/policy-payment-methods?${query}`, { signal });
}

export function setPolicyPaymentMethod(
  accountIndex: number,
  body: { policyCode: string; paymentMethodCode: string },
  signal?: AbortSignal,
): Promise<{ policyPaymentMethod: PolicyPaymentMethod }> {
  return fetchJson(`${base(accountIndex)}/policy-payment-methods`, {
    method: 'POST',
    body,
    signal,
  });
}

/** A payment page is at most this long: an invoice or a policy has few payments. */
export const PAYMENTS_PAGE_SIZE = 100;

export function listPayments(
  accountIndex: number,
  filter: { invoiceCode?: string; policyCode?: string },
  signal?: AbortSignal,
): Promise<Page<Payment>> {
  const params = listParams({
    pageSize: PAYMENTS_PAGE_SIZE,
    filter,
    order: { field: 'bookedAt', direction: 'DESC' },
  });
  return fetchJson(`${base(accountIndex)}/payments?${params}`, { signal });
}

/**
 * Books a payment under `key` (machines/payment-booking.machine.ts keeps one per payment): the
 * same key and draft answer the first booking again, so a retry never books twice.
 */
export async function bookPayment(
  accountIndex: number,
  key: string,
  draft: PaymentDraft,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ payment: Payment }>(`${base(accountIndex)}/payments`, {
    method: 'POST',
    body: draft,
    headers: { 'Idempotency-Key': key },
    signal,
  });
  return res.payment;
}

/**
 * Reverses a booked payment under `key` (one per opening of the reversal dialog): a retry after a
 * lost answer with the same key and reason answers the first reversal again.
 */
export async function reversePayment(
  accountIndex: number,
  key: string,
  paymentCode: string,
  reason: string,
  signal?: AbortSignal,
) {
  const res = await fetchJson<{ payment: Payment }>(
    `${base(accountIndex)}/payments/${encodeURIComponent(paymentCode)}/reverse`,
    { method: 'POST', body: { reason }, headers: { 'Idempotency-Key': key }, signal },
  );
  return res.payment;
}
