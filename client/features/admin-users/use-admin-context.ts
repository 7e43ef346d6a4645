import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { SessionActorContext } from '#client/api/session-context.ts';
import { listAll, listRoles, type RoleRef } from '#client/api/tenant-admin-client.ts';
import { isAllowed } from '#common/permissions.ts';

export interface AdminAbilities {
  accountIndex: number;
  canUpdate: boolean;
  canDelete: boolean;
  canCreate: boolean;
}

/**
 * What the signed-in account may do here. Only hides buttons: the service checks every call
 * anyway, so a stale permission list costs an error message, never a breach.
 */
export function useAdminAbilities(): AdminAbilities {
  const { accountIndex = '0' } = useParams();
  const permissions = SessionActorContext.useSelector(
    (s) => s.context.accounts.find((a) => String(a.accountIndex) === accountIndex)?.permissions,
  );
  const held = permissions ?? [];
  const can = (permission: string) => isAllowed(held, { anyOf: [[permission]] });
  return {
    accountIndex: Number(accountIndex),
    canUpdate: can('tenant-management.users.update'),
    canDelete: can('tenant-management.users.delete'),
    canCreate: can('tenant-management.users.create'),
  };
}

/**
 * The tenant's roles for the filter, the roles dialog and the invite form. Roles without any
 * permission are hidden (spec, role filtering): they grant nothing. null while loading; an empty
 * list when the account may not read roles.
 */
export function useRoles(accountIndex: number): RoleRef[] | null {
  const [roles, setRoles] = useState<RoleRef[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    listAll((page, signal) => listRoles(accountIndex, page, signal), controller.signal)
      .then((items) => setRoles(items.filter((role) => (role.permissions ?? []).length > 0)))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('roles failed', error);
        setRoles([]);
      });
    return () => controller.abort();
  }, [accountIndex]);
  return roles;
}
