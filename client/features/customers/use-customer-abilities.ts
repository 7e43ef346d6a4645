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
  const { accountIndex, may } = useAccountAccess();
  return useMemo(
    () => ({
      accountIndex,
      canView: may('account-management', 'accounts', 'view'),
      canUpdate: may('account-management', 'accounts', 'update'),
      canCreate: may('account-management', 'accounts', 'create'),
      canViewPartners: may('partner-management', 'partners', 'view'),
      canViewPolicies: may('policy-management', 'policies', 'view'),
      canViewLeads: may('policy-management', 'leads', 'view'),
      canViewDocuments: may('document-management', 'documents', 'view'),
    }),
    [accountIndex, may],
  );
}
