import { useMemo } from 'react';
import { useAccountAccess } from './use-account-access.ts';

export interface PolicyAbilities {
  accountIndex: number;
  /** Terminate, withdraw, restore and the draft of a policy. */
  canUpdate: boolean;
  canViewProducts: boolean;
  canViewCustomers: boolean;
  /** The policy's documents (its schedules, its claims' files). */
  canViewDocuments: boolean;
}

/**
 * What the signed-in account may do with policies: the current permission or its legacy `eis.*`
 * form, as the services accept both. Hides buttons and links only; the service checks every call.
 */
export function usePolicyAbilities(): PolicyAbilities {
  const { accountIndex, may } = useAccountAccess();
  return useMemo(() => {
    return {
      accountIndex,
      canUpdate: may('policy-management', 'policies', 'update'),
      canViewProducts: may('policy-management', 'products', 'view'),
      canViewCustomers: may('account-management', 'accounts', 'view'),
      canViewDocuments: may('document-management', 'documents', 'view'),
    };
  }, [accountIndex, may]);
}
