import { describe, expect, it } from 'vitest';
import type { Timeslice } from '#client/api/policies-client.ts';
import {
  formatMoney,
  formatUtcDate,
  formatUtcDateTime,
  grandTotalUnit,
  holderName,
  timesliceAt,
} from './policy-display.ts';

const slice = (id: number, from: string, to: string | null) =>
  ({
    id,
    from,
    to,
    premium: { premiumItems: [], grandTotal: 0, currency: 'EUR' },
  }) as unknown as Timeslice;

describe('policy display', () => {
  it('shows UTC dates whatever the time zone of the browser', () => {
    // Midnight UTC is the evening before in America: the policy's day must not move.
    expect(formatUtcDate('2025-11-27T00:00:00.000Z')).toBe('27.11.2025');
    expect(formatUtcDate('2025-11-27T23:30:00-05:00')).toBe('28.11.2025');
    expect(formatUtcDateTime('2024-01-02T09:00:00.000Z')).toBe('02.01.2024 09:00 UTC');
    expect(formatUtcDate(null)).toBe('');
    expect(formatUtcDate('nonsense')).toBe('');
  });

  it('finds the timeslice in force, else the first before the start and the last after the end', () => {
    const timeline = [
      slice(1, '2025-01-01T00:00:00Z', '2025-07-01T00:00:00Z'),
      slice(2, '2025-07-01T00:00:00Z', '2026-01-01T00:00:00Z'),
    ];
    expect(timesliceAt(timeline, new Date('2025-03-01T00:00:00Z'))?.id).toBe(1);
    // `to` is exclusive: the second slice starts where the first ends.
    expect(timesliceAt(timeline, new Date('2025-07-01T00:00:00Z'))?.id).toBe(2);
    expect(timesliceAt(timeline, new Date('2024-06-01T00:00:00Z'))?.id).toBe(1);
    expect(timesliceAt(timeline, new Date('2027-01-01T00:00:00Z'))?.id).toBe(2);
    expect(timesliceAt([slice(3, '2025-01-01T00:00:00Z', null)], new Date('2030-01-01'))?.id).toBe(
      3,
    );
    expect(timesliceAt([], new Date())).toBeNull();
  });

  it('gives the grand total a unit only when every item shares it', () => {
    const units = new Map([
      [1, 'year'],
      [2, 'year'],
      [3, 'oneTimePayment'],
    ] as const);
    const item = (premiumFormulaId: number) => ({ premiumFormulaId, total: 1, isOverride: false });
    expect(grandTotalUnit([item(1), item(2)], units)).toBe('year');
    expect(grandTotalUnit([item(1), item(3)], units)).toBeNull();
    expect(grandTotalUnit([item(1), item(9)], units)).toBeNull();
    expect(grandTotalUnit([], units)).toBeNull();
  });

  it('names persons and organisations', () => {
    expect(holderName({ type: 'person', firstName: 'Stefan', lastName: 'Braun' })).toBe(
      'Stefan Braun',
    );
    expect(holderName({ type: 'org', companyName: 'Kornblume e.K.', lastName: 'x' })).toBe(
      'Kornblume e.K.',
    );
    expect(holderName(null)).toBe('');
  });

  it('formats money in the language of the user', () => {
    expect(formatMoney(513.81, 'EUR', 'de')).toBe('513,81\u00a0€');
    expect(formatMoney(513.81, 'EUR', 'en')).toBe('€513.81');
    expect(formatMoney(1, 'NOT-A-CODE', 'en')).toBe('1.00 NOT-A-CODE');
  });
});
