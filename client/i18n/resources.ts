import common from '#locales/en/common.json';
import errors from '#locales/en/errors.json';
import session from '#locales/en/session.json';
import shell from '#locales/en/shell.json';
import ui from '#locales/en/ui.json';

/**
 * English is the default language. The namespaces of sign-in and the shell are bundled (no request
 * before the first paint); a feature's namespace is its own chunk, fetched with the feature, so
 * that every new screen does not grow the sign-in bundle.
 */
export const bundledEnglish = { common, errors, session, shell, ui } as const;

export const lazyEnglish = {
  // The help and profile pages' own texts: no part of the shell reads them.
  help: () => import('#locales/en/help.json'),
  profile: () => import('#locales/en/profile.json'),
  kit: () => import('#locales/en/kit.json'),
  admin_users: () => import('#locales/en/admin_users.json'),
  admin_roles: () => import('#locales/en/admin_roles.json'),
  admin_organizations: () => import('#locales/en/admin_organizations.json'),
  tenant_settings: () => import('#locales/en/tenant_settings.json'),
  registration: () => import('#locales/en/registration.json'),
  password_reset: () => import('#locales/en/password_reset.json'),
  products: () => import('#locales/en/products.json'),
  customers: () => import('#locales/en/customers.json'),
  list_views: () => import('#locales/en/list_views.json'),
  applications: () => import('#locales/en/applications.json'),
  policies: () => import('#locales/en/policies.json'),
  leads: () => import('#locales/en/leads.json'),
  documents: () => import('#locales/en/documents.json'),
  claims: () => import('#locales/en/claims.json'),
  payment_methods: () => import('#locales/en/payment_methods.json'),
  decision_tables: () => import('#locales/en/decision_tables.json'),
  workflow_monitor: () => import('#locales/en/workflow_monitor.json'),
  workflows: () => import('#locales/en/workflows.json'),
  bpmn_js: () => import('#locales/en/bpmn_js.json'),
  finance: () => import('#locales/en/finance.json'),
  templates: () => import('#locales/en/templates.json'),
} as const;

type LazyResources = {
  [K in keyof typeof lazyEnglish]: Awaited<ReturnType<(typeof lazyEnglish)[K]>>['default'];
};

/** The keys' types come from English: every namespace, bundled or not. */
export type EnglishResources = typeof bundledEnglish & LazyResources;

export const bundledNamespaces = Object.keys(bundledEnglish) as (keyof typeof bundledEnglish)[];
export type Namespace = keyof EnglishResources;

export function isLazyNamespace(namespace: string): namespace is keyof typeof lazyEnglish {
  return Object.hasOwn(lazyEnglish, namespace);
}
