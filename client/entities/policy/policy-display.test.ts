import { describe, expect, it } from 'vitest';
import { formatUtcDate, grandTotalUnit } from './policy-display.ts';

describe('policy display', () => {
  it('shows UTC dates whatever the time zone of the browser', () => {
    // Midnight UTC is the evening before in America: the policy's day must not move.
    expect(formatUtcDate('2025-11-27T00:00:00.000Z')).toBe('27.11.2025');
    expect(formatUtcDate('2025-11-27T23:30:00-05:00')).toBe('28.11.2025');
    expect(formatUtcDate(null)).toBe('');
    expect(formatUtcDate('nonsense')).toBe('');
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
});
