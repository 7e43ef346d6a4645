import { useMemo } from 'react';
import { useParams } from 'react-router';
import { SessionActorContext } from '#client/api/session-context.ts';
import { hasPermission } from '#common/permissions.ts';

export interface RoleAbilities {
  accountIndex: number;
  /** The signed-in account's permissions: what it may grant in the matrix. */
  held: readonly string[];
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  canViewRoles: boolean;
}

const NO_PERMISSIONS: readonly string[] = [];

/**
 * What the signed-in account may do with roles. Only hides and disables controls: the service
 * checks every call (and answers 403 `escalation` for grants beyond the caller's own), so a
 * stale permission list costs an error message, never a breach.
 */
export function useRoleAbilities(): RoleAbilities {
  const { accountIndex = '0' } = useParams();
  const permissions = SessionActorContext.useSelector(
    (s) => s.context.accounts.find((a) => String(a.accountIndex) === accountIndex)?.permissions,
  );
  const held = permissions ?? NO_PERMISSIONS;
  return useMemo(() => {
    const can = (action: string) => hasPermission(held, `identity-management.roles.${action}`);
    return {
      accountIndex: Number(accountIndex),
      held,
      canCreate: can('create'),
      canUpdate: can('update'),
      canDelete: can('delete'),
      canViewRoles: can('view'),
    };
  }, [accountIndex, held]);
}
