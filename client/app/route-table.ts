import type { PermissionRule } from '#common/permissions.ts';

/**
 * The screens of the authenticated area, declared once: the side menu, the route guards, the
 * breadcrumbs and the "first available menu item" of /u/{i} all read this table. A screen that
 * does not exist yet is not listed (each later issue adds its own).
 */

export type Product = 'eis' | 'pbm';

export type ShellLabelKey =
  | 'menu.home'
  | 'menu.profile'
  | 'menu.settings'
  | 'menu.account'
  | 'menu.groups.overview'
  | 'menu.groups.account';

export interface ScreenRoute {
  id: string;
  /** Relative to /u/{accountIndex}. */
  path: string;
  label: ShellLabelKey;
  product: Product;
  rule: PermissionRule;
  /** Lazy page module; the shell and every screen stay out of the sign-in bundle. */
  load: () => Promise<{ default: React.ComponentType }>;
}

export interface MenuGroup {
  id: string;
  label: ShellLabelKey;
  items: MenuItem[];
}

/** A menu entry is a screen, or a collapsible sub-menu of screens. */
export type MenuItem =
  | { kind: 'screen'; screen: ScreenRoute }
  | { kind: 'submenu'; id: string; label: ShellLabelKey; children: ScreenRoute[] };

/**
 * Permission names (decision, see the report / README):
 * - dashboard: `ui.eis.view`, the UI permission of the insurance suite;
 * - profile: the spec's "get-account" permission is `tenant-management.tenants.view` (reading
 *   one's own account and tenant), which every UI role of the sandbox holds;
 * - settings: `tenant-management.settings.update`, the tenant settings are an administrator's
 *   screen; a read-only user sees the 403 page there.
 */
export const rules = {
  home: { anyOf: [['ui.eis.view']] },
  profile: { anyOf: [['tenant-management.tenants.view']] },
  settings: { anyOf: [['tenant-management.settings.update']] },
} as const satisfies Record<string, PermissionRule>;

export const screens = {
  home: {
    id: 'home',
    path: 'home',
    label: 'menu.home',
    product: 'eis',
    rule: rules.home,
    load: () => import('#client/features/shell-home/home-page.tsx'),
  },
  profile: {
    id: 'profile',
    path: 'profile',
    label: 'menu.profile',
    product: 'eis',
    rule: rules.profile,
    load: () => import('#client/features/profile/profile-page.tsx'),
  },
  settings: {
    id: 'settings',
    path: 'settings',
    label: 'menu.settings',
    product: 'eis',
    rule: rules.settings,
    load: () => import('#client/features/settings/settings-page.tsx'),
  },
} satisfies Record<string, ScreenRoute>;

export const menu: MenuGroup[] = [
  {
    id: 'overview',
    label: 'menu.groups.overview',
    items: [{ kind: 'screen', screen: screens.home }],
  },
  {
    id: 'account',
    label: 'menu.groups.account',
    items: [
      {
        kind: 'submenu',
        id: 'account',
        label: 'menu.account',
        children: [screens.profile, screens.settings],
      },
    ],
  },
];

export const allScreens: ScreenRoute[] = Object.values(screens);

/** Paths that exist outside /u and are sent into it under /u/0 (spec, routing structure). */
export const screenPaths = new Set(allScreens.map((s) => s.path));
