import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hasGlobalWildcard,
  hasPermission,
  hasUiPermission,
  isAllowed,
  isGlobalWildcard,
  normalizePermission,
  parsePermissions,
  permissionCovers,
} from './permissions.ts';

describe('normalizePermission', () => {
  it.each([
    ['policy-management.policies.view', 'policy-management.policies.view'],
    ['  reporting.dashboards.view  ', 'reporting.dashboards.view'],
    ['eis_claims_delete', 'eis.claims.delete'],
    ['document_management_documents_delete', 'document-management.documents.delete'],
    ['policy-management:policies:view', 'policy-management.policies.view'],
    ['users:view', '*.users.view'],
    ['claims_view', '*.claims.view'],
    ['*:*', '*.*.*'],
    ['admin', 'admin'],
    ['*', '*'],
    ['translation-management', 'translation-management'],
    ['payment-management.bank-accounts', 'payment-management.bank-accounts'],
    ['users:', 'users'],
    ['', ''],
  ])('%s -> %s', (input, expected) => {
    expect(normalizePermission(input)).toBe(expected);
  });

  it('keeps hyphens inside names (they are not separators)', () => {
    expect(normalizePermission('tenant-management.users.*')).toBe('tenant-management.users.*');
  });
});

describe('parsePermissions', () => {
  it('splits the upstream comma-separated string, trims and drops empties', () => {
    expect(parsePermissions(' a.b.view, ,eis_claims_delete,,users:view ')).toEqual([
      'a.b.view',
      'eis.claims.delete',
      '*.users.view',
    ]);
  });

  it('accepts a list and normalises each entry', () => {
    expect(parsePermissions(['eis_claims_create', '  ', 'ui.eis.view'])).toEqual([
      'eis.claims.create',
      'ui.eis.view',
    ]);
  });

  it('returns [] for null, undefined and the empty string', () => {
    expect(parsePermissions(null)).toEqual([]);
    expect(parsePermissions(undefined)).toEqual([]);
    expect(parsePermissions('')).toEqual([]);
  });

  it('drops duplicates, including the same permission in two forms', () => {
    expect(parsePermissions('eis.claims.delete,eis_claims_delete,eis:claims:delete')).toEqual([
      'eis.claims.delete',
    ]);
  });
});

describe('hasPermission', () => {
  it('matches exact permissions only when equal', () => {
    expect(
      hasPermission(['policy-management.policies.view'], 'policy-management.policies.view'),
    ).toBe(true);
    expect(
      hasPermission(['policy-management.policies.view'], 'policy-management.policies.update'),
    ).toBe(false);
    expect(hasPermission([], 'policy-management.policies.view')).toBe(false);
  });

  it.each(['*', '*.*', '*.*.*', 'admin', '*:*'])('%s matches everything', (wildcard) => {
    expect(hasPermission([wildcard], 'claim-management.claims.delete')).toBe(true);
    expect(hasPermission([wildcard], 'translation-management')).toBe(true);
    expect(hasPermission([wildcard], 'a.b.c.d')).toBe(true);
  });

  it('a trailing * matches the rest', () => {
    const held = ['partner-management.partners.*'];
    expect(hasPermission(held, 'partner-management.partners.view')).toBe(true);
    expect(hasPermission(held, 'partner-management.partners.delete')).toBe(true);
    expect(hasPermission(held, 'partner-management.partners')).toBe(true);
    expect(hasPermission(held, 'partner-management.brokers.view')).toBe(false);
    expect(hasPermission(['eis.*'], 'eis.finance.dashboards.view')).toBe(true);
    expect(hasPermission(['eis.*'], 'pbm.finance.view')).toBe(false);
  });

  it('a * segment matches any one segment', () => {
    expect(hasPermission(['*.users.view'], 'tenant-management.users.view')).toBe(true);
    expect(hasPermission(['*.users.view'], 'tenant-management.users.delete')).toBe(false);
    expect(hasPermission(['ui.*.view'], 'ui.eis.view')).toBe(true);
    expect(hasPermission(['ui.*.view'], 'ui.eis.extra.view')).toBe(false);
  });

  it('a 2-part colon permission grants that resource and action in every module', () => {
    expect(hasPermission(['users:view'], 'tenant-management.users.view')).toBe(true);
    expect(hasPermission(['users:view'], 'identity-management.users.view')).toBe(true);
    expect(hasPermission(['users:view'], 'tenant-management.users.delete')).toBe(false);
  });

  it('a * in the requirement is not a discount: it needs a wildcard grant', () => {
    expect(
      hasPermission(['partner-management.partners.view'], 'partner-management.partners.*'),
    ).toBe(false);
    expect(hasPermission(['partner-management.*'], 'partner-management.partners.*')).toBe(true);
  });

  it('claim document delete/upload rules of the spec (underscore form)', () => {
    const del = [['eis_claims_delete'], ['document_management_documents_delete']];
    expect(isAllowed(['eis.claims.delete'], { anyOf: del })).toBe(true);
    expect(isAllowed(['document-management.documents.delete'], { anyOf: del })).toBe(true);
    expect(isAllowed(['document-management.documents.view'], { anyOf: del })).toBe(false);
    const upload = [
      ['eis_claims_create'],
      ['eis_claims_update'],
      ['document_management_documents_create'],
    ];
    expect(isAllowed(['eis.claims.update'], { anyOf: upload })).toBe(true);
    expect(isAllowed(['claim-management.claims.*'], { anyOf: upload })).toBe(false);
    expect(isAllowed(['eis.claims.*'], { anyOf: upload })).toBe(true);
  });

  it.each([
    // The spec's example permissions, held, against what they must and must not grant.
    [
      'policy-management.policies.view',
      'policy-management.policies.view',
      'policy-management.policies.create',
    ],
    [
      'partner-management.partners.*',
      'partner-management.partners.update',
      'partner-management.brokers.view',
    ],
    [
      'claim-management.claims.*',
      'claim-management.claims.delete',
      'claim-management.documents.view',
    ],
    [
      'document-management.templates.update',
      'document-management.templates.update',
      'document-management.templates.delete',
    ],
    ['tenant-management.users.*', 'tenant-management.users.view', 'tenant-management.roles.view'],
    [
      'identity-management.roles.*',
      'identity-management.roles.create',
      'identity-management.users.create',
    ],
    [
      'payment-management.bank-accounts.*',
      'payment-management.bank-accounts.view',
      'payment-management.mandates.view',
    ],
    [
      'billing-management.invoices.*',
      'billing-management.invoices.view',
      'billing-management.dunning.view',
    ],
    [
      'process-management.workflows.*',
      'process-management.workflows.run',
      'process-management.instances.run',
    ],
    [
      'translation-management.*',
      'translation-management.translations.update',
      'reporting.dashboards.view',
    ],
    ['reporting.dashboards.view', 'reporting.dashboards.view', 'reporting.dashboards.update'],
    ['eis.*', 'eis.claims.delete', 'pbm.claims.delete'],
    ['pbm.*', 'pbm.benchmarks.view', 'eis.benchmarks.view'],
    ['tenants.*', 'tenants.settings.update', 'tenant-management.settings.update'],
    ['gdv.*', 'gdv.imports.create', 'gdv-export.files.view'],
    ['feature.beta.*', 'feature.beta.dashboards', 'feature.alpha.dashboards'],
    ['eis.finance.*', 'eis.finance.dashboards.view', 'eis.claims.view'],
    ['brokers.*', 'brokers.commissions.view', 'partner-management.brokers.view'],
  ])('holding %s grants %s but not %s', (held, granted, notGranted) => {
    expect(hasPermission([held], granted)).toBe(true);
    expect(hasPermission([held], notGranted)).toBe(false);
  });

  it('the demo roles: noui has API permissions but no UI permission', () => {
    expect(hasUiPermission(parsePermissions('tenant-management.users.view,eis.claims.view'))).toBe(
      false,
    );
    expect(hasUiPermission(parsePermissions('ui.eis.view,eis.claims.view'))).toBe(true);
    expect(hasUiPermission(parsePermissions('*.*.*'))).toBe(true);
  });

  it('accepts the required permission in any form', () => {
    expect(hasPermission(['eis.users.view'], 'eis_users_view')).toBe(true);
    expect(hasPermission(['eis_users_view'], 'eis:users:view')).toBe(true);
  });

  it('is case-sensitive and never matches an empty requirement', () => {
    expect(hasPermission(['eis.users.view'], 'EIS.users.view')).toBe(false);
    expect(hasPermission(['eis.users.view'], '')).toBe(false);
    expect(hasPermission([''], 'eis.users.view')).toBe(false);
  });
});

describe('global wildcards', () => {
  it('recognises *, *.*, *.*.* and admin, and nothing narrower', () => {
    for (const p of ['*', '*.*', '*.*.*', 'admin', '*:*', ' * '])
      expect(isGlobalWildcard(p)).toBe(true);
    for (const p of ['ui.*', '*.users.view', 'eis.*', 'administrator', '*.*.view']) {
      expect(isGlobalWildcard(p)).toBe(false);
    }
    expect(hasGlobalWildcard(['eis.*', '*.*'])).toBe(true);
    expect(hasGlobalWildcard(['eis.*'])).toBe(false);
  });
});

describe('hasUiPermission', () => {
  it.each([
    'ui.*.*',
    'ui.*',
    '*.*.*',
    '*.*',
    '*',
    'ui.eis.view',
    'ui.pbm.view',
    'ui.admin.view',
    'admin',
  ])('%s is a UI permission', (p) => {
    expect(hasUiPermission(['tenant-management.users.view', p])).toBe(true);
  });

  it.each([
    [[]],
    [['tenant-management.users.view', 'eis.*']],
    [['build.ui.view']],
    [['*.ui.view']],
    [['uix.eis.view']],
  ])('%j has no UI permission', (held) => {
    expect(hasUiPermission(held)).toBe(false);
  });
});

describe('isAllowed', () => {
  it('allows an empty or absent anyOf', () => {
    expect(isAllowed([], {})).toBe(true);
    expect(isAllowed([], { anyOf: [] })).toBe(true);
  });

  it('anyOf is an OR of alternatives, each an AND of its permissions', () => {
    const rule = { anyOf: [['a.b.view', 'a.b.update'], ['c.d.view']] };
    expect(isAllowed(['a.b.view'], rule)).toBe(false);
    expect(isAllowed(['a.b.view', 'a.b.update'], rule)).toBe(true);
    expect(isAllowed(['c.d.view'], rule)).toBe(true);
    expect(isAllowed(['x.y.view'], rule)).toBe(false);
  });

  it('forbidden hides the reports entry from holders of the finance-dashboards view', () => {
    const reports = {
      anyOf: [['reporting.dashboards.view']],
      forbidden: ['eis.finance.dashboards.view'],
    };
    expect(isAllowed(['reporting.dashboards.view'], reports)).toBe(true);
    expect(isAllowed(['reporting.dashboards.view', 'eis.finance.dashboards.view'], reports)).toBe(
      false,
    );
    // Holding it through a wildcard counts as holding it.
    expect(isAllowed(['reporting.dashboards.view', 'eis.finance.*'], reports)).toBe(false);
  });

  it('a forbidden pattern forbids every permission it covers', () => {
    const rule = { forbidden: ['eis.finance.*'] };
    expect(isAllowed(['eis.finance.dashboards.view'], rule)).toBe(false);
    expect(isAllowed(['eis.claims.view'], rule)).toBe(true);
  });

  it.each(['*', '*.*', '*.*.*', 'admin'])('%s ignores forbidden lists and passes anyOf', (p) => {
    expect(
      isAllowed([p, 'eis.finance.dashboards.view'], {
        anyOf: [['reporting.dashboards.view']],
        forbidden: ['eis.finance.dashboards.view'],
      }),
    ).toBe(true);
  });
});

// Generators for the property tests.
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const hyphenated = fc.array(word, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('-'));
const segment = fc.oneof(word, hyphenated);
const dotted = fc
  .array(fc.oneof(segment, fc.constant('*')), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join('.'));
const anyPermission = fc.oneof(
  dotted,
  fc.string({ maxLength: 30 }),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((p) => p.join('_')),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((p) => p.join(':')),
);
const globalWildcard = fc.constantFrom('*', '*.*', '*.*.*', 'admin');

describe('permission properties', () => {
  it('normalisation is idempotent', () => {
    fc.assert(
      fc.property(anyPermission, (p) => {
        const once = normalizePermission(p);
        expect(normalizePermission(once)).toBe(once);
      }),
    );
  });

  it('dots, colons and underscores name the same permission', () => {
    fc.assert(
      fc.property(hyphenated, word, word, (module, resource, action) => {
        const expected = `${module}.${resource}.${action}`;
        expect(normalizePermission(expected)).toBe(expected);
        expect(normalizePermission(`${module}:${resource}:${action}`)).toBe(expected);
        expect(normalizePermission(`${module.replaceAll('-', '_')}_${resource}_${action}`)).toBe(
          expected,
        );
        for (const form of [expected, `${module}:${resource}:${action}`]) {
          expect(hasPermission([form], expected)).toBe(true);
          expect(hasPermission([expected], form)).toBe(true);
        }
      }),
    );
  });

  it('a global wildcard holder passes every rule, whatever is forbidden', () => {
    const list = fc.array(anyPermission, { maxLength: 5 });
    fc.assert(
      fc.property(
        globalWildcard,
        list,
        fc.array(list, { maxLength: 4 }),
        list,
        (g, held, anyOf, forbidden) => {
          expect(isAllowed([...held, g], { anyOf, forbidden })).toBe(true);
        },
      ),
    );
  });

  it('adding permissions never turns an allowed anyOf-only rule into denied', () => {
    const list = fc.array(dotted, { maxLength: 5 });
    fc.assert(
      fc.property(list, list, fc.array(list, { maxLength: 4 }), (held, extra, anyOf) => {
        fc.pre(isAllowed(held, { anyOf }));
        expect(isAllowed([...held, ...extra], { anyOf })).toBe(true);
      }),
    );
  });

  it('a trailing-* prefix matches every extension', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.array(fc.oneof(segment, fc.constant('*')), { minLength: 0, maxLength: 3 }),
        (prefix, rest) => {
          const required = [...prefix, ...rest].join('.');
          expect(permissionCovers(`${prefix.join('.')}.*`, required)).toBe(true);
        },
      ),
    );
  });

  it('an exact permission covers itself and nothing longer or shorter', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), segment, (parts, more) => {
        const p = parts.join('.');
        expect(hasPermission([p], p)).toBe(true);
        expect(hasPermission([p], `${p}.${more}`)).toBe(false);
        if (parts.length > 1) expect(hasPermission([p], parts.slice(0, -1).join('.'))).toBe(false);
      }),
    );
  });

  it('parsePermissions output is normalised, trimmed and non-empty', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.string())), (input) => {
        for (const p of parsePermissions(input)) {
          expect(p).not.toBe('');
          expect(p).toBe(p.trim());
          expect(normalizePermission(p)).toBe(p);
        }
      }),
    );
  });
});
