import { isGlobalWildcard, normalizePermission } from './permissions.ts';

/**
 * The permissions the role editor offers as a matrix: modules, their resources, and the actions
 * of the spec (section 6: `module.resource.action`, action one of view, create, update, delete,
 * `*`). The upstream has no catalogue endpoint, so this list is the client's knowledge of the
 * modules: those named in the spec's examples, those the sandbox checks, and the insurance
 * modules of the domain document. Roles may hold permissions outside it (legacy `eis.*`, other
 * actions such as `process-management.workflows.run`); the editor shows and keeps them as they
 * are, and the service accepts any well-formed permission, so a module added upstream before it
 * is added here still works.
 */

export const PERMISSION_ACTIONS = ['view', 'create', 'update', 'delete'] as const;
/** The matrix columns: the four actions and `*`, all actions of the resource. */
export const MATRIX_ACTIONS = [...PERMISSION_ACTIONS, '*'] as const;
export type MatrixAction = (typeof MATRIX_ACTIONS)[number];

export interface CatalogueModule {
  module: string;
  resources: readonly string[];
}

/** In the order the editor shows them: the insurance suite first, administration last. */
export const PERMISSION_CATALOGUE: readonly CatalogueModule[] = [
  {
    module: 'policy-management',
    resources: ['products', 'product-versions', 'premium-formulas', 'policies', 'leads'],
  },
  { module: 'account-management', resources: ['accounts'] },
  { module: 'partner-management', resources: ['partners', 'brokers'] },
  { module: 'claim-management', resources: ['claims'] },
  { module: 'document-management', resources: ['documents', 'templates'] },
  { module: 'payment-management', resources: ['payment-methods', 'bank-accounts'] },
  { module: 'billing-management', resources: ['invoices'] },
  { module: 'process-management', resources: ['workflows'] },
  { module: 'translation-management', resources: ['translations'] },
  { module: 'reporting', resources: ['dashboards'] },
  { module: 'notification-management', resources: ['notifications'] },
  {
    module: 'tenant-management',
    resources: ['tenants', 'users', 'organizations', 'settings'],
  },
  { module: 'identity-management', resources: ['roles'] },
  // The user-interface permissions (`ui.eis.view` opens the insurance suite).
  { module: 'ui', resources: ['eis', 'pbm', 'admin'] },
];

/** The module that grants access to the user interface itself, not to any data. */
export const UI_MODULE = 'ui';

export function permissionOf(module: string, resource: string, action: MatrixAction): string {
  return `${module}.${resource}.${action}`;
}

/** Every permission string the matrix has a box for. */
export const CATALOGUE_PERMISSIONS: ReadonlySet<string> = new Set(
  PERMISSION_CATALOGUE.flatMap(({ module, resources }) =>
    resources.flatMap((resource) =>
      MATRIX_ACTIONS.map((action) => permissionOf(module, resource, action)),
    ),
  ),
);

/** The module part of a permission in any accepted form (`*` for `*.claims.update`). */
export function moduleOf(permission: string): string {
  return normalizePermission(permission).split('.')[0] ?? '';
}

/** 'all' or the modules by name. */
export type VisibleModules = 'all' | ReadonlySet<string>;

/**
 * The modules a user may see (spec, role filtering: "limited to modules a user may see; 'all'
 * means everything"). Decision: a user sees a module when they hold any permission in it (a
 * `view` is enough). A global wildcard (`*.*.*`, `admin`, ...) or a permission whose module is
 * `*` (`*.users.view`, from the colon form `users:view`) reaches every module: 'all'. The `ui`
 * module is left out: every user of the screens holds `ui.eis.view`, and it opens the interface,
 * it shows no module's data.
 */
export function visibleModules(held: readonly string[]): VisibleModules {
  const modules = new Set<string>();
  for (const permission of held) {
    if (isGlobalWildcard(permission)) return 'all';
    const module = moduleOf(permission);
    if (module === '*') return 'all';
    if (module !== '' && module !== UI_MODULE) modules.add(module);
  }
  return modules;
}

/**
 * Does a role belong in a list limited to the visible modules? When it reaches into one of them,
 * as the service's `module` filter decides it (a wildcard module reaches every module). A role
 * that holds only `ui` permissions opens the interface and shows nothing: everyone may see it.
 */
export function roleIsVisible(permissions: readonly string[], visible: VisibleModules): boolean {
  if (visible === 'all') return true;
  const modules = permissions.map(moduleOf).filter((m) => m !== UI_MODULE);
  if (modules.length === 0) return true;
  return modules.some(
    (module) => module === '*' || visible.has(module) || isGlobalWildcard(module),
  );
}

/** Is a role in the roles list (and its export)? When it grants something and is visible. */
export const roleIsListed = (permissions: readonly string[], visible: VisibleModules): boolean =>
  permissions.length > 0 && roleIsVisible(permissions, visible);

/** The modules for a module filter: the catalogue's (less `ui`) in its order, then the rest. */
export function filterableModules(visible: VisibleModules): string[] {
  const known = PERMISSION_CATALOGUE.map((m) => m.module).filter((m) => m !== UI_MODULE);
  if (visible === 'all') return known;
  const others = [...visible].filter((m) => !known.includes(m)).sort();
  return [...known.filter((m) => visible.has(m)), ...others];
}
