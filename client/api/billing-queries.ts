import { getFinanceReport, getInvoice } from './billing-client.ts';
import { listPayments } from './payments-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of invoices and payments, defined once. */
export const billingQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'billing'] as const,
  invoice: (accountIndex: number, code: string) =>
    keyedQuery([...billingQueries.all(accountIndex), 'invoice', code], (signal) =>
      getInvoice(accountIndex, code, signal),
    ),
  /** The payments booked on one invoice, newest first. */
  invoicePayments: (accountIndex: number, invoiceCode: string) =>
    keyedQuery(
      [...billingQueries.all(accountIndex), 'payments', 'invoice', invoiceCode],
      async (signal) => (await listPayments(accountIndex, { invoiceCode }, signal)).items,
    ),
  /** The payments on a policy, newest first (its billing tab). */
  policyPayments: (accountIndex: number, policyCode: string) =>
    keyedQuery(
      [...billingQueries.all(accountIndex), 'payments', 'policy', policyCode],
      async (signal) => (await listPayments(accountIndex, { policyCode }, signal)).items,
    ),
  financeReport: (accountIndex: number, from: string, to: string) =>
    keyedQuery([...billingQueries.all(accountIndex), 'finance-report', from, to], (signal) =>
      getFinanceReport(accountIndex, { from, to }, signal),
    ),
};
