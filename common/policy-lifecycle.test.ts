import { describe, expect, it } from 'vitest';
import {
  ACTION_STATUSES,
  POLICY_ACTIONS,
  POLICY_STATUSES,
  allowedActions,
  canPerform,
  contractEnd,
  lifecycleRefusal,
  restoreRefusal,
  terminationDateRefusal,
} from './policy-lifecycle.ts';

describe('policy lifecycle rules', () => {
  it('lets a live policy end and change, an ended one at most be corrected', () => {
    expect(allowedActions({ status: 'ACTIVE', hasDraft: false })).toEqual([
      'terminate',
      'withdraw',
      'restoreVersion',
      'createDraft',
    ]);
    expect(allowedActions({ status: 'SUSPENDED', hasDraft: true })).toEqual([
      'terminate',
      'withdraw',
      'restoreVersion',
      'patchDraft',
      'deleteDraft',
      'applyDraft',
    ]);
    expect(allowedActions({ status: 'TERMINATED', hasDraft: false })).toEqual(['restoreVersion']);
    expect(allowedActions({ status: 'WITHDRAWN', hasDraft: false })).toEqual([]);
  });

  it('names why an action is refused, the status first', () => {
    expect(lifecycleRefusal('terminate', { status: 'TERMINATED', hasDraft: false })).toBe(
      'illegal_status',
    );
    expect(lifecycleRefusal('withdraw', { status: 'WITHDRAWN', hasDraft: false })).toBe(
      'illegal_status',
    );
    expect(lifecycleRefusal('restoreVersion', { status: 'WITHDRAWN', hasDraft: false })).toBe(
      'illegal_status',
    );
    expect(lifecycleRefusal('createDraft', { status: 'ACTIVE', hasDraft: true })).toBe(
      'draft_exists',
    );
    expect(lifecycleRefusal('applyDraft', { status: 'ACTIVE', hasDraft: false })).toBe('no_draft');
    expect(lifecycleRefusal('patchDraft', { status: 'TERMINATED', hasDraft: true })).toBe(
      'illegal_status',
    );
  });

  it('is total: every action and status has a verdict that agrees with the table', () => {
    for (const action of POLICY_ACTIONS) {
      for (const status of POLICY_STATUSES) {
        for (const hasDraft of [false, true]) {
          const allowed = canPerform(action, { status, hasDraft });
          if (!ACTION_STATUSES[action].includes(status)) expect(allowed).toBe(false);
          if (allowed) expect(allowedActions({ status, hasDraft })).toContain(action);
        }
      }
    }
  });

  it('restores only a superseded version', () => {
    expect(restoreRefusal({ revisionStatus: 'superseded' })).toBeNull();
    expect(restoreRefusal({ revisionStatus: 'applied' })).toBe('is_current');
    expect(restoreRefusal({ revisionStatus: 'draft' })).toBe('is_draft');
  });
});

describe('contract term and termination date', () => {
  const start = Date.UTC(2024, 0, 31);

  it('adds days, weeks, months and years as a calendar does', () => {
    expect(contractEnd(start, 10, 'day')).toBe(Date.UTC(2024, 1, 10));
    expect(contractEnd(start, 2, 'week')).toBe(Date.UTC(2024, 1, 14));
    expect(contractEnd(start, 1, 'month')).toBe(Date.UTC(2024, 1, 29));
    expect(contractEnd(start, 13, 'month')).toBe(Date.UTC(2025, 1, 28));
    expect(contractEnd(Date.UTC(2024, 1, 29), 1, 'year')).toBe(Date.UTC(2025, 1, 28));
    expect(contractEnd(Date.UTC(2024, 4, 15), 1, 'year')).toBe(Date.UTC(2025, 4, 15));
  });

  it('wants a termination date within the contract', () => {
    const contract = { startMs: Date.UTC(2024, 4, 1), endMs: Date.UTC(2025, 4, 1) };
    expect(terminationDateRefusal('2024-05-01', contract)).toBeNull();
    expect(terminationDateRefusal('2025-05-01', contract)).toBeNull();
    expect(terminationDateRefusal('2024-04-30', contract)).toBe('before_start');
    expect(terminationDateRefusal('2025-05-02', contract)).toBe('after_end');
    expect(terminationDateRefusal('2099-01-01', { ...contract, endMs: null })).toBeNull();
    expect(terminationDateRefusal('31.12.2024', contract)).toBe('invalid_date');
    expect(terminationDateRefusal(undefined, contract)).toBe('invalid_date');
  });
});
