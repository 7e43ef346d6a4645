import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { isAllowed } from '#common/permissions.ts';
import { SessionActorContext } from './session-context.ts';
import { listAll, listRoles, type RoleRef } from './tenant-admin-client.ts';

/**
 * The account of the current `/u/:accountIndex` route and a test of its permissions. Screens use
 * it only to hide buttons and make forms read-only: the service checks every call anyway, so a
 * stale permission list costs an error message, never a breach.
 */
export function useAccountAccess(): {
  accountIndex: number;
  can: (permission: string) => boolean;
  /**
   * A service permission in its current form or its legacy `eis.{resource}.{action}` one, as the
   * services accept both (`may('claim-management', 'claims', 'update')`).
   */
  may: (module: string, resource: string, action: string) => boolean;
} {
  const { accountIndex = '0' } = useParams();
  const permissions = SessionActorContext.useSelector(
    (s) => s.context.accounts.find((a) => String(a.accountIndex) === accountIndex)?.permissions,
  );
  const can = useCallback(
    (permission: string) => isAllowed(permissions ?? [], { anyOf: [[permission]] }),
    [permissions],
  );
  const may = useCallback(
    (module: string, resource: string, action: string) =>
      can(`${module}.${resource}.${action}`) || can(`eis.${resource}.${action}`),
    [can],
  );
  return { accountIndex: Number(accountIndex), can, may };
}

/**
 * The tenant's roles for filters, role dialogs and invitation forms. Roles without any permission
 * are hidden (spec, role filtering): they grant nothing. null while loading; an empty list when
 * the account may not read roles (`enabled` false, or the service refused).
 */
export function useTenantRoles(accountIndex: number, enabled = true): RoleRef[] | null {
  const [roles, setRoles] = useState<RoleRef[] | null>(null);
  useEffect(() => {
    if (!enabled) {
      setRoles([]);
      return;
    }
    const controller = new AbortController();
    listAll((page, signal) => listRoles(accountIndex, page, signal), controller.signal)
      .then((items) => setRoles(items.filter((role) => (role.permissions ?? []).length > 0)))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('roles failed', error);
        setRoles([]);
      });
    return () => controller.abort();
  }, [accountIndex, enabled]);
  return roles;
}
