import { getEffectivePermissions, getRole, getUserWithRoles } from './roles-client.ts';
import { accountKey, keyedQuery } from './query-keys.ts';

/** The keys and loads of roles and of what a user's roles grant, defined once. */
export const roleQueries = {
  /** Everything of the roles: invalidated after a role is created, saved or deleted. */
  all: (accountIndex: number) => [...accountKey(accountIndex), 'roles'] as const,
  detail: (accountIndex: number, roleId: string) =>
    keyedQuery(
      [...roleQueries.all(accountIndex), 'detail', roleId],
      async (signal) => (await getRole(accountIndex, roleId, signal)).role,
    ),
  /** A user with their roles and the permissions those grant (with the roles granting each). */
  effective: (accountIndex: number, userId: string) =>
    keyedQuery([...roleQueries.all(accountIndex), 'effective', userId], async (signal) => {
      const [{ user }, { items }] = await Promise.all([
        getUserWithRoles(accountIndex, userId, signal),
        getEffectivePermissions(accountIndex, userId, signal),
      ]);
      return { user, items };
    }),
};
