import { useMemo } from 'react';
import { useAccountAccess } from '#client/api/use-account-access.ts';

export interface LeadAbilities {
  accountIndex: number;
  canCreate: boolean;
  canUpdate: boolean;
  /** Creating the policy of an approved lead (with `canUpdate`: it also moves the lead). */
  canCreatePolicy: boolean;
  /** The customer link and the customer's name beyond the lead's summary. */
  canViewCustomers: boolean;
  /** Field labels, formula names and the product filter come from the product service. */
  canViewProducts: boolean;
  canViewDocuments: boolean;
}

/**
 * What the signed-in account may do with leads: the current permission or its legacy `eis.*`
 * form, as the services accept both. Hides buttons only; the service checks every call.
 */
export function useLeadAbilities(): LeadAbilities {
  const { accountIndex, may } = useAccountAccess();
  return useMemo(() => {
    return {
      accountIndex,
      canCreate: may('policy-management', 'leads', 'create'),
      canUpdate: may('policy-management', 'leads', 'update'),
      canCreatePolicy: may('policy-management', 'policies', 'create'),
      canViewCustomers: may('account-management', 'accounts', 'view'),
      canViewProducts: may('policy-management', 'products', 'view'),
      canViewDocuments: may('document-management', 'documents', 'view'),
    };
  }, [accountIndex, may]);
}
