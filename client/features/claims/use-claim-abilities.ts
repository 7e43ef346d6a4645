import { useMemo } from 'react';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import {
  COVER_OVERRIDE_PERMISSION,
  PAYMENT_APPROVAL_PERMISSION,
  PAYMENT_REVERSAL_PERMISSION,
} from '#common/claims.ts';

export interface ClaimAbilities {
  accountIndex: number;
  canCreate: boolean;
  /** Edit the claim, move its status, write its settlements and partner links. */
  canUpdate: boolean;
  canDelete: boolean;
  /** Register a claim although the cover check refused it (audited). */
  canOverrideCover: boolean;
  /** Approve or reject another user's payment above their authority limit (four-eyes). */
  canApprovePayments: boolean;
  /** Reverse a booked payment (a counter-entry with a reason). */
  canReversePayments: boolean;
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
  const { accountIndex, may, can } = useAccountAccess();
  return useMemo(() => {
    return {
      accountIndex,
      canCreate: may('claim-management', 'claims', 'create'),
      canUpdate: may('claim-management', 'claims', 'update'),
      canDelete: may('claim-management', 'claims', 'delete'),
      canOverrideCover: can(COVER_OVERRIDE_PERMISSION),
      canApprovePayments: can(PAYMENT_APPROVAL_PERMISSION),
      canReversePayments: can(PAYMENT_REVERSAL_PERMISSION),
      canViewPolicies: may('policy-management', 'policies', 'view'),
      canViewCustomers: may('account-management', 'accounts', 'view'),
      canViewPartners: may('partner-management', 'partners', 'view'),
    };
  }, [accountIndex, may, can]);
}
