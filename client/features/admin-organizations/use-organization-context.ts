import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { getOrganizationSchema } from '#client/api/organizations-client.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { listAll, listRoles, type RoleRef } from '#client/api/tenant-admin-client.ts';
import type { CustomField } from '#client/ui/form/custom-schema.ts';
import { isAllowed } from '#common/permissions.ts';
import { customFieldsOf } from './organization-form.ts';

const ORG = 'tenant-management.organizations';

export interface OrganizationAbilities {
  accountIndex: number;
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  /** The users of an organisation come from the users list, which has its own permission. */
  canViewUsers: boolean;
  canViewRoles: boolean;
}

/**
 * What the signed-in account may do here. Only hides buttons and makes forms read-only: the
 * service checks every call anyway.
 */
export function useOrganizationAbilities(): OrganizationAbilities {
  const { accountIndex = '0' } = useParams();
  const permissions = SessionActorContext.useSelector(
    (s) => s.context.accounts.find((a) => String(a.accountIndex) === accountIndex)?.permissions,
  );
  return useMemo(() => {
    const held = permissions ?? [];
    const can = (permission: string) => isAllowed(held, { anyOf: [[permission]] });
    return {
      accountIndex: Number(accountIndex),
      canCreate: can(`${ORG}.create`),
      canUpdate: can(`${ORG}.update`),
      canDelete: can(`${ORG}.delete`),
      canViewUsers: can('tenant-management.users.view'),
      canViewRoles: can('identity-management.roles.view'),
    };
  }, [accountIndex, permissions]);
}

export type Loadable<T> =
  { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed' };

/**
 * The tenant's organisation custom schema (empty when it has none). A failure is reported, not
 * swallowed: creating an organisation without the required custom fields would only fail later.
 */
export function useOrganizationCustomFields(accountIndex: number): Loadable<CustomField[]> {
  const [state, setState] = useState<Loadable<CustomField[]>>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    getOrganizationSchema(accountIndex, controller.signal)
      .then((schema) => setState({ status: 'ready', value: customFieldsOf(schema?.fields) }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('organisation schema failed', error);
        setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [accountIndex]);
  return state;
}

/** Roles an invitation may carry; roles without permissions are hidden (spec, role filtering). */
export function useInvitationRoles(accountIndex: number, enabled: boolean): RoleRef[] | null {
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
