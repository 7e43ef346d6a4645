import { describe, expect, it } from 'vitest';
import { firstScreen, visibleMenu } from './menu-access.ts';

const viewer = ['ui.eis.view', 'tenant-management.tenants.view', 'tenant-management.settings.view'];

describe('menu access', () => {
  it('shows everything to the admin wildcard', () => {
    const ids = visibleMenu(['*.*.*']).flatMap((g) =>
      g.items.flatMap((i) => (i.kind === 'screen' ? [i.screen.id] : i.children.map((c) => c.id))),
    );
    expect(ids).toEqual([
      'home',
      'finance-reports',
      'profile',
      'settings',
      'customers',
      'policies',
      'leads',
      'claims',
      'partners',
      'documents',
      'invoices',
      'finance-report',
      'bank-transactions',
      'bank-orders',
      'product-list',
      'product-settings',
      'workflows',
      'workflow-monitor',
      'decision-tables',
      'users',
      'roles',
      'organizations',
      'email-templates',
      'document-templates',
      'docx-templates',
      'static-documents',
    ]);
  });

  it('shows the e-mail and document templates with their view permission, in either form', () => {
    const ids = (held: string[]) =>
      visibleMenu(held).flatMap((g) =>
        g.items.flatMap((i) => (i.kind === 'screen' ? [i.screen.id] : [])),
      );
    expect(ids(['document-management.templates.view'])).toEqual([
      'email-templates',
      'document-templates',
      'docx-templates',
      'static-documents',
    ]);
    expect(ids(['eis.templates.view'])).toEqual([
      'email-templates',
      'document-templates',
      'docx-templates',
      'static-documents',
    ]);
    expect(ids(['document-management.documents.view'])).not.toContain('email-templates');
    expect(ids(['document-management.documents.view'])).not.toContain('document-templates');
  });

  it('hides entries the user lacks and keeps a sub-menu with what is left', () => {
    const groups = visibleMenu(viewer);
    const account = groups.find((g) => g.id === 'account')!;
    const sub = account.items[0]!;
    expect(sub.kind === 'submenu' && sub.children.map((c) => c.id)).toEqual(['profile']);
  });

  it('opens the dashboard first, or nothing without UI permission', () => {
    expect(firstScreen(viewer)?.id).toBe('home');
    expect(firstScreen(['notification-management.notifications.view'])).toBeUndefined();
    // A finance clerk without the dashboard lands on the invoices (issue 18), in either form.
    expect(firstScreen(['billing-management.invoices.view'])?.id).toBe('invoices');
    expect(firstScreen(['eis.finance.invoices.view'])?.id).toBe('invoices');
    // Spec, section 6: the reports entry is hidden from holders of the finance dashboards,
    // who read the finance area's report instead.
    const reader = ['reporting.dashboards.view', 'billing-management.invoices.view'];
    const ids = (held: string[]) =>
      visibleMenu(held).flatMap((g) =>
        g.items.flatMap((i) => (i.kind === 'screen' ? [i.screen.id] : [])),
      );
    expect(ids(reader)).toContain('finance-reports');
    expect(ids([...reader, 'eis.finance-dashboards.view'])).not.toContain('finance-reports');
    expect(ids(['eis.finance-dashboards.view'])).toEqual(['finance-report']);
    // A claims handler without the dashboard lands on the claims, in either permission form.
    expect(firstScreen(['claim-management.claims.view'])?.id).toBe('claims');
    expect(firstScreen(['eis.claims.view'])?.id).toBe('claims');
    // Creating claims needs reading them too: the new claim opens its detail.
    expect(visibleMenu(['claim-management.claims.create'])).toEqual([]);
    // The legacy form opens the policies as the current one does.
    expect(firstScreen(['eis.policies.view'])?.id).toBe('policies');
    expect(visibleMenu([])).toEqual([]);
  });
});
