import { queryOptions } from '@tanstack/react-query';
import { getEffectivePermissions, getRole, getUserWithRoles } from './roles-client.ts';
import { accountKey } from './query-keys.ts';

/** The keys and loads of roles and of what a user's roles grant, defined once. */
export const roleQueries = {
  /** Everything of the roles: invalidated after a role is created, saved or deleted. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'roles'] as const,
  detail: (accountIndex: number, roleId: string) =>
    queryOptions({
      queryKey: [...roleQueries.all(accountIndex), 'detail', roleId],
      queryFn: async ({ signal }) => (await getRole(accountIndex, roleId, signal)).role,
    }),
  /** A user with their roles and the permissions those grant (with the roles granting each). */
  effective: (accountIndex: number, userId: string) =>
    queryOptions({
      queryKey: [...roleQueries.all(accountIndex), 'effective', userId],
      queryFn: async ({ signal }) => {
        const [{ user }, { items }] = await Promise.all([
          getUserWithRoles(accountIndex, userId, signal),
          getEffectivePermissions(accountIndex, userId, signal),
        ]);
        return { user, items };
      },
    }),
};
