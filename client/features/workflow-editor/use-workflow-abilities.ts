import { useMemo } from 'react';
import { useAccountAccess } from '#client/api/use-account-access.ts';

/**
 * What the signed-in account may do with workflows (`process-management.workflows.*`). Hides
 * buttons and links only; the process manager checks every call.
 */
export function useWorkflowAbilities() {
  const { accountIndex, may } = useAccountAccess();
  return useMemo(
    () => ({
      accountIndex,
      canCreate: may('process-management', 'workflows', 'create'),
      canUpdate: may('process-management', 'workflows', 'update'),
    }),
    [accountIndex, may],
  );
}
