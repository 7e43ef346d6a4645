import { describe, expect, it } from 'vitest';
import {
  cellState,
  extraPermissions,
  isGrantable,
  samePermissions,
  summarizePermissions,
  toggleCell,
  ungrantable,
} from './role-matrix.ts';

describe('cellState', () => {
  const role = ['claim-management.claims.*', 'policy-management.policies.view'];

  it('ticks an exact permission', () => {
    expect(cellState(role, 'policy-management.policies.view')).toEqual({
      checked: true,
      includedBy: null,
    });
    expect(cellState(role, 'claim-management.claims.*')).toEqual({
      checked: true,
      includedBy: null,
    });
  });

  it('ticks a box included in a broader permission and names it', () => {
    expect(cellState(role, 'claim-management.claims.delete')).toEqual({
      checked: true,
      includedBy: 'claim-management.claims.*',
    });
    expect(cellState(['*.*.*'], 'ui.eis.view').includedBy).toBe('*.*.*');
    expect(cellState(['policy-management.*'], 'policy-management.products.*').includedBy).toBe(
      'policy-management.*',
    );
  });

  it('leaves the rest unticked: view does not include update, nor the * box', () => {
    expect(cellState(role, 'policy-management.policies.update').checked).toBe(false);
    expect(cellState(role, 'policy-management.policies.*').checked).toBe(false);
  });
});

describe('toggleCell', () => {
  it('adds and removes exactly one permission, keeping the others and their order', () => {
    const start = ['eis.finance.*', 'reporting.dashboards.view'];
    const added = toggleCell(start, 'claim-management', 'claims', 'view', true);
    expect(added).toEqual([...start, 'claim-management.claims.view']);
    expect(toggleCell(added, 'claim-management', 'claims', 'view', false)).toEqual(start);
  });

  it('does not add twice', () => {
    const once = toggleCell([], 'reporting', 'dashboards', 'view', true);
    expect(toggleCell(once, 'reporting', 'dashboards', 'view', true)).toEqual(once);
  });

  it('ticking * drops the single actions of that resource only', () => {
    const start = [
      'claim-management.claims.view',
      'claim-management.claims.update',
      'document-management.documents.view',
      'claim-management.claims.run',
    ];
    expect(toggleCell(start, 'claim-management', 'claims', '*', true)).toEqual([
      'document-management.documents.view',
      'claim-management.claims.run',
      'claim-management.claims.*',
    ]);
  });
});

describe('extraPermissions', () => {
  it('keeps what the matrix has no box for', () => {
    expect(
      extraPermissions([
        'claim-management.claims.view',
        'eis.finance.*',
        '*.*.*',
        'process-management.workflows.run',
        'policy-management.*',
      ]),
    ).toEqual([
      'eis.finance.*',
      '*.*.*',
      'process-management.workflows.run',
      'policy-management.*',
    ]);
  });
});

describe('grants', () => {
  const held = ['tenant-management.users.*', 'identity-management.roles.*', 'ui.eis.view'];

  it('lets users grant what they hold, wildcards included', () => {
    expect(isGrantable(held, 'tenant-management.users.delete')).toBe(true);
    expect(isGrantable(held, 'identity-management.roles.*')).toBe(true);
    expect(isGrantable(['*.*.*'], 'claim-management.claims.*')).toBe(true);
  });

  it('refuses what they do not hold, and a wildcard for a single action', () => {
    expect(isGrantable(held, 'claim-management.claims.view')).toBe(false);
    expect(isGrantable(['partner-management.partners.view'], 'partner-management.partners.*')).toBe(
      false,
    );
  });

  it('lists the permissions of a role beyond the user’s reach', () => {
    expect(ungrantable(held, ['ui.eis.view', '*.*.*', 'claim-management.claims.view'])).toEqual([
      '*.*.*',
      'claim-management.claims.view',
    ]);
  });
});

describe('samePermissions', () => {
  it('ignores order', () => {
    expect(samePermissions(['a.b.c', 'd.e.f'], ['d.e.f', 'a.b.c'])).toBe(true);
    expect(samePermissions(['a.b.c'], ['a.b.c', 'd.e.f'])).toBe(false);
    expect(samePermissions(['a.b.c', 'x.y.z'], ['a.b.c', 'd.e.f'])).toBe(false);
  });
});

describe('summarizePermissions', () => {
  it('counts per module in first-seen order', () => {
    expect(
      summarizePermissions([
        'ui.eis.view',
        'claim-management.claims.*',
        'claim-management.claims.view',
        'reporting.dashboards.view',
      ]),
    ).toEqual({
      all: false,
      total: 4,
      modules: [
        { module: 'ui', count: 1 },
        { module: 'claim-management', count: 2 },
        { module: 'reporting', count: 1 },
      ],
    });
  });

  it('says all for a global wildcard', () => {
    expect(summarizePermissions(['*.*.*']).all).toBe(true);
    expect(summarizePermissions(['admin']).all).toBe(true);
  });
});
