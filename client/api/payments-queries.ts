import {
  listBankAccounts,
  listPaymentMethods,
  listPolicyPaymentMethods,
} from './payments-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of payment methods and bank accounts, defined once. */
export const paymentQueries = {
  /** Everything of payments: invalidated after a method, a bank account or a policy's method is saved. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'payments'] as const,
  methods: (accountIndex: number, accountCode: string) =>
    keyedQuery([...paymentQueries.all(accountIndex), 'methods', accountCode], (signal) =>
      listPaymentMethods(accountIndex, accountCode, signal).then((p) => p.items),
    ),
  bankAccounts: (accountIndex: number, accountCode: string) =>
    keyedQuery([...paymentQueries.all(accountIndex), 'bank-accounts', accountCode], (signal) =>
      listBankAccounts(accountIndex, accountCode, signal).then((p) => p.items),
    ),
  policy: (accountIndex: number, policyCode: string) =>
    keyedQuery([...paymentQueries.all(accountIndex), 'policy', policyCode], (signal) =>
      listPolicyPaymentMethods(accountIndex, policyCode, signal).then((p) => p.items),
    ),
};
