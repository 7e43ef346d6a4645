import { describe, expect, it } from 'vitest';
import { parsePercent, percentInput, percentText } from './tax-rate.ts';

describe('tax rates as percent', () => {
  it('shows basis points as the language writes a percent', () => {
    expect(percentText(1900, 'de')).toBe('19 %');
    expect(percentText(1950, 'de')).toBe('19,5 %');
    expect(percentText(725, 'en')).toBe('7.25 %');
    expect(percentInput(1950, 'pl')).toBe('19,5');
  });

  it('reads a typed percent into whole basis points, 0 to 100 %', () => {
    expect(parsePercent('19', 'de')).toBe(1900);
    expect(parsePercent('19,5 %', 'de')).toBe(1950);
    expect(parsePercent('7.25', 'en')).toBe(725);
    expect(parsePercent('0', 'de')).toBe(0);
    expect(parsePercent('100', 'de')).toBe(10_000);
    for (const text of ['', '100,01', '19,555', '-1', 'neunzehn', '19.5']) {
      expect(parsePercent(text, 'de'), text).toBeNull();
    }
  });
});
