import { useMemo } from 'react';
import { useAccountAccess } from '#client/api/use-account-access.ts';

export interface CustomerAbilities {
  accountIndex: number;
  canView: boolean;
  canUpdate: boolean;
  canCreate: boolean;
  canViewPartners: boolean;
  canViewPolicies: boolean;
  canViewLeads: boolean;
  canViewDocuments: boolean;
}

/**
 * What the signed-in account may do with customers (hides buttons only; the service checks every
 * call). The legacy `eis.*` names count like the current ones, as the services accept both.
 */
export function useCustomerAbilities(): CustomerAbilities {
  const { accountIndex, can } = useAccountAccess();
  return useMemo(
    () => ({
      accountIndex,
      canView: can('account-management.accounts.view') || can('eis.accounts.view'),
      canUpdate: can('account-management.accounts.update') || can('eis.accounts.update'),
      canCreate: can('account-management.accounts.create') || can('eis.accounts.create'),
      canViewPartners: can('partner-management.partners.view') || can('eis.partners.view'),
      canViewPolicies: can('policy-management.policies.view') || can('eis.policies.view'),
      canViewLeads: can('policy-management.leads.view') || can('eis.leads.view'),
      canViewDocuments: can('document-management.documents.view') || can('eis.documents.view'),
    }),
    [accountIndex, can],
  );
}
