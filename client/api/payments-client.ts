import type {
  BankAccountCreateInput,
  CardBrand,
  PaymentMethodCreateInput,
  PaymentMethodKind,
} from '#common/payment-methods.ts';
import { fetchJson } from './fetch-json.ts';
import { listParams, type Page } from './tenant-admin-client.ts';

/**
 * The paymentservice's payment methods, policy payment methods and bank accounts through the BFF
 * (docs/contracts.md, "Payment methods and bank accounts"). One function per request; each takes
 * an AbortSignal. IBANs arrive masked: the full number never reaches the browser after it was typed.
 */

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
