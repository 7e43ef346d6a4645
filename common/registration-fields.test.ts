import { describe, expect, it } from 'vitest';
import { isExpired } from './registration-fields.ts';

describe('isExpired', () => {
  const now = Date.parse('2025-01-10T12:00:00Z');
  it('is expired only when the current time is after the expiry (spec, section 5)', () => {
    expect(isExpired('2025-01-10T11:59:59Z', now)).toBe(true);
    expect(isExpired('2025-01-10T12:00:00Z', now)).toBe(false);
    expect(isExpired('2025-02-01T00:00:00Z', now)).toBe(false);
    expect(isExpired('garbage', now)).toBe(false);
    expect(isExpired(null, now)).toBe(false);
  });
});
