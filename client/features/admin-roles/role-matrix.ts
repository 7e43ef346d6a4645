import {
  CATALOGUE_PERMISSIONS,
  PERMISSION_ACTIONS,
  moduleOf,
  permissionOf,
  type MatrixAction,
} from '#common/permission-catalogue.ts';
import { hasPermission, isGlobalWildcard, permissionCovers } from '#common/permissions.ts';

/**
 * The permission matrix of the role editor as pure functions over the role's permission list:
 * the list is the state, the boxes are read from it and write to it. Nothing outside the boxes
 * is lost: permissions that are not in the catalogue pass through untouched.
 */

export interface CellState {
  /** Ticked: the role holds this exact permission, or a broader one that includes it. */
  checked: boolean;
  /** The role's broader permission that includes this box (`claim-management.claims.*`). */
  includedBy: string | null;
}

/** The state of one box for the role's permissions. */
export function cellState(permissions: readonly string[], permission: string): CellState {
  if (permissions.includes(permission)) return { checked: true, includedBy: null };
  const broader = permissions.find((held) => permissionCovers(held, permission));
  return broader === undefined
    ? { checked: false, includedBy: null }
    : { checked: true, includedBy: broader };
}

/**
 * Ticks or unticks one box. Ticking `*` of a resource drops that resource's single actions: they
 * are included, and keeping them would leave boxes that cannot be seen or unticked.
 */
export function toggleCell(
  permissions: readonly string[],
  module: string,
  resource: string,
  action: MatrixAction,
  on: boolean,
): string[] {
  const permission = permissionOf(module, resource, action);
  const without = permissions.filter((p) => p !== permission);
  if (!on) return without;
  const kept =
    action === '*'
      ? without.filter(
          (p) => !PERMISSION_ACTIONS.some((single) => p === permissionOf(module, resource, single)),
        )
      : without;
  return [...kept, permission];
}

/** The role's permissions that have no box: shown in their own list and kept on save. */
export function extraPermissions(permissions: readonly string[]): string[] {
  return permissions.filter((p) => !CATALOGUE_PERMISSIONS.has(p));
}

/** The same set, in any order? (unsaved changes) */
export function samePermissions(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((p) => right.has(p));
}

/**
 * May the signed-in user set this box? Nobody grants a permission they do not hold (the service
 * answers 403 `escalation`), and nobody takes one away that they could not grant either.
 */
export function isGrantable(held: readonly string[], permission: string): boolean {
  return hasPermission(held, permission);
}

/** The permissions of a role that the signed-in user does not hold (they make it unchangeable). */
export function ungrantable(held: readonly string[], permissions: readonly string[]): string[] {
  return permissions.filter((p) => !isGrantable(held, p));
}

export interface PermissionSummary {
  /** The role holds a global wildcard: everything. */
  all: boolean;
  total: number;
  /** Permissions per module, in first-seen order. */
  modules: { module: string; count: number }[];
}

/** What the roles list shows in its permission column. */
export function summarizePermissions(permissions: readonly string[]): PermissionSummary {
  const counts = new Map<string, number>();
  for (const permission of permissions) {
    const module = moduleOf(permission);
    counts.set(module, (counts.get(module) ?? 0) + 1);
  }
  return {
    all: permissions.some(isGlobalWildcard),
    total: permissions.length,
    modules: [...counts].map(([module, count]) => ({ module, count })),
  };
}
