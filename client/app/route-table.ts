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
  | 'menu.user'
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
  | 'menu.product_settings'
  | 'menu.product_language'
  | 'menu.groups.insurance'
  | 'menu.customers'
  | 'menu.customer'
  | 'menu.partner'
  | 'menu.customer_new'
  | 'menu.policy_create'
  | 'menu.partners'
  | 'menu.policies'
  | 'menu.policy'
  | 'menu.leads'
  | 'menu.lead'
  | 'menu.application_create'
  | 'menu.application_edit'
  | 'menu.application_view'
  | 'menu.claims'
  | 'menu.claim'
  | 'menu.claim_new'
  | 'menu.documents'
  | 'menu.groups.processes'
  | 'menu.workflows'
  | 'menu.workflow_new'
  | 'menu.workflow'
  | 'menu.workflow_monitor'
  | 'menu.workflow_instance'
  | 'menu.bpmn_example'
  | 'menu.groups.finance'
  | 'menu.invoices'
  | 'menu.invoice'
  | 'menu.finance_report'
  | 'menu.finance_reports'
  | 'menu.bank_transactions'
  | 'menu.bank_orders'
  | 'menu.decision_tables'
  | 'menu.decision_table'
  | 'menu.email_templates'
  | 'menu.email_template'
  | 'menu.document_templates'
  | 'menu.docx_templates'
  | 'menu.document_template'
  | 'menu.static_documents';

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
  // E-mail and document templates (issue 19): the current permission or its legacy eis.* form.
  emailTemplates: { anyOf: [['document-management.templates.view'], ['eis.templates.view']] },
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
  // A product's languages: the product and its translations, each in either form.
  productLanguages: {
    anyOf: [
      ['policy-management.products.view', 'translation-management.translations.view'],
      ['policy-management.products.view', 'eis.translations.view'],
      ['eis.products.view', 'translation-management.translations.view'],
      ['eis.products.view', 'eis.translations.view'],
    ],
  },
  // The insurance services accept the legacy eis.* names too (docs/contracts.md, issue 4).
  customers: { anyOf: [['account-management.accounts.view'], ['eis.accounts.view']] },
  customerCreate: {
    anyOf: [
      ['account-management.accounts.view', 'account-management.accounts.create'],
      ['eis.accounts.view', 'eis.accounts.create'],
    ],
  },
  partners: { anyOf: [['partner-management.partners.view'], ['eis.partners.view']] },
  // Selling a policy to a customer: the customer is read, the product's tariff generates the
  // form, the policy is created (docs/contracts.md, "Insurance: applications and premium quotes").
  policyCreate: {
    anyOf: [
      [
        'policy-management.policies.create',
        'account-management.accounts.view',
        'policy-management.products.view',
      ],
      ['eis.policies.create', 'eis.accounts.view', 'eis.products.view'],
    ],
  },
  policies: { anyOf: [['policy-management.policies.view'], ['eis.policies.view']] },
  leads: { anyOf: [['policy-management.leads.view'], ['eis.leads.view']] },
  // The application form is built from the product's fields: it needs them too.
  applicationCreate: {
    anyOf: [
      ['policy-management.leads.create', 'policy-management.products.view'],
      ['eis.leads.create', 'eis.products.view'],
    ],
  },
  applicationEdit: {
    anyOf: [
      ['policy-management.leads.update', 'policy-management.products.view'],
      ['eis.leads.update', 'eis.products.view'],
    ],
  },
  applicationView: {
    anyOf: [
      ['policy-management.leads.view', 'policy-management.products.view'],
      ['eis.leads.view', 'eis.products.view'],
    ],
  },
  claims: { anyOf: [['claim-management.claims.view'], ['eis.claims.view']] },
  claimCreate: {
    anyOf: [
      ['claim-management.claims.view', 'claim-management.claims.create'],
      ['eis.claims.view', 'eis.claims.create'],
    ],
  },
  // Document search: the documents, and the products to choose one from (the spec requires one).
  documents: {
    anyOf: [
      ['document-management.documents.view', 'policy-management.products.view'],
      ['document-management.documents.view', 'eis.products.view'],
      ['eis.documents.view', 'policy-management.products.view'],
      ['eis.documents.view', 'eis.products.view'],
    ],
  },
  // Workflows and decision tables (issue 17): the decision tables share the workflows' rights,
  // as the process manager checks them.
  workflows: { anyOf: [['process-management.workflows.view']] },
  workflowCreate: {
    anyOf: [['process-management.workflows.view', 'process-management.workflows.create']],
  },
  // Billing (issue 18, docs/contracts.md "Billing and payments"): the current name or the legacy
  // eis.finance.* one, as the billing service accepts both.
  invoices: { anyOf: [['billing-management.invoices.view'], ['eis.finance.invoices.view']] },
  // The finance report of the finance area: the invoices' readers, and the holders of the legacy
  // finance-dashboards permission, for whom it stands in for the reports entry below.
  financeReport: {
    anyOf: [
      ['billing-management.invoices.view'],
      ['eis.finance.invoices.view'],
      ['eis.finance-dashboards.view'],
    ],
  },
  // Spec, section 6: the reports entry is hidden from holders of eis.finance-dashboards.view.
  financeReports: {
    anyOf: [['reporting.dashboards.view', 'billing-management.invoices.view']],
    forbidden: ['eis.finance-dashboards.view'],
  },
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
  productSettings: {
    id: 'product-settings',
    path: 'management/product-settings',
    label: 'menu.product_settings',
    product: 'eis',
    rule: rules.products,
    load: () => import('#client/features/products/product-settings-page.tsx'),
  },
  customers: {
    id: 'customers',
    path: 'customers',
    label: 'menu.customers',
    product: 'eis',
    rule: rules.customers,
    load: () => import('#client/features/customers/customers-page.tsx'),
  },
  leads: {
    id: 'leads',
    path: 'leads',
    label: 'menu.leads',
    product: 'eis',
    rule: rules.leads,
    load: () => import('#client/features/leads/leads-page.tsx'),
  },
  partners: {
    id: 'partners',
    path: 'partners',
    label: 'menu.partners',
    product: 'eis',
    rule: rules.partners,
    load: () => import('#client/features/customers/partners-page.tsx'),
  },
  policies: {
    id: 'policies',
    path: 'policies',
    label: 'menu.policies',
    product: 'eis',
    rule: rules.policies,
    load: () => import('#client/features/policies/policies-page.tsx'),
  },
  claims: {
    id: 'claims',
    path: 'claims',
    label: 'menu.claims',
    product: 'eis',
    rule: rules.claims,
    load: () => import('#client/features/claims/claims-page.tsx'),
  },
  documents: {
    id: 'documents',
    path: 'documents',
    label: 'menu.documents',
    product: 'eis',
    rule: rules.documents,
    load: () => import('#client/features/documents/documents-page.tsx'),
  },
  workflows: {
    id: 'workflows',
    path: 'management/workflow-editor',
    label: 'menu.workflows',
    product: 'eis',
    rule: rules.workflows,
    load: () => import('#client/features/workflow-editor/workflows-page.tsx'),
  },
  workflowMonitor: {
    id: 'workflow-monitor',
    path: 'management/workflow-monitor',
    label: 'menu.workflow_monitor',
    product: 'eis',
    rule: rules.workflows,
    load: () => import('#client/features/workflow-monitor/monitor-page.tsx'),
  },
  // Spec: /editor/emails, the e-mail template editor: the list, each template opens its editor.
  emailTemplates: {
    id: 'email-templates',
    path: 'editor/emails',
    label: 'menu.email_templates',
    product: 'eis',
    rule: rules.emailTemplates,
    load: () => import('#client/features/email-templates/templates-page.tsx'),
  },
  // Spec: /editor/documents, the document template editor: the list, each opens its editor.
  documentTemplates: {
    id: 'document-templates',
    path: 'editor/documents',
    label: 'menu.document_templates',
    product: 'eis',
    rule: rules.emailTemplates,
    load: () => import('#client/features/document-templates/templates-page.tsx'),
  },
  // Spec: /editor/docx-documents, the docx document editor: Word templates filled with a record.
  docxTemplates: {
    id: 'docx-templates',
    path: 'editor/docx-documents',
    label: 'menu.docx_templates',
    product: 'eis',
    rule: rules.emailTemplates,
    load: () => import('#client/features/docx-templates/docx-templates-page.tsx'),
  },
  // Spec: /editor/static-documents; one route for list and editor (`?document=key`, decision 020).
  staticDocuments: {
    id: 'static-documents',
    path: 'editor/static-documents',
    label: 'menu.static_documents',
    product: 'eis',
    rule: rules.emailTemplates,
    load: () => import('#client/features/static-documents/static-documents-page.tsx'),
  },
  // Not in the spec's route table: decision tables are edited beside the workflows that use them.
  decisionTables: {
    id: 'decision-tables',
    path: 'management/decision-tables',
    label: 'menu.decision_tables',
    product: 'eis',
    rule: rules.workflows,
    load: () => import('#client/features/decision-tables/decision-tables-page.tsx'),
  },
  bpmnExample: {
    id: 'bpmn-example',
    path: 'management/bpmn-example',
    label: 'menu.bpmn_example',
    product: 'eis',
    rule: rules.workflows,
    load: () => import('#client/features/workflow-editor/bpmn-example-page.tsx'),
  },
  invoices: {
    id: 'invoices',
    path: 'finance-management/finance-invoices',
    label: 'menu.invoices',
    product: 'eis',
    rule: rules.invoices,
    load: () => import('#client/features/finance/invoices-page.tsx'),
  },
  financeReport: {
    id: 'finance-report',
    path: 'finance-management/finance-report',
    label: 'menu.finance_report',
    product: 'eis',
    rule: rules.financeReport,
    load: () => import('#client/features/finance/finance-report-page.tsx'),
  },
  financeReports: {
    id: 'finance-reports',
    path: 'finance-reports',
    label: 'menu.finance_reports',
    product: 'eis',
    rule: rules.financeReports,
    load: () => import('#client/features/finance/finance-report-page.tsx'),
  },
  // The spec's embedded apps (docs/decisions/015-bank-pages.md), for the invoices' readers.
  bankTransactions: {
    id: 'bank-transactions',
    path: 'bank/transactions',
    label: 'menu.bank_transactions',
    product: 'eis',
    rule: rules.invoices,
    load: () =>
      import('#client/features/finance/bank-page.tsx').then((m) => ({
        default: m.BankTransactionsPage,
      })),
  },
  bankOrders: {
    id: 'bank-orders',
    path: 'bank/orders',
    label: 'menu.bank_orders',
    product: 'eis',
    rule: rules.invoices,
    load: () =>
      import('#client/features/finance/bank-page.tsx').then((m) => ({
        default: m.BankOrdersPage,
      })),
  },
} satisfies Record<string, ScreenRoute>;

export const menu: MenuGroup[] = [
  {
    id: 'overview',
    label: 'menu.groups.overview',
    items: [
      { kind: 'screen', screen: screens.home },
      { kind: 'screen', screen: screens.financeReports },
    ],
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
      { kind: 'screen', screen: screens.policies },
      { kind: 'screen', screen: screens.leads },
      { kind: 'screen', screen: screens.claims },
      { kind: 'screen', screen: screens.partners },
      { kind: 'screen', screen: screens.documents },
    ],
  },
  {
    id: 'finance',
    label: 'menu.groups.finance',
    items: [
      { kind: 'screen', screen: screens.invoices },
      { kind: 'screen', screen: screens.financeReport },
      { kind: 'screen', screen: screens.bankTransactions },
      { kind: 'screen', screen: screens.bankOrders },
    ],
  },
  {
    id: 'products',
    label: 'menu.groups.products',
    items: [
      { kind: 'screen', screen: screens.productList },
      { kind: 'screen', screen: screens.productSettings },
    ],
  },
  {
    id: 'processes',
    label: 'menu.groups.processes',
    items: [
      { kind: 'screen', screen: screens.workflows },
      { kind: 'screen', screen: screens.workflowMonitor },
      { kind: 'screen', screen: screens.decisionTables },
    ],
  },
  {
    id: 'administration',
    label: 'menu.groups.administration',
    items: [
      { kind: 'screen', screen: screens.users },
      { kind: 'screen', screen: screens.roles },
      { kind: 'screen', screen: screens.organizations },
      { kind: 'screen', screen: screens.emailTemplates },
      { kind: 'screen', screen: screens.documentTemplates },
      { kind: 'screen', screen: screens.docxTemplates },
      { kind: 'screen', screen: screens.staticDocuments },
    ],
  },
];

/** The menu's screens' paths: none has a parameter (detail-routes.ts holds those). */
export const menuScreenPaths = new Set(Object.values(screens).map((s) => s.path));

/** Paths that exist outside /u and are sent into it under /u/0 (spec, routing structure). */
// By first segment: a nested screen path (admin/users) is recognised by its first part, and
// every detail screen's path starts as a menu screen's does (detail-routes.test.ts).
export const screenPaths = new Set([...menuScreenPaths].map((path) => path.split('/')[0]!));
