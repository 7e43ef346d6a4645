import { useAccountAccess, useTenantRoles } from '#client/api/use-account-access.ts';
import type { RoleRef } from '#client/api/tenant-admin-client.ts';
import { useLocalizedFields } from '#client/i18n/translated-text.ts';

export interface AdminAbilities {
  accountIndex: number;
  canUpdate: boolean;
  canDelete: boolean;
  canCreate: boolean;
}

/** What the signed-in account may do here (hides buttons only; see `useAccountAccess`). */
export function useAdminAbilities(): AdminAbilities {
  const { accountIndex, can } = useAccountAccess();
  return {
    accountIndex,
    canUpdate: can('tenant-management.users.update'),
    canDelete: can('tenant-management.users.delete'),
    canCreate: can('tenant-management.users.create'),
  };
}

/** The tenant's roles for the filter, the roles dialog and the invite form, named in the
 * user's language. */
export function useRoles(accountIndex: number): RoleRef[] | null {
  return useLocalizedFields(useTenantRoles(accountIndex));
}
