import { describe, expect, it } from 'vitest';
import {
  CATALOGUE_PERMISSIONS,
  PERMISSION_CATALOGUE,
  filterableModules,
  moduleOf,
  roleIsVisible,
  visibleModules,
} from './permission-catalogue.ts';

describe('the catalogue', () => {
  it('has the spec’s modules, unique names and a box for every action of every resource', () => {
    const modules = PERMISSION_CATALOGUE.map((m) => m.module);
    expect(new Set(modules).size).toBe(modules.length);
    for (const module of [
      'policy-management',
      'partner-management',
      'claim-management',
      'document-management',
      'tenant-management',
      'identity-management',
      'payment-management',
      'billing-management',
      'process-management',
      'translation-management',
      'reporting',
      'ui',
    ]) {
      expect(modules).toContain(module);
    }
    expect(CATALOGUE_PERMISSIONS.has('identity-management.roles.*')).toBe(true);
    expect(CATALOGUE_PERMISSIONS.has('claim-management.claims.view')).toBe(true);
    expect(CATALOGUE_PERMISSIONS.has('process-management.workflows.run')).toBe(false);
    const boxes = PERMISSION_CATALOGUE.reduce((n, m) => n + m.resources.length * 5, 0);
    expect(CATALOGUE_PERMISSIONS.size).toBe(boxes);
  });
});

describe('moduleOf', () => {
  it.each([
    ['policy-management.policies.view', 'policy-management'],
    ['eis_claims_delete', 'eis'],
    ['users:view', '*'],
    ['*.*.*', '*'],
    ['admin', 'admin'],
  ])('%s is in %s', (permission, module) => {
    expect(moduleOf(permission)).toBe(module);
  });
});

describe('visibleModules', () => {
  it.each([
    [['*.*.*']],
    [['admin']],
    [['*']],
    [['ui.eis.view', 'users:view']],
    [['*.claims.update']],
  ])('is all for a wildcard reaching every module: %j', (held) => {
    expect(visibleModules(held)).toBe('all');
  });

  it('is the modules of the held permissions, without the ui module', () => {
    const visible = visibleModules([
      'ui.eis.view',
      'tenant-management.users.view',
      'claim-management.claims.*',
      'claim_management_claims_view',
    ]);
    expect(visible).toEqual(new Set(['tenant-management', 'claim-management']));
  });

  it('is empty for a user holding only the ui permission', () => {
    expect(visibleModules(['ui.eis.view'])).toEqual(new Set());
  });
});

describe('roleIsVisible', () => {
  const visible = new Set(['claim-management', 'tenant-management']);

  it('shows everything for all', () => {
    expect(roleIsVisible(['translation-management.translations.*'], 'all')).toBe(true);
  });

  it('shows roles that reach into a visible module', () => {
    expect(roleIsVisible(['ui.eis.view', 'claim-management.claims.view'], visible)).toBe(true);
    expect(
      roleIsVisible(['policy-management.policies.view', 'tenant-management.users.view'], visible),
    ).toBe(true);
  });

  it('hides roles whose modules the user cannot see; ui does not count', () => {
    expect(roleIsVisible(['ui.eis.view', 'translation-management.translations.*'], visible)).toBe(
      false,
    );
  });

  it('shows wildcard roles, as the service’s module filter does', () => {
    expect(roleIsVisible(['*.*.*'], visible)).toBe(true);
    expect(roleIsVisible(['admin'], visible)).toBe(true);
    expect(roleIsVisible(['*.users.view'], visible)).toBe(true);
  });

  it('shows a role that only opens the interface', () => {
    expect(roleIsVisible(['ui.eis.view'], visible)).toBe(true);
  });
});

describe('filterableModules', () => {
  it('offers the catalogue’s modules without ui for all', () => {
    const modules = filterableModules('all');
    expect(modules[0]).toBe('policy-management');
    expect(modules).not.toContain('ui');
    expect(modules).toHaveLength(PERMISSION_CATALOGUE.length - 1);
  });

  it('offers the visible modules in catalogue order, unknown ones last and sorted', () => {
    expect(
      filterableModules(new Set(['tenant-management', 'eis', 'claim-management', 'brokers'])),
    ).toEqual(['claim-management', 'tenant-management', 'brokers', 'eis']);
  });
});
