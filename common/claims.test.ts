import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  ClaimFields,
  SettlementFields,
  canEditClaim,
  canSettleClaim,
  claimDateIssues,
  isIsoDay,
  isoToday,
} from './claims.ts';

describe('isIsoDay', () => {
  it('takes real calendar days only', () => {
    expect(isIsoDay('2024-02-29')).toBe(true);
    expect(isIsoDay('2025-02-29')).toBe(false);
    expect(isIsoDay('2025-13-01')).toBe(false);
    expect(isIsoDay('2025-1-01')).toBe(false);
    expect(isIsoDay('2025-01-01T00:00:00Z')).toBe(false);
  });
});

describe('isoToday', () => {
  it('is the day of the time zone, not of UTC', () => {
    const lateUtc = new Date('2025-06-30T22:30:00Z');
    expect(isoToday('Europe/Berlin', lateUtc)).toBe('2025-07-01');
    expect(isoToday('UTC', lateUtc)).toBe('2025-06-30');
    expect(isoToday('America/New_York', lateUtc)).toBe('2025-06-30');
  });

  it('falls back to UTC for a zone it does not know', () => {
    expect(isoToday('Mars/Olympus', new Date('2025-06-30T22:30:00Z'))).toBe('2025-06-30');
  });
});

describe('claimDateIssues', () => {
  const context = { today: '2025-06-30', policyStart: '2025-01-01' };

  it('accepts a damage inside the policy noticed later', () => {
    expect(
      claimDateIssues({ damageDate: '2025-03-01', notificationDate: '2025-03-02' }, context),
    ).toEqual([]);
    expect(
      claimDateIssues({ damageDate: '2025-01-01', notificationDate: '2025-06-30' }, context),
    ).toEqual([]);
  });

  it('names each broken rule on its field', () => {
    expect(
      claimDateIssues({ damageDate: '2025-07-01', notificationDate: '2025-07-02' }, context),
    ).toEqual([
      { field: 'damageDate', code: 'date_in_future' },
      { field: 'notificationDate', code: 'date_in_future' },
    ]);
    expect(
      claimDateIssues({ damageDate: '2024-12-31', notificationDate: '2025-01-02' }, context),
    ).toEqual([{ field: 'damageDate', code: 'before_policy_start' }]);
    expect(
      claimDateIssues({ damageDate: '2025-03-01', notificationDate: '2025-02-28' }, context),
    ).toEqual([{ field: 'notificationDate', code: 'before_damage_date' }]);
  });

  it('skips the policy rule when the start is unknown', () => {
    expect(
      claimDateIssues(
        { damageDate: '2000-01-01', notificationDate: '2000-01-01' },
        { today: '2025-06-30', policyStart: null },
      ),
    ).toEqual([]);
  });
});

describe('ClaimFields', () => {
  const valid = { title: ' Hail ', damageDate: '2025-03-01', claimType: 'damage' };

  it('trims, fills the defaults and keeps the notice date open', () => {
    expect(v.parse(ClaimFields, valid)).toEqual({
      title: 'Hail',
      description: '',
      damageDate: '2025-03-01',
      claimType: 'damage',
      customFields: {},
    });
  });

  it.each([
    [{ title: '   ' }, 'required'],
    [{ title: 'x'.repeat(201) }, 'too_long'],
    [{ damageDate: '' }, 'required'],
    [{ damageDate: '01.03.2025' }, 'invalid_date'],
    [{ claimType: 'fire' }, 'invalid_claim_type'],
    [{ description: 'x'.repeat(5001) }, 'too_long'],
  ])('refuses %o with the code %s', (change, code) => {
    const result = v.safeParse(ClaimFields, { ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe(code);
  });
});

describe('SettlementFields', () => {
  const valid = { insuredObject: 'vehicle', reserve: 0, payment: 10_000_000_000, recourse: 5 };

  it('takes cents from 0 to 10^10', () => {
    expect(v.parse(SettlementFields, valid)).toEqual(valid);
  });

  it.each([{ reserve: -1 }, { payment: 10_000_000_001 }, { recourse: 0.5 }, { reserve: '1' }])(
    'refuses %o as invalid_amount',
    (change) => {
      const result = v.safeParse(SettlementFields, { ...valid, ...change });
      expect(result.issues?.[0]?.message).toBe('invalid_amount');
    },
  );
});

describe('claim status rules', () => {
  it('closes a closed claim to edits, a rejected one to settlements only', () => {
    expect(canEditClaim('closed')).toBe(false);
    expect(canEditClaim('rejected')).toBe(true);
    expect(canSettleClaim('rejected')).toBe(false);
    expect(canSettleClaim('closed')).toBe(false);
    expect(canSettleClaim('approved')).toBe(true);
  });
});
