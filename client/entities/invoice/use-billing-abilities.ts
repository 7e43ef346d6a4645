import { useMemo } from 'react';
import { useAccountAccess } from '#client/api/use-account-access.ts';

export interface BillingAbilities {
  accountIndex: number;
  canViewInvoices: boolean;
  /** Book a payment on an invoice (the payment service's create permission). */
  canBookPayments: boolean;
  canViewPayments: boolean;
  canViewPolicies: boolean;
  canViewCustomers: boolean;
}

/**
 * What the signed-in account may do with invoices and payments: the current permission or the
 * legacy `eis.finance.*` form the billing and payment services accept (docs/contracts.md,
 * "Billing and payments"). Hides buttons and links only; the services check every call.
 */
export function useBillingAbilities(): BillingAbilities {
  const { accountIndex, may, can } = useAccountAccess();
  return useMemo(() => {
    const either = (current: string, legacy: string) => can(current) || can(legacy);
    return {
      accountIndex,
      canViewInvoices: either('billing-management.invoices.view', 'eis.finance.invoices.view'),
      canBookPayments: either('payment-management.payments.create', 'eis.finance.payments.create'),
      canViewPayments: either('payment-management.payments.view', 'eis.finance.payments.view'),
      canViewPolicies: may('policy-management', 'policies', 'view'),
      canViewCustomers: may('account-management', 'accounts', 'view'),
    };
  }, [accountIndex, may, can]);
}
