import { describe, expect, it } from 'vitest';
import { waitText } from './wait-text.ts';

describe('waitText', () => {
  it('says minutes for a lockout, rounded up', () => {
    expect(waitText(894, 'en')).toBe('15 minutes');
    expect(waitText(894, 'de')).toBe('15 Minuten');
    expect(waitText(894, 'pl')).toBe('15 minut');
    expect(waitText(121, 'en')).toBe('3 minutes');
  });

  it('says seconds for a short wait', () => {
    expect(waitText(42, 'en')).toBe('42 seconds');
    expect(waitText(1, 'en')).toBe('1 second');
    expect(waitText(0.2, 'de')).toBe('1 Sekunde');
    expect(waitText(90, 'pl')).toBe('90 sekund');
  });
});
