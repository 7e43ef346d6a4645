import { useMemo } from 'react';
import { useAccountAccess } from '#client/api/use-account-access.ts';

export interface ClaimAbilities {
  accountIndex: number;
  canCreate: boolean;
  /** Edit the claim, move its status, write its settlements and partner links. */
  canUpdate: boolean;
  canDelete: boolean;
  /** The policy link, the policy picker, the start of the policy and its insured objects. */
  canViewPolicies: boolean;
  /** The holder link. */
  canViewCustomers: boolean;
  /** The partner selector lists the partner service's partners. */
  canViewPartners: boolean;
}

/**
 * What the signed-in account may do with claims: the current permission or its legacy `eis.*`
 * form, as the services accept both. Hides buttons and links only; the service checks every call.
 */
export function useClaimAbilities(): ClaimAbilities {
  const { accountIndex, may } = useAccountAccess();
  return useMemo(() => {
    return {
      accountIndex,
      canCreate: may('claim-management', 'claims', 'create'),
      canUpdate: may('claim-management', 'claims', 'update'),
      canDelete: may('claim-management', 'claims', 'delete'),
      canViewPolicies: may('policy-management', 'policies', 'view'),
      canViewCustomers: may('account-management', 'accounts', 'view'),
      canViewPartners: may('partner-management', 'partners', 'view'),
    };
  }, [accountIndex, may]);
}
