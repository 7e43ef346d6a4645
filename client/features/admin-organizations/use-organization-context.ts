import { useEffect, useMemo, useState } from 'react';
import { getOrganizationSchema } from '#client/api/organizations-client.ts';
import { useAccountAccess } from '#client/api/use-account-access.ts';
import { useLocalizedFields } from '#client/i18n/translated-text.ts';
import type { CustomField } from '#client/ui/form/custom-schema.ts';
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

/** What the signed-in account may do here (hides buttons only; see `useAccountAccess`). */
export function useOrganizationAbilities(): OrganizationAbilities {
  const { accountIndex, can } = useAccountAccess();
  return useMemo(
    () => ({
      accountIndex,
      canCreate: can(`${ORG}.create`),
      canUpdate: can(`${ORG}.update`),
      canDelete: can(`${ORG}.delete`),
      canViewUsers: can('tenant-management.users.view'),
      canViewRoles: can('identity-management.roles.view'),
    }),
    [accountIndex, can],
  );
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
  // Labels in the user's language for every screen that shows the fields.
  const localized = useLocalizedFields(state.status === 'ready' ? state.value : null);
  return useMemo<Loadable<CustomField[]>>(
    () => (localized ? { status: 'ready', value: localized } : state),
    [localized, state],
  );
}
