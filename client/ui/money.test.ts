import { describe, expect, it } from 'vitest';
import { formatMoney } from './money.ts';

describe('money', () => {
  it('formats money in the language of the user', () => {
    expect(formatMoney(513.81, 'EUR', 'de')).toBe('513,81\u00a0€');
    expect(formatMoney(513.81, 'EUR', 'en')).toBe('€513.81');
    expect(formatMoney(1, 'NOT-A-CODE', 'en')).toBe('1.00 NOT-A-CODE');
  });
});
