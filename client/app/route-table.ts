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
  | 'menu.groups.account'
  | 'menu.users'
  | 'menu.groups.administration'
  | 'menu.roles'
  | 'menu.role_new'
  | 'menu.role'
  | 'menu.effective_permissions'
  | 'menu.organizations'
  | 'menu.organization_new'
  | 'menu.organization'
  | 'menu.groups.products'
  | 'menu.product_list'
  | 'menu.product'
  | 'menu.product_version'
  | 'menu.groups.insurance'
  | 'menu.customers'
  | 'menu.customer'
  | 'menu.partners';

export interface ScreenRoute {
  id: string;
  /** Relative to /u/{accountIndex}. */
  path: string;
  label: ShellLabelKey;
  product: Product;
  rule: PermissionRule;
  /** The screen this one is opened from (breadcrumbs: Roles / Role); not in the menu itself. */
  parent?: ScreenRoute;
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
  users: { anyOf: [['tenant-management.users.view']] },
  roles: { anyOf: [['identity-management.roles.view']] },
  roleCreate: { anyOf: [['identity-management.roles.view', 'identity-management.roles.create']] },
  organizations: { anyOf: [['tenant-management.organizations.view']] },
  organizationCreate: {
    anyOf: [['tenant-management.organizations.view', 'tenant-management.organizations.create']],
  },
  // Product management (issue 4): the current permission or its legacy eis.* form.
  products: { anyOf: [['policy-management.products.view'], ['eis.products.view']] },
  // The insurance services accept the legacy eis.* names too (docs/contracts.md, issue 4).
  customers: { anyOf: [['account-management.accounts.view'], ['eis.accounts.view']] },
  partners: { anyOf: [['partner-management.partners.view'], ['eis.partners.view']] },
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
  users: {
    id: 'users',
    path: 'admin/users',
    label: 'menu.users',
    product: 'eis',
    rule: rules.users,
    load: () => import('#client/features/admin-users/users-page.tsx'),
  },
  roles: {
    id: 'roles',
    path: 'admin/roles',
    label: 'menu.roles',
    product: 'eis',
    rule: rules.roles,
    load: () => import('#client/features/admin-roles/roles-page.tsx'),
  },
  organizations: {
    id: 'organizations',
    path: 'admin/organizations',
    label: 'menu.organizations',
    product: 'eis',
    rule: rules.organizations,
    load: () => import('#client/features/admin-organizations/organizations-page.tsx'),
  },
  productList: {
    id: 'product-list',
    path: 'management/product-list',
    label: 'menu.product_list',
    product: 'eis',
    rule: rules.products,
    load: () => import('#client/features/products/products-page.tsx'),
  },
  customers: {
    id: 'customers',
    path: 'customers',
    label: 'menu.customers',
    product: 'eis',
    rule: rules.customers,
    load: () => import('#client/features/customers/customers-page.tsx'),
  },
  partners: {
    id: 'partners',
    path: 'partners',
    label: 'menu.partners',
    product: 'eis',
    rule: rules.partners,
    load: () => import('#client/features/customers/partners-page.tsx'),
  },
} satisfies Record<string, ScreenRoute>;

/** Screens opened from another screen: routed and guarded like the rest, not in the menu. */
export const detailScreens = {
  roleNew: {
    id: 'role-new',
    path: 'admin/roles/new',
    label: 'menu.role_new',
    product: 'eis',
    rule: rules.roleCreate,
    parent: screens.roles,
    load: () => import('#client/features/admin-roles/role-editor-page.tsx'),
  },
  role: {
    id: 'role',
    path: 'admin/roles/:roleId',
    label: 'menu.role',
    product: 'eis',
    rule: rules.roles,
    parent: screens.roles,
    load: () => import('#client/features/admin-roles/role-editor-page.tsx'),
  },
  effectivePermissions: {
    id: 'effective-permissions',
    path: 'admin/users/:userId/permissions',
    label: 'menu.effective_permissions',
    product: 'eis',
    rule: rules.users,
    parent: screens.users,
    load: () => import('#client/features/admin-roles/effective-permissions-page.tsx'),
  },
  organizationNew: {
    id: 'organization-new',
    path: 'admin/organizations/new',
    label: 'menu.organization_new',
    product: 'eis',
    rule: rules.organizationCreate,
    parent: screens.organizations,
    load: () => import('#client/features/admin-organizations/organization-new-page.tsx'),
  },
  organization: {
    id: 'organization',
    path: 'admin/organizations/:organizationId',
    label: 'menu.organization',
    product: 'eis',
    rule: rules.organizations,
    parent: screens.organizations,
    load: () => import('#client/features/admin-organizations/organization-page.tsx'),
  },
  product: {
    id: 'product',
    path: 'management/product/:productId',
    label: 'menu.product',
    product: 'eis',
    rule: rules.products,
    parent: screens.productList,
    load: () => import('#client/features/products/product-page.tsx'),
  },
  productVersion: {
    id: 'product-version',
    path: 'management/product/:productId/:versionId',
    label: 'menu.product_version',
    product: 'eis',
    rule: rules.products,
    parent: screens.productList,
    load: () => import('#client/features/products/version-page.tsx'),
  },
  customer: {
    id: 'customer',
    path: 'customers/:customerCode',
    label: 'menu.customer',
    product: 'eis',
    rule: rules.customers,
    parent: screens.customers,
    load: () => import('#client/features/customers/customer-page.tsx'),
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
  {
    id: 'insurance',
    label: 'menu.groups.insurance',
    items: [
      { kind: 'screen', screen: screens.customers },
      { kind: 'screen', screen: screens.partners },
    ],
  },
  {
    id: 'products',
    label: 'menu.groups.products',
    items: [{ kind: 'screen', screen: screens.productList }],
  },
  {
    id: 'administration',
    label: 'menu.groups.administration',
    items: [
      { kind: 'screen', screen: screens.users },
      { kind: 'screen', screen: screens.roles },
      { kind: 'screen', screen: screens.organizations },
    ],
  },
];

export const allScreens: ScreenRoute[] = [
  ...Object.values(screens),
  ...Object.values(detailScreens),
];

/** Paths that exist outside /u and are sent into it under /u/0 (spec, routing structure). */
// By first segment: a nested screen path (admin/users) is recognised by its first part.
export const screenPaths = new Set(allScreens.map((s) => s.path.split('/')[0]!));
