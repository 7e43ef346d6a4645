import { useMemo } from 'react';
import { useAccountAccess } from '#client/api/use-account-access.ts';

/**
 * What the signed-in account may do with decision tables: they share the workflows' rights, as
 * the process manager checks them. Hides buttons only; the service checks every call.
 */
export function useDecisionTableAbilities() {
  const { accountIndex, can } = useAccountAccess();
  return useMemo(
    () => ({
      accountIndex,
      canCreate: can('process-management.workflows.create'),
      canUpdate: can('process-management.workflows.update'),
    }),
    [accountIndex, can],
  );
}
